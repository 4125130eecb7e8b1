"""The attention matrix and one of its rows step by step: the whole matrix softmax(QKᵀ/√d_k) for a
sentence, one row per token with its sum as computed and a temperature that sharpens or flattens
the rows; and for one query word, the computation behind its row with the model's own numbers:
each key's dot product with its query, the scaling by √d_k, the softmax weights, and the output
as the weighted sum of the value vectors."""
import math

import torch

from demos.runtime.params import Param
from demos.shared.sentence_attention import (MAX_TOKENS, model_note, model_params, rows, sentence_param, trace_sentence,
                                             unknown_note)
from demos.shared.sentence_attention import work as sentence_work

ID = "attention_matrix"
TITLE = "The math of attention: the matrix, and one row step by step"
PARAMS = [
    sentence_param(),
    *model_params()[:2],
    Param("query", "int", 0, "Which token's row to take apart (1 = the first; 0 or past the end = the last)",
          0, MAX_TOKENS),
    Param("temperature", "float", 1.0,
          "Divide the scaled scores by this before the softmax (below 1 sharpens, above 1 flattens)", 0.1, 10.0),
    *model_params()[2:],
]
TINY = {"steps": 10}


def attention_weights(scores: torch.Tensor, temperature: float) -> torch.Tensor:
    """softmax(scores / temperature) row by row; masked (−inf) scores stay at weight 0."""
    return torch.softmax(scores / temperature, dim=-1)


def entropy_bits(row: torch.Tensor) -> float:
    row = row[row > 0]
    return -(row * row.log2()).sum().item()


def query_steps(head: dict, i: int) -> dict:
    """The computation for query position `i` of one head, from its q, k and v."""
    q, k, v = head["q"], head["k"], head["v"]  # (T, d_k) each
    d_k = q.size(1)
    dots = k[: i + 1] @ q[i]  # (i + 1,): how well each key (up to i: the causal mask) matches the query
    scaled = dots / math.sqrt(d_k)
    weights = torch.softmax(scaled, dim=0)
    output = weights @ v[: i + 1]  # (d_k,): the weighted sum of the values
    return {"query": i, "dots": dots.tolist(), "scaled": scaled.tolist(), "weights": weights.tolist(),
            "weight_sum": weights.sum().item(), "output": output.tolist()}


def head_parts(head: dict) -> dict:
    """What the browser needs to take any row of this head apart: q, k, v and every query's steps."""
    T = head["q"].size(0)
    return {"q": rows(head["q"]), "k": rows(head["k"]), "v": rows(head["v"]),
            "steps": [query_steps(head, i) for i in range(T)],
            "model_output": rows(head["out"])}  # what the model's attention produced, to check the steps against


def work(params: dict) -> float:
    """The run's cost in speed-test units: the shared language model's training, unless it is kept."""
    return sentence_work(params)


def run(params: dict, progress, device: torch.device) -> dict:
    trace = trace_sentence(params, progress, device)
    layer, head, temperature = params["layer"], params["head"], params["temperature"]
    chosen = trace.heads[layer - 1][head - 1]
    scores = chosen["scores"]  # (T, T): q·k/√d_k, −inf above the diagonal
    # At temperature 1 these are the model's own weights; otherwise its scores, re-softmaxed.
    weights = chosen["weights"] if temperature == 1 else attention_weights(scores, temperature)
    row_sums = weights.sum(dim=-1)
    T, d_k = chosen["q"].shape
    above = torch.ones(T, T, dtype=torch.bool).triu(1)
    max_deviation = (row_sums - 1).abs().max().item()
    mean_top = weights.max(dim=-1).values.mean().item()
    # Every head taken apart, so the browser switches heads and picks another query word at once.
    heads = [[head_parts(h) for h in layer_heads] for layer_heads in trace.heads]
    query = T - 1 if params["query"] == 0 or params["query"] > T else params["query"] - 1
    step = heads[layer - 1][head - 1]["steps"][query]
    best = max(range(query + 1), key=lambda j: weights[query, j].item())  # at this temperature, as the matrix shows
    tokens = trace.tokens
    summary = (f"Layer {layer}, head {head} ({model_note(trace)}), temperature {temperature:g}: all {T} rows sum to 1 "
               f"(largest deviation {max_deviation:.1e}) and the {int(above.sum())} cells above the diagonal are "
               f"{'exactly 0' if bool((weights[above] == 0).all()) else 'not all 0'}: the causal mask. "
               f"A row's largest weight is {mean_top:.2f} on average. The query of '{tokens[query]}' matches "
               f"'{tokens[best]}' best: q·k = {step['dots'][best]:.2f}, ÷ √{d_k} = {step['scaled'][best]:.2f}, "
               f"softmax weight {weights[query, best].item():.2f}.{unknown_note(trace)}")
    return {
        "tokens": tokens,
        "unknown": trace.unknown,
        "layer": layer,
        "head": head,
        "temperature": temperature,
        "weights": rows(weights),
        "row_sums": row_sums.tolist(),
        "max_row_sum_deviation": max_deviation,
        "row_entropy_bits": [entropy_bits(row) for row in weights],
        "n_layers": len(trace.heads),
        "n_heads": len(trace.heads[0]),
        "all_scores": [[rows(h["scores"]) for h in layer_heads] for layer_heads in trace.heads],
        "query": query,
        "d_k": d_k,
        "scale": math.sqrt(d_k),
        "heads": heads,
        "model": trace.model,
        # The summary's words that no picker changes: the page words the summary again for the view it shows.
        "notes": {"model": model_note(trace), "unknown": unknown_note(trace)},
        "summary": summary,
    }


def format_text(result: dict) -> str:
    tokens = result["tokens"]
    width = min(12, max(map(len, tokens)))
    cut = lambda token: token if len(token) <= width else token[: width - 1] + "…"
    lines = [f"softmax(QKᵀ/√d_k / {result['temperature']:g}), layer {result['layer']}, head {result['head']}:", "",
             " " * (width + 1) + " ".join(f"{cut(t)[:6]:>6}" for t in tokens)]
    for token, row, total in zip(tokens, result["weights"], result["row_sums"]):
        lines.append(f"{cut(token):>{width}} " + " ".join(f"{w:6.2f}" for w in row) + f"  | Σ={total:.2f}")
    parts = result["heads"][result["layer"] - 1][result["head"] - 1]
    query, step = result["query"], parts["steps"][result["query"]]
    vector = lambda values: "[" + " ".join(f"{x:+.2f}" for x in values) + "]"
    lines += ["", f"Row '{tokens[query]}' step by step (temperature 1, d_k = {result['d_k']}):",
              f"  q = {vector(parts['q'][query])}", "",
              f"  {'key':>{width}}  {'q·k':>7}  {'÷√d_k':>7}  {'softmax':>7}"]
    for j in range(len(step["dots"])):
        bar = "#" * round(20 * step["weights"][j])
        lines.append(f"  {cut(tokens[j]):>{width}}  {step['dots'][j]:7.2f}  {step['scaled'][j]:7.2f}  "
                     f"{step['weights'][j]:7.3f} {bar}")
    lines += [f"  {'Σ':>{width}}  {'':7}  {'':7}  {step['weight_sum']:7.3f}", "",
              f"  output = Σ weight·v = {vector(step['output'])}", "", result["summary"]]
    return "\n".join(lines)
