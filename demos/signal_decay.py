"""Signal decay: how much does the first letter still matter at the end of the string?

A vanilla RNN, an LSTM as PyTorch starts it, the same LSTM with its forget gates started at 1
(the tuned LSTM of the fair fight) and a Transformer, all of about the same size, read strings
of the recall task (the Amnesia Test). For each, the demo measures the gradient of the final
output's loss with respect to the input embedding at every position: how strongly the answer
can react to, and training can reach back to, each letter. By default the models are untrained
(at initialisation), so the curves show what each architecture and its starting weights let
through, before any learning. The gradients are computed in float64, so the smallest ones are
measured, not rounded to zero, and on a GPU without cuDNN's RNN kernel, which can only take
gradients in training mode.
"""
from dataclasses import replace

import torch
import torch.nn.functional as F
from torch import nn

from demos.core.models import ModelConfig, build_model, count_parameters, matching_width
from demos.core.tasks import FirstLetter
from demos.core.training import TrainConfig
from demos.runtime.params import Param, seed_param
from demos.runtime.progress import share
from demos.shared.classifier import Entry, build, classifier_config, fresh_examples, train_entries
from demos.shared.contenders import family, label
from demos.shared.recap import headline as recap_row
from demos.shared.seeds import ahead, geometric_over_seeds, seed_list, seeds_param

ID = "signal_decay"
TITLE = "Signal decay: how much does the first word still matter?"
PARAMS = [
    seed_param(),
    seeds_param(),
    Param("length", "int", 200, "Letters in each string", 10, 200),
    Param("train_steps", "int", 0, "Training steps on the recall task before measuring (0: at initialisation)", 0, 100),
    Param("sequences", "int", 32, "Test strings the gradient norms are averaged over", 1, 128),
    Param("width", "int", 32, "Transformer width; the RNN and LSTMs are sized to about as many parameters", 8, 64),
]
TINY = {"length": 20, "sequences": 4, "width": 8}
MODELS = ("rnn", "lstm", "lstm-tuned", "transformer")
BATCH_SIZE = 64
SMALLEST = 1e-300  # a norm that underflows even float64 is shown at this floor, and counted
# The recap shows this slide's row as an illustration, not a contest: a gradient of models that have
# learned nothing (by default), whose largest mean is named with no seeds' ranges to settle it.
CONTEST = False


def non_embedding_parameters(model: nn.Module) -> int:
    return count_parameters(model, non_embedding=True)


def sequential_steps(cfg: ModelConfig, n: int) -> int:
    """Steps that must run one after another to read n tokens: every token of every layer for a
    recurrent net (step t needs step t-1), one per layer for attention (all positions at once)."""
    return cfg.n_layers if cfg.kind == "transformer" else n * cfg.n_layers


def gradient_by_position(model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean over the strings of ‖∂ loss at the end / ∂ embedding at t‖ for each letter position t: (T,)."""
    model = model.double().eval()  # float64: tiny gradients stay above zero
    with torch.backends.cudnn.flags(enabled=False):  # cuDNN's RNN takes gradients only in training mode
        embedded = model.embed(inputs).detach().requires_grad_(True)  # (B, T, C)
        logits = model(inputs, embedded=embedded)[:, -1, :]  # (B, n_out): the answer, read at the question
        loss = F.cross_entropy(logits, targets, reduction="sum")  # a sum keeps each string's gradient its own
        (grad,) = torch.autograd.grad(loss, embedded)  # (B, T, C)
    return grad.norm(dim=-1).mean(dim=0)[:-1]  # (T - 1,): the letters, not the question token


def configs(task: FirstLetter, width: int) -> dict[str, ModelConfig]:
    """Every model's config: the Transformer at `width`, the others sized to its non-embedding parameters."""
    transformer = replace(classifier_config("transformer", task, width), fast_attention=False)
    target = non_embedding_parameters(build_model(transformer))
    sized = {name: matching_width(classifier_config(name, task, width), target, non_embedding_parameters)
             for name in MODELS if name != "transformer"}
    return {**sized, "transformer": transformer}


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factors were measured
    (`python -m benchmarks.eta --fit`, and with 3 training steps): building and sizing the models, a fixed
    amount, then seeds × length × (sequences + 25 × training steps), since a training step (a batch of 64,
    with the optimiser) costs about 25 measured sequences."""
    return 1.6 + 7.6e-5 * params["seeds"] * params["length"] * (params["sequences"] + 25 * params["train_steps"])


def run(params: dict, progress, device: torch.device) -> dict:
    n, steps = params["length"], params["train_steps"]
    task = FirstLetter(n)
    seeds = seed_list(params["seed"], params["seeds"])
    cfgs = configs(task, params["width"])
    entries = [Entry((name, seed), cfgs[name], task, TrainConfig(steps=steps), seed, label=f"{label(name)}, seed {seed}")
               for name in MODELS for seed in seeds]
    measuring = share(progress, 0.8, 1.0) if steps else progress
    if steps:
        trained = train_entries(entries, BATCH_SIZE, device, share(progress, 0.0, 0.8))
    else:  # measured at initialisation: the models as their seeds built them
        trained = [(build(entry, device), [], None) for entry in entries]

    gradients: dict[str, list[list[float]]] = {name: [] for name in MODELS}
    for i, (entry, (model, _, source)) in enumerate(zip(entries, trained)):
        seen = source.seen() if source is not None else None
        inputs, targets = fresh_examples(task, params["sequences"], entry.seed, seen)
        norms = gradient_by_position(model, inputs.to(device), targets.to(device)).cpu()
        gradients[entry.key[0]].append(norms.flip(0).tolist())  # distance 1 (the last letter) first
        measuring((i + 1) / len(entries), f"{entry.label}: measured")

    models = {}
    for name in MODELS:
        by_seed = gradients[name]
        mean_curve = [sum(values) / len(values) for values in zip(*by_seed)]
        ratios = [max(curve[-1], SMALLEST) / max(curve[0], SMALLEST) for curve in by_seed]
        models[name] = {
            "label": label(name),
            "width": cfgs[name].width,
            "forget_bias": cfgs[name].forget_bias,
            "parameters": non_embedding_parameters(build_model(cfgs[name])),
            "sequential_steps": sequential_steps(cfgs[name], n),
            "gradient": [max(value, SMALLEST) for value in mean_curve],  # the mean over seeds, per distance
            "gradient_by_seed": [[max(value, SMALLEST) for value in curve] for curve in by_seed],
            "floored": sum(value < SMALLEST for curve in by_seed for value in curve),
            "first_over_last": geometric_over_seeds(ratios),
        }
    result = {"length": n, "distances": list(range(1, n + 1)), "models": models, "train_steps": steps,
              "sequences": params["sequences"], "seeds": seeds, "precision": "float64"}
    result["summary"] = summarize(result)
    return result


def ratio(value: float) -> str:
    return f"{value:.2g}" if value >= 1e-3 else f"{value:.0e}".replace("e-0", "e-")


def ratio_range(stats: dict) -> str:
    if len(stats["by_seed"]) == 1:
        return ratio(stats["mean"])
    return f"{ratio(stats['mean'])} ({ratio(stats['min'])} to {ratio(stats['max'])})"


def summarize(result: dict) -> str:
    n, models, seeds = result["length"], result["models"], result["seeds"]
    when = f"after {result['train_steps']} training steps" if result["train_steps"] else "at initialisation (untrained)"
    ratios = "; ".join(f"{models[name]['label']} {ratio_range(models[name]['first_over_last'])}" for name in MODELS)
    over = f"geometric mean over {len(seeds)} seeds, range in brackets" if len(seeds) > 1 else f"seed {seeds[0]}"
    text = (f"Measured {when}, over {result['sequences']} strings of {n} letters ({over}): the first letter's "
            f"gradient relative to the last letter's is {ratios}.")
    lstm, tuned = models["lstm"]["first_over_last"], models["lstm-tuned"]["first_over_last"]
    if ahead(tuned, lstm):
        text += (f" Starting the forget gates at {models['lstm-tuned']['forget_bias']:g} instead of near 0 let "
                 f"{ratio(tuned['mean'] / lstm['mean'])} times more of the first letter's gradient through: the "
                 f"LSTM's curve at initialisation is mostly its forget gates' starting bias.")
    order = sorted(MODELS, key=lambda name: models[name]["first_over_last"]["mean"])
    text += f" Fastest fade first: {', '.join(models[name]['label'] for name in order)}."
    floored = sum(model["floored"] for model in models.values())
    if floored:
        text += f" {floored} norms underflowed even float64 and are drawn at {SMALLEST:g}."
    return text + (f" Sequential steps: {models['lstm']['sequential_steps']} for the recurrent nets, "
                   f"{models['transformer']['sequential_steps']} for the Transformer.")


def headline(result: dict) -> dict:
    """For the recap, an illustration (not counted): whose first-letter gradient survived best to the end."""
    strength = {name: result["models"][name]["first_over_last"]["mean"] for name in MODELS}
    winner = family(max(strength, key=strength.get))
    when = "untrained" if not result["train_steps"] else f"after {result['train_steps']} steps"
    return recap_row(f"Word 1's gradient, {when}", winner,
                     ", ".join(f"{result['models'][name]['label']} {ratio(strength[name])}" for name in MODELS),
                     contest=CONTEST)


def format_text(result: dict) -> str:
    n, models = result["length"], result["models"]
    marks = sorted({1, 2, 5, 10, 20, 50, 100, 200, n} & set(range(1, n + 1)))
    width = max(len(model["label"]) for model in models.values())
    lines = [f"Gradient norm of the final loss w.r.t. the embedding at each distance from the end (length {n}, "
             f"mean over seeds {', '.join(map(str, result['seeds']))}):",
             f"{'distance':<{width}}  " + "".join(f"{d:>10}" for d in marks)]
    for name in MODELS:
        model = models[name]
        lines.append(f"{model['label']:<{width}}  " + "".join(f"{model['gradient'][d - 1]:>10.2e}" for d in marks))
    lines.append("")
    for name in MODELS:
        model, steps = models[name], models[name]["sequential_steps"]
        bias = f", forget bias {model['forget_bias']:g}" if model["forget_bias"] is not None else ""
        lines.append(f"{model['label']:<{width}}  width {model['width']:>3}{bias}, {model['parameters']:,} "
                     f"non-embedding parameters, {steps} sequential step{'s' if steps > 1 else ''}")
    lines += ["", result["summary"]]
    return "\n".join(lines)
