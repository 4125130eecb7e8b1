"""Slide 2: how much does the first letter still matter at the end of the string?

A vanilla RNN, an LSTM and a Transformer of about the same size read strings of the
recall task (the Amnesia Test of slide 3). For each, the demo measures the gradient of
the final output's loss with respect to the input embedding at every position: how
strongly the answer can react to, and training can reach back to, each letter. The
gradients are computed in float64, so the smallest ones are measured, not rounded to zero.
"""
from dataclasses import replace

import torch
import torch.nn.functional as F
from torch import nn

from demos.classifier import CONTENDERS, LossCurve, classifier_config, fresh_examples, train_classifier
from demos.models import ModelConfig, build_model, count_parameters
from demos.params import Param, seed_param
from demos.recap import headline as recap_row
from demos.tasks import FirstLetter
from demos.training import TrainConfig

ID = "signal_decay"
TITLE = "Signal decay: how much does the first word still matter?"
PARAMS = [
    seed_param(),
    Param("length", "int", 200, "Letters in each string", 10, 200),
    Param("train_steps", "int", 0, "Training steps on the recall task before measuring (0: at initialisation)", 0, 100),
    Param("sequences", "int", 32, "Test strings the gradient norms are averaged over", 1, 128),
    Param("width", "int", 32, "Transformer width; the RNN and LSTM are sized to about as many parameters", 8, 64),
]
MODELS = ("rnn", "lstm", "transformer")
BATCH_SIZE = 64
SMALLEST = 1e-300  # a norm that underflows even float64 is shown at this floor, and counted


def sized_like(cfg: ModelConfig, target: int) -> ModelConfig:
    """`cfg` at the width whose non-embedding parameter count is closest to `target`."""
    def size(width: int) -> int:
        return count_parameters(build_model(replace(cfg, width=width)), non_embedding=True)

    low, high = 1, 512
    while high - low > 1:  # the count grows with the width: bisect
        middle = (low + high) // 2
        low, high = (middle, high) if size(middle) < target else (low, middle)
    return replace(cfg, width=min((low, high), key=lambda w: abs(size(w) - target)))


def sequential_steps(cfg: ModelConfig, n: int) -> int:
    """Steps that must run one after another to read n tokens: every token of every layer for a
    recurrent net (step t needs step t-1), one per layer for attention (all positions at once)."""
    return cfg.n_layers if cfg.kind == "transformer" else n * cfg.n_layers


def gradient_by_position(model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean over the strings of ‖∂ loss at the end / ∂ embedding at t‖ for each letter position t: (T,)."""
    model = model.double().eval()  # float64: tiny gradients stay above zero
    embedded = model.embed(inputs).detach().requires_grad_(True)  # (B, T, C)
    logits = model(inputs, embedded=embedded)[:, -1, :]  # (B, n_out): the answer, read at the question
    loss = F.cross_entropy(logits, targets, reduction="sum")  # a sum keeps each string's gradient its own
    (grad,) = torch.autograd.grad(loss, embedded)  # (B, T, C)
    return grad.norm(dim=-1).mean(dim=0)[:-1]  # (T - 1,): the letters, not the question token


def run(params: dict, progress, device: torch.device) -> dict:
    n, steps = params["length"], params["train_steps"]
    task = FirstLetter(n)
    transformer_cfg = replace(classifier_config("transformer", task, params["width"]), fast_attention=False)
    target = count_parameters(build_model(transformer_cfg), non_embedding=True)
    configs = {"transformer": transformer_cfg}
    for name in ("rnn", "lstm"):
        configs[name] = sized_like(classifier_config(name, task, params["width"]), target)

    models, gradients = {}, {}
    for i, name in enumerate(MODELS):
        label = CONTENDERS[name]["label"]
        progress(i / len(MODELS), f"{label}: {'training' if steps else 'measuring at initialisation'}")
        curve = LossCurve(steps, lambda step, loss, i=i, label=label: progress(
            (i + 0.9 * step / steps) / len(MODELS), f"{label} step {step}/{steps}, loss {loss:.2f}"), points=10)
        trained = train_classifier(configs[name], task, TrainConfig(steps=steps), BATCH_SIZE, params["seed"],
                                   device, curve)
        inputs, targets = fresh_examples(task, params["sequences"], params["seed"], trained.seen)
        norms = gradient_by_position(trained.model, inputs.to(device), targets.to(device)).cpu()
        by_distance = norms.flip(0)  # distance 1 (the last letter) first
        gradients[name] = [max(value, SMALLEST) for value in by_distance.tolist()]
        models[name] = {
            "label": label,
            "width": configs[name].width,
            "parameters": count_parameters(trained.model, non_embedding=True),
            "sequential_steps": sequential_steps(configs[name], n),
            "gradient": gradients[name],
            "floored": sum(value < SMALLEST for value in by_distance.tolist()),
            "first_over_last": by_distance[-1].item() / by_distance[0].item() if by_distance[0] > 0 else 0.0,
        }
        progress((i + 1) / len(MODELS), f"{label}: measured", {"length": n, "distances": list(range(1, n + 1)),
                                                                 "models": {k: dict(v) for k, v in models.items()}})
    result = {"length": n, "distances": list(range(1, n + 1)), "models": models, "train_steps": steps,
              "sequences": params["sequences"], "precision": "float64"}
    result["summary"] = summarize(result)
    return result


def ratio(value: float) -> str:
    return f"{value:.2g}" if value >= 1e-3 else f"{value:.0e}".replace("e-0", "e-")


def summarize(result: dict) -> str:
    n, models = result["length"], result["models"]
    when = f"after {result['train_steps']} training steps" if result["train_steps"] else "at initialisation (untrained)"
    ratios = ", ".join(f"{ratio(models[name]['first_over_last'])} for the {models[name]['label']}" for name in MODELS)
    text = (f"Measured {when}, averaged over {result['sequences']} strings of {n} letters: the first letter's "
            f"gradient is {ratios}, relative to the last letter's.")
    order = sorted(MODELS, key=lambda name: models[name]["first_over_last"])
    if order == list(MODELS):
        text += " It fades fastest in the RNN, then the LSTM, as the folklore expects."
    else:
        text += (f" Fastest fade first: {', '.join(models[name]['label'] for name in order)}; "
                 f"the folklore expects RNN, LSTM, Transformer.")
    floored = sum(model["floored"] for model in models.values())
    if floored:
        text += f" {floored} norms underflowed even float64 and are drawn at {SMALLEST:g}."
    return text + (f" Sequential steps: {models['lstm']['sequential_steps']} for the RNN and LSTM, "
                   f"{models['transformer']['sequential_steps']} for the Transformer.")


def headline(result: dict) -> dict:
    """For the recap: whose first-letter gradient survived best to the end."""
    strength = {name: result["models"][name]["first_over_last"] for name in MODELS}
    winner = max(strength, key=strength.get)
    return recap_row("Signal from the first word", winner,
                     ", ".join(f"{result['models'][name]['label']} {strength[name]:.0e}" for name in MODELS)
                     + " (first ÷ last gradient)")


def format_text(result: dict) -> str:
    n, models = result["length"], result["models"]
    marks = sorted({1, 2, 5, 10, 20, 50, 100, 200, n} & set(range(1, n + 1)))
    width = max(len(model["label"]) for model in models.values())
    lines = [f"Gradient norm of the final loss w.r.t. the embedding at each distance from the end (length {n}):",
             f"{'distance':<{width}}  " + "".join(f"{d:>10}" for d in marks)]
    for name in MODELS:
        model = models[name]
        lines.append(f"{model['label']:<{width}}  " + "".join(f"{model['gradient'][d - 1]:>10.2e}" for d in marks))
    lines.append("")
    for name in MODELS:
        model, steps = models[name], models[name]["sequential_steps"]
        lines.append(f"{model['label']:<{width}}  width {model['width']:>3}, {model['parameters']:,} non-embedding "
                     f"parameters, {steps} sequential step{'s' if steps > 1 else ''}")
    lines += ["", result["summary"]]
    return "\n".join(lines)
