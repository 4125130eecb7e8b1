"""Using the whole context: does a model use what it read far back? Two measurements side by side.

The copy test stands for Kaplan et al.'s (2020) per-token chart. Their finding: in language models
with long contexts, a Transformer's loss keeps falling with a token's position across the whole
context, while an LSTM's levels off within about 100 tokens. Much of what a Transformer gains late
in a context is copying and completing what it has already read, the mechanism behind in-context
learning (Olsson et al. 2022: induction heads). Toy language models cannot show that on real text
(see below), so the copy test isolates it: random symbols in which a stretch repeats later in the
window (`demos.core.tasks.RepeatedStretch`). Before the repeat every model must guess (chance:
log2 of the alphabet); on the repeat, a model that uses the whole context drops toward zero bits.
A small causal Transformer and an LSTM of as many parameters train on the same batches for the
same steps, each at the learning rate chosen for it on validation sequences
(`python -m benchmarks.recipes context_scaling`), with several seeds; the test sequences are read
once, after that choice.

Beside it, natural text without the position confound: the generative showdown's character models
(the same ones, from the model store) score the same test characters with the context cut to T
characters, for T from 1 to their whole context; so a curve shows what more context is worth, not
also what kind of text sits early in a window. The summary says where each family stops gaining.
"""
import math
from dataclasses import replace

import torch
import torch.nn.functional as F
from torch import nn

from demos.core.models import ModelConfig, build_model, count_parameters, matching_width
from demos.core.python_docs import decode, load
from demos.core.tasks import EVAL, TRAIN, RepeatedStretch, data_generator, held_out_generator
from demos.core.training import Run, TrainConfig, language_model_loss, train_together
from demos.runtime.params import Param, seed_param
from demos.runtime.progress import Tally, share
from demos.shared import scaling
from demos.shared.char_models import (CharLM, bits, document_windows, each_in_parallel, stops_gaining, token_losses,
                                      trained_models, untrained)
from demos.shared.contenders import label
from demos.shared.quantities import declared
from demos.shared.recap import headline as recap_row
from demos.shared.seeds import leader, over_seeds, seed_list, seeds_param, spread_text
from demos.shared.tuning import Study, chosen, how_chosen, lr_grid, rate_text

ID = "context_scaling"
TITLE = "Using the whole context"
MODELS = ("transformer", "lstm")
VARIANTS = {  # the copy test's two forms: the length of the stretch that repeats, shortest and longest
    "fixed": RepeatedStretch(length=128, shortest=64, longest=64),  # 64 symbols, then the same 64 again
    "varying": RepeatedStretch(length=128, shortest=32, longest=64),  # a stretch of 32 to 64, repeated to fill
}
VARIANT_WORDS = {
    "fixed": "64 random symbols, then the same 64 again: the repeat sits 64 symbols back",
    "varying": "a stretch of 32 to 64 random symbols, repeated to fill the window: how far back varies, "
               "so the earlier copy must be found by its content",
}
STEPS = 250  # the slide's budget: enough for the Transformer to solve the fixed variant (measured), and the slide fits 90 s on 2 cores
BATCH_SIZE = 16
WIDTH, LAYERS, HEADS = 64, 2, 4  # the Transformer (about 112k parameters); the LSTM is matched to it
VALIDATION_SEQUENCES = 256  # recipes are chosen on these
TEST_SEQUENCES = 512  # each seed's models are scored on these, once
CONTEXTS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)  # natural text: the context lengths T tried (up to the models' own)
SWEEP_CONTEXTS = "; ".join(f"{name}: {sweep.context} characters" for name, sweep in scaling.SWEEPS.items())
PARAMS = [
    seed_param(),
    seeds_param(),
    Param("variant", "choice", "fixed", "The copy test: the repeat at a fixed distance (64 back), or at a varying "
                                        "one (found by content: slower to learn)", choices=tuple(VARIANTS)),
    Param("steps", "int", STEPS, "Training steps of each copy-test model (batch 16)", 20, 5000),
    Param("text_steps", "int", CharLM.steps, "Most training steps of each character model (the generative "
          "showdown's: at its default, the very same models)", 20, 20000),
    scaling.scale_param("text_scale", "The character models read: one (the showdown's slide models, 64 characters "
                        f"of context) or the largest of a size sweep ({SWEEP_CONTEXTS}), "
                        "with the loss at each position of the context (Kaplan et al.'s Figure 7, right)"),
]
TINY = {"steps": 20, "text_steps": 20, "seeds": 1}
# Per device class (`demos.runtime.budgets`): the prepared run learns the copy test's varying distance, and
# reads the largest models of that class's size sweep (trained by the showdown's prepared run).
BUDGETS = {"cpu": {"full": {"variant": "varying", "steps": 4000, "text_scale": "cpu-sweep"}},
           "gpu": {"full": {"variant": "varying", "steps": 4000, "text_scale": "gpu-sweep"}}}


# ----------------------------------------------------------------------------- the copy test


def copy_config(kind: str, task: RepeatedStretch) -> ModelConfig:
    """The causal Transformer, or the LSTM (forget gates at 1) of the width that best matches its parameters."""
    transformer = ModelConfig(kind="transformer", vocab_size=task.vocab_size, n_out=task.n_out, width=WIDTH,
                              n_layers=LAYERS, n_heads=HEADS, max_len=task.length, causal=True, fast_attention=True)
    if kind == "transformer":
        return transformer
    lstm = replace(transformer, kind="lstm", forget_bias=1.0)
    return matching_width(lstm, count_parameters(build_model(transformer)))


class SequenceBatches:
    """Training batches of a seed: the same for every model trained with that seed, drawn on the device."""

    def __init__(self, task: RepeatedStretch, seed: int, device: torch.device):
        self.task, self.generator = task, data_generator(seed, TRAIN, device)

    def draw(self, steps: int) -> tuple[torch.Tensor, torch.Tensor]:
        inputs, targets, _ = self.task.sample(steps * BATCH_SIZE, self.generator)
        return inputs.view(steps, BATCH_SIZE, -1), targets.view(steps, BATCH_SIZE, -1)  # (steps, B, length) each


def validation_sequences(task: RepeatedStretch, seed: int) -> tuple[torch.Tensor, ...]:
    """Where recipes are chosen: a stream of their own, never the test stream."""
    return task.sample(VALIDATION_SEQUENCES, held_out_generator(seed))


def test_sequences(task: RepeatedStretch, seed: int) -> tuple[torch.Tensor, ...]:
    """The seed's test sequences (drawn on the CPU, so every device is tested on the same ones)."""
    return task.sample(TEST_SEQUENCES, data_generator(seed, EVAL))


@torch.no_grad()
def position_bits(model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor, device: torch.device) -> torch.Tensor:
    """The loss of every symbol of every sequence, in bits: (n, length)."""
    model.eval()
    logits = model(inputs.to(device)).float()  # (n, length, symbols)
    nats = F.cross_entropy(logits.transpose(1, 2), targets.to(device), reduction="none")
    return nats.cpu() / math.log(2)


def train_copy(jobs: list[tuple[str, dict, int]], task: RepeatedStretch, steps: int, device: torch.device,
               progress) -> list[nn.Module]:
    """Train a model for each (kind, recipe, seed), all together; a seed's models see the same batches."""
    tally = Tally(progress, {job_key(job): steps for job in jobs})
    runs = []
    for kind, recipe, seed in jobs:
        torch.manual_seed(seed)
        model = build_model(copy_config(kind, task)).to(device)
        cfg = TrainConfig(steps=steps, lr=recipe["lr"], warmup=recipe.get("warmup", 0), report_every=50)
        runs.append(Run(model, SequenceBatches(task, seed, device), language_model_loss, cfg,
                        reporter(tally, (kind, recipe, seed))))
    train_together(runs)
    return [run.model for run in runs]


def job_key(job: tuple[str, dict, int]) -> tuple:
    kind, recipe, seed = job
    return kind, tuple(sorted(recipe.items())), seed


def reporter(tally: Tally, job: tuple[str, dict, int]):
    def report(step: int, losses: list[float]) -> bool:
        tally.update(job_key(job), step, False, f"copy test, {label(job[0])}, seed {job[2]}: step {step}, "
                                                f"{bits(losses[-1]):.2f} bits per symbol")
        return False
    return report


def tuning() -> Study:
    """Each contender's learning rate, chosen on validation sequences of the default (fixed) copy test."""
    task = VARIANTS["fixed"]

    def score(contender: str, recipe: dict, seed: int, device: torch.device) -> float:
        model, = train_copy([(contender, recipe, seed)], task, STEPS, device, lambda *args: None)
        inputs, targets, predictable = validation_sequences(task, seed)
        return position_bits(model, inputs, targets, device)[predictable].mean().item()

    return Study(ID, f"{STEPS} steps of {BATCH_SIZE} sequences of {task.length} symbols (the fixed copy test)",
                 "validation bits per repeated symbol", {kind: lr_grid() for kind in MODELS}, score)


def copy_test(params: dict, seeds: list[int], device: torch.device, progress) -> dict:
    """Both families on the copy test: loss at each position, and on the first stretch and the repeats."""
    task, recipes = VARIANTS[params["variant"]], {kind: chosen(ID, kind) for kind in MODELS}
    jobs = [(kind, recipes[kind], seed) for kind in MODELS for seed in seeds]
    trained = train_copy(jobs, task, params["steps"], device, progress)
    models = {(kind, seed): model for (kind, _, seed), model in zip(jobs, trained)}
    tests = {seed: test_sequences(task, seed) for seed in seeds}  # read once: the recipes were chosen before
    families = []
    for kind in MODELS:
        scores = {seed: position_bits(models[(kind, seed)], tests[seed][0], tests[seed][1], device) for seed in seeds}
        curves = [scores[seed].mean(dim=0).tolist() for seed in seeds]  # bits at each position, one curve per seed
        families.append({
            "kind": kind, "label": label(kind), "lr": recipes[kind]["lr"],
            "width": models[(kind, seeds[0])].cfg.width, "parameters": count_parameters(models[(kind, seeds[0])]),
            "per_position_bits": [round(sum(v) / len(v), 4) for v in zip(*curves)],
            "per_position_bits_by_seed": [[round(v, 4) for v in curve] for curve in curves],
            "first_bits": over_seeds([scores[seed][~tests[seed][2]].mean().item() for seed in seeds]),
            "repeat_bits": over_seeds([scores[seed][tests[seed][2]].mean().item() for seed in seeds]),
        })
    predictable = torch.cat([tests[seed][2] for seed in seeds]).float().mean(dim=0)  # (length,)
    distance = (f"fixed distance, {task.shortest} back" if task.shortest == task.longest else
                f"varying distance, {task.shortest} to {task.longest} back")
    return {"variant": params["variant"], "variant_label": distance, "variants": VARIANT_WORDS,
            "length": task.length, "symbols": task.symbols, "chance": math.log2(task.symbols),
            "repeat_starts": [task.shortest + 1, task.longest + 1],
            "predictable_share": [round(v, 4) for v in predictable.tolist()], "models": families,
            "steps": params["steps"], "batch_size": BATCH_SIZE, "test_sequences": TEST_SEQUENCES,
            "example": task.describe(tests[seeds[0]][1][0])}


# ----------------------------------------------------------------------------- natural text, context cut to T


def last_bits(model: nn.Module, windows: torch.Tensor, T: int, device: torch.device) -> torch.Tensor:
    """The loss (bits) of each window's last character, read after only the T characters before it: (n,)."""
    return token_losses(model, windows[:, -(T + 1):], device)[:, -1] / math.log(2)


def natural_text(seeds: list[int], steps: int, device: torch.device, progress, scale: str = "one") -> dict:
    """The showdown's character models on the same test characters, each read with its context cut to T;
    with a sweep's models, also each family's loss at each position of the context."""
    sweep = scaling.SWEEPS.get(scale)
    settings = ([CharLM(kind=kind, seed=seed, steps=steps) for kind in MODELS for seed in seeds] if sweep is None
                else [s for kind in MODELS for s in scaling.largest(sweep, kind, seeds)])
    models = trained_models(settings, device, progress)
    trained = dict(zip(((s.kind, s.seed) for s in settings), models))
    corpus, context = load(), settings[0].context
    windows, documents = document_windows(corpus, "test", context)  # (n, context + 1): the target is the last
    contexts = [T for T in CONTEXTS if T <= context]
    def cut(job: tuple[str, int]) -> torch.Tensor:  # one model's loss on each target, read with each cut: (contexts, targets)
        return torch.stack([last_bits(trained[job][0], windows, T, device) for T in contexts])

    jobs = [(kind, seed) for kind in MODELS for seed in seeds]
    scored = dict(zip(jobs, each_in_parallel(cut, jobs, device)))  # on a CPU, the models side by side on its cores
    families = []
    for kind in MODELS:
        by_seed = torch.stack([scored[(kind, seed)] for seed in seeds])  # (seeds, contexts, targets)
        info = trained[(kind, seeds[0])][1]
        families.append({
            "kind": kind, "label": label(kind), "lr": info.get("lr"), "parameters": info["parameters"],
            "bits": [over_seeds(by_seed[:, i].mean(dim=1).tolist()) for i in range(len(contexts))],
            "stops_gaining": stops_gaining(contexts, by_seed.mean(dim=0)),
        })
    positions = None if sweep is None else scaling.position_panel(sweep, dict(zip(settings, models)), seeds)
    return {"contexts": contexts, "context": context, "models": families, "targets": len(windows), "positions": positions,
            "documents": len(torch.unique(documents)), "chance": math.log2(corpus.vocab_size),
            "steps": settings[0].steps, "corpus": corpus.facts()["source"],
            "example": decode(windows[0, -1 - min(context, 48):].tolist())}


# ----------------------------------------------------------------------------- the run


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): seeds × copy-test steps, the steps of each
    character model not kept from the showdown (slide 11), and scoring them."""
    seeds = seed_list(params["seed"], params["seeds"])
    if params["text_scale"] != "one":  # the sweep's largest models, each as costly as many slide models
        sweep = scaling.SWEEPS[params["text_scale"]]
        largest = [s for kind in MODELS for s in scaling.largest(sweep, kind, seeds)]
        return 18 + 0.2 * params["seeds"] * params["steps"] + sum(0.0392 * s.steps * scaling.cost(s)
                                                                   for s in untrained(largest))
    models = [CharLM(kind=kind, seed=seed, steps=params["text_steps"]) for kind in MODELS for seed in seeds]
    return 18 + 0.2 * params["seeds"] * params["steps"] + 0.0392 * params["text_steps"] * len(untrained(models))


def run(params: dict, progress, device: torch.device) -> dict:
    seeds = seed_list(params["seed"], params["seeds"])
    copy = copy_test(params, seeds, device, share(progress, 0, 0.6))
    text = natural_text(seeds, params["text_steps"], device, share(progress, 0.6, 1.0), params["text_scale"])
    result = {"copy": copy, "text": text, "seeds": seeds, "recipes": how_chosen(ID)}
    result["winner"] = verdict(copy)
    result["summary"] = summarise(result)
    return result


def verdict(copy: dict) -> str:
    """Who predicted the repeats better with every seed (all of one's losses below all of the other's)."""
    return leader(dict(zip(MODELS, (m["repeat_bits"] for m in copy["models"]))), lower_is_better=True)


# ----------------------------------------------------------------------------- words


def bits_text(stats: dict) -> str:
    return spread_text(stats, ".2f")


def summarise(result: dict) -> str:
    """The repeats' loss, each rate, and where each family stops gaining on text (before the repeat
    every model guesses: that is on the chart, and in the text version)."""
    copy, text, seeds = result["copy"], result["text"], result["seeds"]
    transformer, lstm = copy["models"]
    over = f"mean (range) over {len(seeds)} seeds" if len(seeds) > 1 else f"seed {seeds[0]}"
    rates = ", ".join(f"{m['label']} {rate_text(m['lr'])}" for m in copy["models"])
    stops = [f"{m['stops_gaining']} ({m['label']})" for m in text["models"]]
    positions = "" if not text.get("positions") else " " + position_words(text["positions"])
    return (f"Copy test, {copy['variant_label']} ({over}, chance {copy['chance']:.2f} bits): on the repeats the "
            f"Transformer {bits_text(transformer['repeat_bits'])} bits per symbol, the LSTM "
            f"{bits_text(lstm['repeat_bits'])}. Rates chosen on validation: {rates}. Text, context cut to T: no "
            f"clear gain after T = {stops[0]}, {stops[1]}.{positions}")


def position_words(panel: dict) -> str:
    """Figure 7 (right) in words: each family's loss early and late in the context, the fitted a, b, c,
    and the position from which it stops gaining."""
    bins = panel["bins"]
    parts = []
    for family in panel["families"]:
        fit, stops = family["fit"], family["stops_gaining"]
        stop_text = (f"{stops['mean']:.0f}" if stops["min"] == stops["max"]
                     else f"{stops['mean']:.0f} ({stops['min']:.0f}–{stops['max']:.0f} over seeds)")
        shown = sorted({0, min(3, len(bins) - 1), min(6, len(bins) - 1), len(bins) - 1})  # 1, 8–15, 64–127, the last
        at = ", ".join(f"{bits_text(family['bins'][i])} at {'position 1' if bins[i][1] == 1 else f'{bins[i][0]}–{bins[i][1]}'}"
                       for i in shown)
        parts.append(f"the {family['label']} {at} (fit {fit['a']:.2f} + {fit['b']:.2f}·T^−{fit['c']:.2f}; "
                     f"no clear gain after position {stop_text})")
    short = ("" if panel["context"] >= scaling.FIGURE_7_CONTEXT else
             f" A context of {panel['context']} is shorter than the {scaling.FIGURE_7_CONTEXT} characters in which "
             f"Kaplan et al.'s question is asked here: {scaling.measured_by('context')} asks it.")
    return (f"Loss at each position of the {panel['context']}-character context, largest models, bits per "
            f"character: {'; '.join(parts)}.{short}")


def transformer_repeat_bits(result: dict) -> dict:
    """The Transformer's bits per repeated symbol on the copy test (lower is better), over seeds."""
    return result["copy"]["models"][MODELS.index("transformer")]["repeat_bits"]


def lstm_repeat_bits(result: dict) -> dict:
    """The LSTM's bits per repeated symbol on the copy test (lower is better), over seeds."""
    return result["copy"]["models"][MODELS.index("lstm")]["repeat_bits"]


QUANTITIES = declared(transformer_repeat_bits, lstm_repeat_bits)  # what the slide may quote


def headline(result: dict) -> dict:
    """For the recap, and the poll: who predicted the repeated symbols better, with every seed."""
    copy = result["copy"]
    return recap_row(f"Copy test ({copy['variant']})", result["winner"],
                     f"bits per repeated symbol: Transformer {bits_text(transformer_repeat_bits(result))}, LSTM "
                     f"{bits_text(lstm_repeat_bits(result))}, chance {copy['chance']:.2f}")


def format_text(result: dict) -> str:
    copy, text = result["copy"], result["text"]
    lines = [f"Copy test, {copy['variant']}: {copy['variants'][copy['variant']]}.",
             f"  e.g. {copy['example']}", "",
             f"{'position':>10}" + "".join(f"{m['label']:>14}" for m in copy["models"]) + f"{'repeat share':>14}"]
    for position in (1, 16, 32, 48, 64, 65, 66, 80, 96, 112, 128):
        if position <= copy["length"]:
            lines.append(f"{position:>10}" + "".join(f"{m['per_position_bits'][position - 1]:>14.3f}"
                                                     for m in copy["models"])
                         + f"{copy['predictable_share'][position - 1]:>14.0%}")
    for m in copy["models"]:
        lines.append(f"{m['label']} ({m['parameters']:,} parameters, learning rate {rate_text(m['lr'])}): first "
                     f"stretch {bits_text(m['first_bits'])}, repeats {bits_text(m['repeat_bits'])} bits per symbol")
    lines += ["", f"Natural text, the same {text['targets']:,} test characters, context cut to T (bits per character):",
              f"{'T':>10}" + "".join(f"{m['label']:>20}" for m in text["models"])]
    for i, T in enumerate(text["contexts"]):
        lines.append(f"{T:>10}" + "".join(f"{bits_text(m['bits'][i]):>20}" for m in text["models"]))
    recipes = result["recipes"]
    lines += ["", f"Learning rates chosen on validation sequences ({recipes['budget']}; {recipes['script']}): "
              + ", ".join(f"{label(kind)} {rate_text(r['lr'])}" for kind, r in recipes["recipes"].items()),
              "", result["summary"]]
    return "\n".join(lines)
