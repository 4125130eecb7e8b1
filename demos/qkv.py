"""Q, K and V: attention for one query word, step by step, with the model's own numbers:
its query vector, each key's dot product with it, the scaling by √d_k, the softmax weights,
and the output as the weighted sum of the value vectors."""
import math

import torch

from demos.runtime.params import Param
from demos.shared.sentence_attention import (MAX_TOKENS, model_note, model_params, rows, sentence_param, trace_sentence,
                                             unknown_note)

ID = "qkv"
TITLE = "The cocktail party: query, key and value step by step"
PARAMS = [
    sentence_param(),
    Param("query", "int", 0, "Which token asks (1 = the first; 0 or past the end = the last)", 0, MAX_TOKENS),
    *model_params(),
]


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


def work(params: dict) -> float:
    """How the run's cost grows with its settings, the language model's training steps (a
    trained model is kept and reused): the engine scales its time estimates by it."""
    return params["steps"] + 1


def run(params: dict, progress, device: torch.device) -> dict:
    trace = trace_sentence(params, progress, device)
    layer, head_n = params["layer"], params["head"]
    head = trace.heads[layer - 1][head_n - 1]
    T, d_k = head["q"].shape
    chosen = T - 1 if params["query"] == 0 or params["query"] > T else params["query"] - 1
    steps = [query_steps(head, i) for i in range(T)]  # every query, so clicking a word needs no new request
    step = steps[chosen]
    best = max(range(chosen + 1), key=lambda j: step["weights"][j])
    tokens = trace.tokens
    summary = (f"The query of '{tokens[chosen]}' (layer {layer}, head {head_n}, {model_note(trace)}) matches "
               f"'{tokens[best]}' best: q·k = {step['dots'][best]:.2f}, ÷ √{d_k} = {step['scaled'][best]:.2f}, "
               f"softmax weight {step['weights'][best]:.2f}; the {chosen + 1} weights sum to {step['weight_sum']:.6f}."
               f"{unknown_note(trace)}")
    return {
        "tokens": tokens,
        "unknown": trace.unknown,
        "layer": layer,
        "head": head_n,
        "d_k": d_k,
        "scale": math.sqrt(d_k),
        "query": chosen,
        "q": rows(head["q"]),
        "k": rows(head["k"]),
        "v": rows(head["v"]),
        "steps": steps,
        "model_output": rows(head["out"]),  # what the model's attention produced, for comparison with the steps
        "model": trace.model,
        "summary": summary,
    }


def format_text(result: dict) -> str:
    tokens, step = result["tokens"], result["steps"][result["query"]]
    width = max(map(len, tokens))
    vector = lambda values: "[" + " ".join(f"{x:+.2f}" for x in values) + "]"
    lines = [f"Query '{tokens[result['query']]}' (layer {result['layer']}, head {result['head']}, "
             f"d_k = {result['d_k']})",
             f"  q = {vector(result['q'][result['query']])}", "",
             f"  {'key':>{width}}  {'q·k':>7}  {'÷√d_k':>7}  {'softmax':>7}"]
    for j in range(len(step["dots"])):
        bar = "#" * round(20 * step["weights"][j])
        lines.append(f"  {tokens[j]:>{width}}  {step['dots'][j]:7.2f}  {step['scaled'][j]:7.2f}  "
                     f"{step['weights'][j]:7.3f} {bar}")
    lines += [f"  {'Σ':>{width}}  {'':7}  {'':7}  {step['weight_sum']:7.3f}", "",
              f"  output = Σ weight·v = {vector(step['output'])}", "", result["summary"]]
    return "\n".join(lines)
