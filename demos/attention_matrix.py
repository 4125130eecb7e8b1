"""The attention matrix: the whole matrix softmax(QKᵀ/√d_k) for a sentence, one row per token, each row's
sum as computed, and a temperature that sharpens or flattens the rows."""
import torch

from demos.runtime.params import Param
from demos.shared.sentence_attention import model_note, model_params, rows, sentence_param, trace_sentence, unknown_note

ID = "attention_matrix"
TITLE = "The math of attention: the attention matrix"
PARAMS = [
    sentence_param(),
    *model_params()[:2],
    Param("temperature", "float", 1.0,
          "Divide the scaled scores by this before the softmax (below 1 sharpens, above 1 flattens)", 0.1, 10.0),
    *model_params()[2:],
]


def attention_weights(scores: torch.Tensor, temperature: float) -> torch.Tensor:
    """softmax(scores / temperature) row by row; masked (−inf) scores stay at weight 0."""
    return torch.softmax(scores / temperature, dim=-1)


def entropy_bits(row: torch.Tensor) -> float:
    row = row[row > 0]
    return -(row * row.log2()).sum().item()


def work(params: dict) -> float:
    """How the run's cost grows with its settings, the language model's training steps (a
    trained model is kept and reused): the engine scales its time estimates by it."""
    return params["steps"] + 1


def run(params: dict, progress, device: torch.device) -> dict:
    trace = trace_sentence(params, progress, device)
    layer, head, temperature = params["layer"], params["head"], params["temperature"]
    scores = trace.heads[layer - 1][head - 1]["scores"]  # (T, T): q·k/√d_k, −inf above the diagonal
    # At temperature 1 these are the model's own weights; otherwise its scores, re-softmaxed.
    own = trace.heads[layer - 1][head - 1]["weights"]
    weights = own if temperature == 1 else attention_weights(scores, temperature)
    row_sums = weights.sum(dim=-1)
    T = weights.size(0)
    above = torch.ones(T, T, dtype=torch.bool).triu(1)
    max_deviation = (row_sums - 1).abs().max().item()
    entropies = [entropy_bits(row) for row in weights]
    mean_top = weights.max(dim=-1).values.mean().item()
    summary = (f"Layer {layer}, head {head} ({model_note(trace)}), temperature {temperature:g}: all {T} rows sum to 1 "
               f"(largest deviation {max_deviation:.1e}) and the {int(above.sum())} cells above the diagonal are "
               f"{'exactly 0' if bool((weights[above] == 0).all()) else 'not all 0'}: the causal mask. "
               f"A row's largest weight is {mean_top:.2f} on average.{unknown_note(trace)}")
    return {
        "tokens": trace.tokens,
        "unknown": trace.unknown,
        "layer": layer,
        "head": head,
        "temperature": temperature,
        "weights": rows(weights),
        "row_sums": row_sums.tolist(),
        "max_row_sum_deviation": max_deviation,
        "row_entropy_bits": entropies,
        "n_layers": len(trace.heads),
        "n_heads": len(trace.heads[0]),
        # Every head's scores, so the browser switches heads and re-applies the temperature at once.
        "all_scores": [[rows(h["scores"]) for h in heads] for heads in trace.heads],
        "model": trace.model,
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
    lines += ["", result["summary"]]
    return "\n".join(lines)
