"""The attention web: where a trained Transformer's attention goes in one sentence, as arcs between
tokens, beside the complexity table of "Attention Is All You Need" filled in for that sentence."""
import torch

from demos.shared.complexity import SOURCE, TABLE_1
from demos.shared.language_models import SHARED
from demos.shared.sentence_attention import (MAX_TOKENS, SentenceTrace, model_note, model_params, rows, sentence_param,
                                             trace_sentence, unknown_note)
from demos.shared.sentence_attention import work as sentence_work

ID = "attention_web"
TITLE = "The Transformer revolution: a sentence's attention web"
PARAMS = [sentence_param(), *model_params()]
TINY = {"steps": 10}


def strongest_links(tokens: list[str], weights: torch.Tensor) -> list[dict]:
    """For each token, the earlier (or same) token it gives the most weight to."""
    links = []
    for i, row in enumerate(weights):
        j = int(row[: i + 1].argmax())
        links.append({"from": i, "to": j, "weight": row[j].item()})
    return links


def pattern_shares(weights: torch.Tensor) -> dict:
    """How much weight, on average over the tokens, goes to themselves, the previous token and the first token."""
    T = weights.size(0)
    later = range(1, T)
    return {
        "self": weights.diagonal().mean().item(),
        "previous": sum(weights[i, i - 1].item() for i in later) / max(1, T - 1),
        "first": sum(weights[i, 0].item() for i in later) / max(1, T - 1),
    }


def summarize(trace: SentenceTrace, layer: int, head: int, links: list[dict], shares: dict) -> str:
    tokens = trace.tokens
    strongest = max(links[1:] or links, key=lambda link: link["weight"])
    target = "itself" if strongest["to"] == strongest["from"] else f"'{tokens[strongest['to']]}'"
    return (f"Layer {layer}, head {head} ({model_note(trace)}): '{tokens[strongest['from']]}' attends most to "
            f"{target} ({strongest['weight']:.2f}); on average a token gives "
            f"{shares['previous']:.0%} of its weight to the previous token and {shares['self']:.0%} to itself."
            f"{unknown_note(trace)}")


def work(params: dict) -> float:
    """The run's cost in speed-test units: the shared language model's training, unless it is kept."""
    return sentence_work(params)


def run(params: dict, progress, device: torch.device) -> dict:
    trace = trace_sentence(params, progress, device)
    layer, head = params["layer"], params["head"]
    weights = trace.heads[layer - 1][head - 1]["weights"]  # (T, T)
    links = strongest_links(trace.tokens, weights)
    shares = pattern_shares(weights)
    n, d = len(trace.tokens), SHARED.width
    return {
        "tokens": trace.tokens,
        "unknown": trace.unknown,
        "layer": layer,
        "head": head,
        "n_layers": len(trace.heads),
        "n_heads": len(trace.heads[0]),
        "weights": rows(weights),
        # Every layer's heads, so the browser switches between them at once.
        "all_weights": [[rows(h["weights"]) for h in heads] for heads in trace.heads],
        "links": links,
        "shares": shares,
        "model": trace.model,
        # The summary's words that no picker changes: the page words the summary again for the view it shows.
        "notes": {"model": model_note(trace), "unknown": unknown_note(trace)},
        "complexity": {"source": SOURCE, "rows": TABLE_1, "n": n, "d": d,
                       "attention_ops": n * n * d, "recurrent_ops": n * d * d},
        "max_tokens": MAX_TOKENS,
        "summary": summarize(trace, layer, head, links, shares),
    }


def format_text(result: dict) -> str:
    tokens = result["tokens"]
    width = max(map(len, tokens))
    lines = [f"Layer {result['layer']}, head {result['head']}: where each token's attention goes most", ""]
    for link in result["links"]:
        bar = "#" * round(20 * link["weight"])
        lines.append(f"  {tokens[link['from']]:>{width}} → {tokens[link['to']]:<{width}} {link['weight']:5.2f} {bar}")
    table = result["complexity"]
    lines += ["", f"{table['source']} (n = sequence length, d = width):",
              f"  {'Layer type':<16}{'Complexity per layer':<22}{'Sequential operations':<23}Maximum path length"]
    for row in table["rows"]:
        lines.append(f"  {row['layer']:<16}{row['per_layer']:<22}{row['sequential']:<23}{row['path']}")
    lines += [f"  Here n = {table['n']}, d = {table['d']}: n²·d = {table['attention_ops']:,} "
              f"vs n·d² = {table['recurrent_ops']:,}", "", result["summary"]]
    return "\n".join(lines)
