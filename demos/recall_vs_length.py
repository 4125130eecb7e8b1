"""Slide 4, a fair fight: is the LSTM's failure on the Amnesia Test really amnesia?

The same first-letter task at several lengths, three models under one equal step budget,
on the same training batches: the LSTM as on slide 3, the LSTM with the two usual fixes
(forget gates that start at bias 1, a higher learning rate), and the one-layer Transformer.
"""
from dataclasses import replace

import torch

from demos.classifier import (CLEAR_GAP, CONTENDERS, TUNED_FORGET_BIAS, TUNED_LR, LossCurve, classifier_config,
                              near_chance, train_and_score)
from demos.params import Param, seed_param
from demos.recap import best_of, headline as recap_row
from demos.tasks import FirstLetter
from demos.training import TrainConfig

ID = "recall_vs_length"
TITLE = "Is it really amnesia? Recall against length"
LENGTHS = (5, 10, 20, 50, 100, 200)
PARAMS = [
    seed_param(),
    Param("lengths", "multi", [20, 50, 100, 200], "String lengths to test", 1, len(LENGTHS), choices=LENGTHS),
    Param("steps", "int", 500, "Training steps, the same for every model", 10, 800),
    Param("width", "int", 32, "Width of every model (LSTM state size, Transformer d_model)", 8, 64),
    Param("forget_bias", "float", TUNED_FORGET_BIAS,
          "Where the tuned LSTM's forget gates start (the default LSTM's: random, near 0)", -2.0, 5.0),
    Param("tuned_lr", "float", TUNED_LR, "The tuned LSTM's learning rate (the others: 0.003)", 1e-4, 0.05),
]
MODELS = ("lstm-tuned", "lstm", "transformer")
BATCH_SIZE = 64
N_TEST = 1000
CHANCE = 1 / FirstLetter.n_out


def run(params: dict, progress, device: torch.device) -> dict:
    lengths, steps = params["lengths"], params["steps"]
    points: list[dict] = []  # one per (model, length), in the order they finish
    runs = [(length, name) for length in lengths for name in MODELS]
    for i, (length, name) in enumerate(runs):
        task = FirstLetter(length)
        cfg = classifier_config(name, task, params["width"])
        train_cfg = TrainConfig(steps=steps)
        if name == "lstm-tuned":
            cfg = replace(cfg, forget_bias=params["forget_bias"])
            train_cfg = replace(train_cfg, lr=params["tuned_lr"])
        label = CONTENDERS[name]["label"]
        curve = LossCurve(steps, lambda step, loss, i=i, label=label, length=length: progress(
            (i + step / steps) / len(runs), f"{label}, length {length}: step {step}/{steps}, loss {loss:.2f}"), points=20)
        score = train_and_score(cfg, task, train_cfg, BATCH_SIZE, params["seed"], device, N_TEST, curve)
        points.append({"model": name, "length": length, "accuracy": score.accuracy, "final_loss": score.losses[-1],
                       "parameters": score.parameters, "seconds": score.seconds})
        progress((i + 1) / len(runs), f"{label}, length {length}: {score.accuracy:.0%} right",
                 {"models": labels(), "lengths": lengths, "chance": CHANCE, "points": list(points)})
    result = {"models": labels(), "lengths": lengths, "chance": CHANCE, "points": points,
              "budget": {"optimizer": "Adam", "steps": steps, "batch_size": BATCH_SIZE, "lr": TrainConfig().lr,
                         "tuned_lr": params["tuned_lr"], "forget_bias": params["forget_bias"]},
              "n_test": N_TEST}
    result["summary"] = summarize(result)
    return result


def labels() -> dict:
    return {name: CONTENDERS[name]["label"] for name in MODELS}


def accuracies(result: dict, name: str) -> list[float]:
    return [p["accuracy"] for length in result["lengths"] for p in result["points"]
            if p["model"] == name and p["length"] == length]


def listed(values: list, unit: str = "") -> str:
    """"20", "20 and 50", "20, 50 and 100"."""
    words = [f"{v}{unit}" for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def summarize(result: dict) -> str:
    lengths, chance = result["lengths"], result["chance"]
    scores = {name: accuracies(result, name) for name in MODELS}
    per_model = "; ".join(f"{result['models'][name]} {' / '.join(f'{a:.0%}' for a in scores[name])}" for name in MODELS)
    text = (f"Accuracy at length {' / '.join(map(str, lengths))} after {result['budget']['steps']} steps each: "
            f"{per_model} (chance {chance:.1%}).")
    helped = [n for n, tuned, plain in zip(lengths, scores["lstm-tuned"], scores["lstm"])
              if tuned - plain >= CLEAR_GAP and not near_chance(tuned, chance, N_TEST)]
    if helped:
        text += (f" The tuning lifted the LSTM at length {listed(helped)}: there its failure was partly training, "
                 f"not memory.")
    else:
        text += " The tuning lifted the LSTM at no length tested, under this budget."
    stuck = [n for n, tuned, attention in zip(lengths, scores["lstm-tuned"], scores["transformer"])
             if near_chance(tuned, chance, N_TEST) and attention >= 0.9]
    if stuck:
        text += f" At {listed(stuck)} even the tuned LSTM stayed at chance, the Transformer at 90% or more."
    beaten = [n for n, tuned, attention in zip(lengths, scores["lstm-tuned"], scores["transformer"])
              if tuned - attention >= CLEAR_GAP]
    if beaten:
        text += f" At length {listed(beaten)} the tuned LSTM beat the Transformer."
    return text


def headline(result: dict) -> dict:
    """For the recap: the best LSTM against the Transformer at the longest length tested."""
    longest = result["lengths"][-1]
    scores = {name: accuracies(result, name)[-1] for name in MODELS}
    winner = best_of(scores, CLEAR_GAP)
    return recap_row(f"Fair fight, length {longest}", winner,
                     f"Transformer {scores['transformer']:.0%}, tuned LSTM {scores['lstm-tuned']:.0%}, "
                     f"LSTM {scores['lstm']:.0%}")


def format_text(result: dict) -> str:
    width = max(len(label) for label in result["models"].values())
    lines = [f"{'length':<{width}}  " + "".join(f"{n:>7}" for n in result["lengths"])]
    for name in MODELS:
        lines.append(f"{result['models'][name]:<{width}}  " + "".join(f"{a:>7.1%}" for a in accuracies(result, name)))
    budget = result["budget"]
    lines += [f"{'chance':<{width}}  {result['chance']:>7.1%}",
              f"Budget: Adam, {budget['steps']} steps, batch {budget['batch_size']}; lr {budget['lr']:g} "
              f"(tuned LSTM: lr {budget['tuned_lr']:g}, forget bias {budget['forget_bias']:g})", "", result["summary"]]
    return "\n".join(lines)
