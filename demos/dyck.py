"""Slide 13, where recurrence still wins: bounded Dyck-2 (Bhattamishra et al., 2024).

Is a string of brackets ( ) [ ] well balanced, and never nested more than two deep? A
recurrent network needs only a small stack of open brackets, whatever the length; the paper
proves that a one-layer Transformer must grow with the length instead. So each model here
is one network of a fixed width, trained on batches of every length in turn (the LSTM and
the one-layer Transformer on the same batches, for the same number of steps), then scored
at each length on fresh strings: half balanced, half near misses made from balanced strings
by one small edit (`demos.tasks.NEAR_MISSES`).
"""
import random
import time

import torch

from demos.classifier import (CLEAR_GAP, CONTENDERS, LossCurve, accuracy, answer_probabilities, classifier_config,
                              fresh_examples, near_chance, train_classifier)
from demos.models import count_parameters
from demos.params import Param, seed_param
from demos.recall_vs_length import listed
from demos.recap import best_of, headline as recap_row
from demos.tasks import MAX_DEPTH, NEAR_MISSES, BoundedDyck, Interleaved, balanced_brackets, edit, near_miss_kind
from demos.training import TrainConfig

ID = "dyck"
TITLE = "Where recurrence still wins: bounded Dyck-2"
LENGTHS = (20, 50, 100, 200)  # not shorter: at 10 brackets there are only 512 balanced strings to train and test on
PARAMS = [
    seed_param(),
    Param("lengths", "multi", [20, 50, 100, 200], "String lengths (brackets), trained in turn and tested each",
          1, len(LENGTHS), choices=LENGTHS),
    Param("steps", "int", 400, "Training steps at each length, the same for both models", 10, 500),
    Param("width", "int", 32, "Width of both models (LSTM state size, Transformer d_model)", 8, 64),
]
MODELS = ("lstm", "transformer")
BATCH_SIZE = 64
N_TEST = 1000  # fresh strings per length, half of them balanced
CHANCE = 0.5
EXAMPLE_PAIRS = 4  # the example strings shown are 8 brackets long
KINDS = ("balanced", *NEAR_MISSES)  # the kinds of test string, each scored on its own


def run(params: dict, progress, device: torch.device) -> dict:
    lengths, width, seed = params["lengths"], params["width"], params["seed"]
    steps = params["steps"] * len(lengths)  # in all: one batch of each length in turn
    models: dict[str, dict] = {}  # how each model trained
    points: list[dict] = []  # one per (model, length), in the order they are scored
    test_sets: list[dict] = []  # what the fresh strings of each length were
    shown = examples(seed)  # drawn before training, so the slide can show them while it trains

    def partial() -> dict:
        return {"models": labels(), "lengths": lengths, "chance": CHANCE, "points": list(points),
                "test_sets": list(test_sets), "examples": shown, "near_misses": dict(NEAR_MISSES)}

    for i, name in enumerate(MODELS):
        label = CONTENDERS[name]["label"]
        started = time.perf_counter()
        curve = LossCurve(steps, lambda step, loss, i=i, label=label: progress(
            (i + step / steps) / len(MODELS), f"{label}: step {step}/{steps}, loss {loss:.2f}"), points=40)
        task = Interleaved(tuple(BoundedDyck(length) for length in lengths))
        trained = train_classifier(classifier_config(name, task, width), task, TrainConfig(steps=steps), BATCH_SIZE,
                                   seed, device, curve)
        models[name] = {"parameters": count_parameters(trained.model), "final_loss": trained.losses[-1],
                        "seconds": time.perf_counter() - started}
        for length in lengths:  # both models trained on the same batches: they meet the same fresh strings
            test = BoundedDyck(length)
            inputs, targets = fresh_examples(test, N_TEST, seed, trained.seen)
            probabilities = answer_probabilities(trained.model, inputs, device)
            kinds = [near_miss_kind(test.describe(row)) or "balanced" for row in inputs]
            right = (probabilities.argmax(dim=-1) == targets).tolist()
            if name == MODELS[0]:
                test_sets.append({"length": length, "counts": {kind: kinds.count(kind) for kind in KINDS}})
            points.append({"model": name, "length": length, "accuracy": accuracy(probabilities, targets),
                           "by_kind": accuracy_by_kind(right, kinds)})
            progress((i + 1) / len(MODELS), f"{label}, length {length}: {points[-1]['accuracy']:.0%} right", partial())

    result = {**partial(), "max_depth": MAX_DEPTH, "training": models, "n_test": N_TEST,
              "budget": {"optimizer": "Adam", "steps_per_length": params["steps"], "steps": steps,
                         "batch_size": BATCH_SIZE, "lr": TrainConfig().lr, "width": width}}
    result["summary"] = summarize(result)
    return result


def accuracy_by_kind(right: list[bool], kinds: list[str]) -> dict:
    """The share of test strings of each kind (balanced, or how the near miss was made) answered right."""
    return {kind: sum(r for r, k in zip(right, kinds) if k == kind) / max(1, kinds.count(kind)) for kind in KINDS}


def labels() -> dict:
    return {name: CONTENDERS[name]["label"] for name in MODELS}


def examples(seed: int) -> list[dict]:
    """One short near miss of each kind beside the balanced string it was made from, for the slide."""
    rng = random.Random(seed)
    shown = []
    for kind in NEAR_MISSES:
        near_miss = None
        while near_miss is None:  # until the balanced string has a place for this edit
            source = balanced_brackets(EXAMPLE_PAIRS, rng)
            near_miss = edit(kind, source, rng)
        shown.append({"kind": kind, "balanced": "".join(source), "near_miss": "".join(near_miss)})
    return shown


def point(result: dict, name: str, length: int) -> dict:
    return next(p for p in result["points"] if p["model"] == name and p["length"] == length)


def where(some: list, lengths: list) -> str:
    """"every length", or "length 20 and 50"."""
    return "every length" if some == lengths and len(lengths) > 1 else f"length {listed(some)}"


def summarize(result: dict) -> str:
    lengths, chance, n, budget = result["lengths"], result["chance"], result["n_test"], result["budget"]
    scores = {name: [point(result, name, length)["accuracy"] for length in lengths] for name in MODELS}
    per_model = "; ".join(f"{result['models'][name]} {' / '.join(f'{a:.0%}' for a in scores[name])}"
                          for name in MODELS)
    per_length = f", {budget['steps_per_length']:,} per length" if len(lengths) > 1 else ""
    text = (f"Right on {n:,} fresh strings per length ({balanced_share(result):.0%} balanced, the rest near misses) "
            f"at length {' / '.join(map(str, lengths))}: {per_model} (chance {chance:.0%}). Both models width "
            f"{budget['width']}, trained {budget['steps']:,} steps on the same batches{per_length}.")
    ahead = {name: [length for length, mine, other in zip(lengths, scores[name], scores[rival(name)])
                    if mine - other >= CLEAR_GAP] for name in MODELS}
    findings = [f"the {result['models'][name]} was ahead by {CLEAR_GAP * 100:.0f} points or more at "
                f"{where(ahead[name], lengths)}" for name in MODELS if ahead[name]]
    if not findings:
        findings.append(f"neither model was ahead by {CLEAR_GAP * 100:.0f} points at any length")
    for name in MODELS:
        at_chance = [length for length, a in zip(lengths, scores[name]) if near_chance(a, chance, n)]
        if at_chance:
            findings.append(f"the {result['models'][name]} was at chance at {where(at_chance, lengths)}")
    sentence = "; ".join(findings)
    return f"{text} {sentence[0].upper()}{sentence[1:]}."


def balanced_share(result: dict) -> float:
    """The share of balanced strings among all the test strings (half, less any seen in training)."""
    counts = [test_set["counts"] for test_set in result["test_sets"]]
    return sum(c["balanced"] for c in counts) / sum(sum(c.values()) for c in counts)


def rival(name: str) -> str:
    return next(other for other in MODELS if other != name)


def headline(result: dict) -> dict:
    """For the recap: the two models at the longest length tested."""
    longest = result["lengths"][-1]
    scores = {name: point(result, name, longest)["accuracy"] for name in MODELS}
    return recap_row("Bounded Dyck-2 (depth ≤ 2)", best_of(scores, CLEAR_GAP),
                     f"LSTM {scores['lstm']:.0%} vs Transformer {scores['transformer']:.0%} at length {longest}")


def format_text(result: dict) -> str:
    lengths = result["lengths"]
    width = max(len(label) for label in result["models"].values())
    lines = ["Right on fresh strings (chance 50%):", f"{'length':<{width}}  " + "".join(f"{n:>7}" for n in lengths)]
    for name in MODELS:
        lines.append(f"{result['models'][name]:<{width}}  "
                     + "".join(f"{point(result, name, n)['accuracy']:>7.1%}" for n in lengths))
    lines += ["", "Right by kind of test string (LSTM / Transformer), and how many of each:"]
    lines.append(f"{'length':<9}" + "".join(f"{n:>18}" for n in lengths))
    for kind in KINDS:
        cells = [" / ".join(f"{point(result, name, n)['by_kind'][kind]:.0%}" for name in MODELS)
                 + f" ({test_set['counts'][kind]})" for n, test_set in zip(lengths, result["test_sets"])]
        lines.append(f"{kind:<9}" + "".join(f"{cell:>18}" for cell in cells))
    lines += ["", "Near misses, each made from a balanced string by one small edit:"]
    for example in result["examples"]:
        lines.append(f"  {example['kind']:<7} {example['balanced']} -> {example['near_miss']}   "
                     f"({result['near_misses'][example['kind']]})")
    budget = result["budget"]
    lines += [f"Budget: Adam, lr {budget['lr']:g}, batch {budget['batch_size']}, width {budget['width']}; "
              f"{budget['steps']:,} steps, one batch of each length in turn ({budget['steps_per_length']:,} per length)",
              "", result["summary"]]
    return "\n".join(lines)
