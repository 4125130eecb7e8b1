"""Slide 5, memory has a size: Index Lookup (Bhattamishra et al., 2024).

N random digits, then a token naming a position; the answer is the digit there. A recurrent
network must hold all N digits in its fixed-size state before it learns which one is asked
for; attention looks back at the position asked. The demo trains the tuned LSTM at every
(N, width) of a grid and a one-layer Transformer at every N, with equal steps, and reports
accuracy on fresh questions, cell by cell as each finishes.
"""
import torch

from demos.classifier import (CLEAR_GAP, TUNED_FORGET_BIAS, TUNED_LR, LossCurve, classifier_config, near_chance,
                              train_and_score)
from demos.params import Param, seed_param
from demos.recap import best_of, headline as recap_row
from demos.tasks import IndexLookup
from demos.training import TrainConfig

ID = "index_lookup"
TITLE = "Memory has a size: Index Lookup"
LENGTHS = (10, 20, 50, 100)
WIDTHS = (16, 32, 64, 128, 256)
PARAMS = [
    seed_param(),
    Param("lengths", "multi", [10, 20, 50, 100], "Sequence lengths N", 1, len(LENGTHS), choices=LENGTHS),
    Param("widths", "multi", [32, 64, 128, 256], "LSTM widths (state size)", 1, len(WIDTHS), choices=WIDTHS),
    Param("steps", "int", 1500, "Training steps, the same for every model", 10, 1500),
]
TRANSFORMER_WIDTH = 64
BATCH_SIZE = 64
N_TEST = 1000
CHANCE = 1 / IndexLookup(1).n_out
SOLVED = 0.9  # the accuracy the summary counts as solving a cell


def run(params: dict, progress, device: torch.device) -> dict:
    lengths, widths, steps = params["lengths"], params["widths"], params["steps"]
    runs = [(n, "lstm-tuned", width) for n in lengths for width in widths]
    runs += [(n, "transformer", TRANSFORMER_WIDTH) for n in lengths]
    cells: list[dict] = []

    def partial() -> dict:
        return {"lengths": lengths, "widths": widths, "transformer_width": TRANSFORMER_WIDTH, "chance": CHANCE,
                "cells": list(cells)}

    for i, (n, name, width) in enumerate(runs):
        task = IndexLookup(n)
        label = f"{'LSTM' if name == 'lstm-tuned' else 'Transformer'} width {width}, N = {n}"
        lr = TUNED_LR if name == "lstm-tuned" else TrainConfig().lr
        curve = LossCurve(steps, lambda step, loss, i=i, label=label: progress(
            (i + step / steps) / len(runs), f"{label}: step {step}/{steps}, loss {loss:.2f}"), points=20)
        score = train_and_score(classifier_config(name, task, width), task, TrainConfig(steps=steps, lr=lr),
                                BATCH_SIZE, params["seed"], device, N_TEST, curve)
        cells.append({"model": name, "length": n, "width": width, "accuracy": score.accuracy,
                      "parameters": score.parameters, "final_loss": score.losses[-1], "seconds": score.seconds})
        progress((i + 1) / len(runs), f"{label}: {score.accuracy:.0%} right", partial())

    result = {**partial(), "steps": steps, "batch_size": BATCH_SIZE, "symbols": IndexLookup(1).symbols,
              "lstm": {"forget_bias": TUNED_FORGET_BIAS, "lr": TUNED_LR}, "transformer": {"lr": TrainConfig().lr},
              "n_test": N_TEST}
    result["summary"] = summarize(result)
    return result


def cell(result: dict, name: str, n: int, width: int | None = None) -> dict:
    return next(c for c in result["cells"] if c["model"] == name and c["length"] == n
                and (width is None or c["width"] == width))


def summarize(result: dict) -> str:
    lengths, widths = result["lengths"], result["widths"]

    def lstm(n: int, width: int) -> float:
        return cell(result, "lstm-tuned", n, width)["accuracy"]

    attention = " / ".join(f"{cell(result, 'transformer', n)['accuracy']:.0%}" for n in lengths)
    best = " / ".join(f"{max(lstm(n, w) for w in widths):.0%}" for n in lengths)
    text = (f"After {result['steps']} steps each, at N = {' / '.join(map(str, lengths))} the Transformer scored "
            f"{attention} and the best tuned LSTM {best} (chance {result['chance']:.0%}).")
    smallest = {n: next((w for w in widths if lstm(n, w) >= SOLVED), None) for n in lengths}
    solved = [f"width {w} at N = {n}" for n, w in smallest.items() if w is not None]
    unsolved = [str(n) for n, w in smallest.items() if w is None]
    if solved:
        text += f" The narrowest LSTM to reach {SOLVED:.0%} had {', '.join(solved)}"
        text += f"; none reached it at N = {', '.join(unsolved)}." if unsolved else "."
    else:
        text += f" No LSTM reached {SOLVED:.0%}."
    narrow, wide = widths[0], widths[-1]
    gap_at = max(lengths, key=lambda n: abs(lstm(n, wide) - lstm(n, narrow)))
    gap = lstm(gap_at, wide) - lstm(gap_at, narrow)
    if abs(gap) >= CLEAR_GAP:
        text += (f" {'Width helped' if gap > 0 else 'Wider was not better here'}: at N = {gap_at}, width {wide} "
                 f"scored {lstm(gap_at, wide):.0%}, width {narrow} {lstm(gap_at, narrow):.0%}.")
    at_chance = [str(n) for n in lengths
                 if all(near_chance(lstm(n, w), result["chance"], result["n_test"]) for w in widths)]
    if at_chance:
        text += f" At N = {', '.join(at_chance)} every LSTM was at chance."
    return text


def headline(result: dict) -> dict:
    """For the recap: the Transformer against the best LSTM width at the longest N."""
    longest = result["lengths"][-1]
    at_longest = [c for c in result["cells"] if c["length"] == longest]
    transformer = next(c["accuracy"] for c in at_longest if c["model"] == "transformer")
    best_lstm = max((c for c in at_longest if c["model"] == "lstm-tuned"), key=lambda c: c["accuracy"])
    winner = best_of({"transformer": transformer, "lstm-tuned": best_lstm["accuracy"]}, CLEAR_GAP)
    return recap_row(f"Index Lookup, N = {longest}", winner,
                     f"Transformer {transformer:.0%}, best LSTM (width {best_lstm['width']}) {best_lstm['accuracy']:.0%}")


def format_text(result: dict) -> str:
    lengths = result["lengths"]
    lines = [f"Tuned LSTM (forget bias {result['lstm']['forget_bias']:g}, lr {result['lstm']['lr']:g}): accuracy",
             "width \\ N " + "".join(f"{n:>7}" for n in lengths)]
    for w in result["widths"]:
        lines.append(f"{w:>9} " + "".join(f"{cell(result, 'lstm-tuned', n, w)['accuracy']:>7.0%}" for n in lengths))
    lines.append(f"Transformer width {result['transformer_width']} (lr {result['transformer']['lr']:g}):")
    lines.append(f"{'':>9} " + "".join(f"{cell(result, 'transformer', n)['accuracy']:>7.0%}" for n in lengths))
    lines += [f"{result['steps']} steps, batch {result['batch_size']}, {result['symbols']} symbols "
              f"(chance {result['chance']:.0%}), {result['n_test']:,} fresh questions per cell", "", result["summary"]]
    return "\n".join(lines)
