"""Kaplan et al.'s (2020) Figures 7 and 5 in miniature: character language models of both families
at several sizes, trained on the same text with the same budget, each size's learning rate chosen
on the validation text.

Figure 7 (left): test loss against non-embedding parameters. In their runs the Transformers' loss
kept falling with size while the LSTMs' flattened. Figure 7 (right): per-token test loss against
the token's position in the context: the Transformers' kept falling across the whole context, the
LSTMs' levelled off after about 100 tokens. Figure 5: at one size, the Transformer's shape (deep and
narrow or shallow and wide, a few large heads or many small ones) changes the loss by a few
percent at most.

A `Sweep` is one such experiment at one budget: the Transformer's widths (each LSTM is matched to
its Transformer in parameters), the context, the characters seen, and the shapes tried at the
middle size. `SWEEPS` holds the two the deck offers, each device class's prepared run
(`demos.runtime.budgets`): an H100's and a 2-core CPU's, each sized to what that machine trains in
a few minutes. The models are the showdown's `CharLM`, kept in the model store, so the showdown
(the left panel and the head-to-head at the largest size) and the context slide (the right panel)
share them. What a sweep leaves out (Figure 5's shapes, a context as long as the paper's) its words
say, naming the sweep that measures it (`measured_by`).
"""
from dataclasses import dataclass
from pathlib import Path

import torch

from demos.core.fitting import fit_offset_power_law, fit_power_law
from demos.shared.char_models import CharLM, fit_models, position_bins
from demos.shared.contenders import label
from demos.shared.seeds import over_seeds
from demos.runtime.budgets import run_text
from demos.runtime.params import Param, ParamError
from demos.shared.tuning import LR_GRID, TUNED_DIR, Study, chosen

MODELS = ("transformer", "lstm")
SCHEDULE = "cosine"  # every sweep model's schedule (after the Transformer's warm-up): not tuned
# Learning rates each size of each family tries: the shared grid without its two smallest (at 600 steps
# on an H100 the second of them, 0.0003, was the worst for every size of both).
GRID = LR_GRID[2:]


@dataclass(frozen=True)
class Sweep:
    name: str  # "gpu-sweep": a value of the demos' `scale` parameter, and its recipe file's suffix
    widths: tuple[int, ...]  # the Transformer's widths, smallest first; each LSTM is matched to one in parameters
    layers: int  # the Transformer's
    lstm_layers: int
    head_size: int  # the Transformer's heads: width // head_size of them
    context: int  # characters a model reads, trains on and is scored on
    batch_size: int  # windows of `context` characters per step
    steps: int  # every model's (the best of every `eval_every` steps on the validation text kept)
    eval_every: int
    shapes: tuple[tuple[int, int, int], ...] = ()  # Figure 5: (layers, width, heads) at about the middle size
    bfloat16: bool = False  # every model's forward pass in bfloat16 on a GPU (`training.in_bfloat16`)
    device_class: str = "gpu"  # the class whose prepared run it is (`budgets.TIERS`): what it was sized for

    @property
    def recipe_file(self) -> str:
        return f"generation-{self.name}"

    def describe(self) -> str:
        return (f"{self.steps:,} steps of {self.batch_size} windows of {self.context} characters "
                f"({self.steps * self.batch_size * self.context / 1e6:.1f} M characters seen), every size"
                + (", trained in bfloat16" if self.bfloat16 else ""))


SWEEPS = {
    # An H100's prepared run: Transformers of 0.2 M to 3.2 M non-embedding parameters, a context of 512
    # characters, 26.2 M characters seen each; and three more shapes at the middle size (0.8 M). The steps
    # are as many as keep the run within three minutes there. In float32 (TF32) the 27 models together
    # took 169 ms a step, so 800 steps (153 s on 2026-11-27), where the largest of both families were
    # still improving and tied; with the forward pass in bfloat16 they take 72 ms (on 2026-11-28:
    # the Transformers 2.3 times faster, the LSTMs 1.2), so 1,600.
    "gpu-sweep": Sweep("gpu-sweep", widths=(64, 128, 256), layers=4, lstm_layers=2, head_size=32, context=512,
                       batch_size=32, steps=1600, eval_every=200,
                       shapes=((8, 96, 3), (2, 192, 6), (4, 128, 2)), bfloat16=True, device_class="gpu"),
    # A 2-core CPU's prepared run: the same shapes of model, half as wide, Transformers of 0.05 M to 0.8 M
    # non-embedding parameters (15 times), a context of 128 characters, 2.0 M characters seen each. At
    # 1,500 steps of 16 windows the 18 models took 808 s on a 2-core Intel Xeon (2026-12-01), which runs
    # the deck about twice as fast as the project's earlier 2-core AMD EPYC: 1,000 steps of 16 keep the
    # run within the 20 minutes a CPU's prepared run may take on either. Those characters come as 2,000
    # steps of 8 windows: a step of 8 costs half a step of 16 there, and at the same characters twice the
    # updates served both families at every size (654 s; docs/science.md). Figure 5's shapes (as many
    # models again) do not fit there, nor a context of 512, at which the Transformers stay on a plateau
    # within the budget (`benchmarks.plateau`): the slides say they need a GPU.
    "cpu-sweep": Sweep("cpu-sweep", widths=(32, 64, 128), layers=4, lstm_layers=2, head_size=32, context=128,
                       batch_size=8, steps=2000, eval_every=500, device_class="cpu"),
}


# Each sweep's learning rates, chosen on the validation text by `python -m benchmarks.recipes generation-<sweep>`
# on the kind of machine the sweep is sized for: part of the code (a new choice, new cache keys) once made.
DATA_FILES = tuple(f"tuned/{sweep.recipe_file}.json" for sweep in SWEEPS.values()
                   if (TUNED_DIR / f"{sweep.recipe_file}.json").exists())


FIGURE_7_CONTEXT = 512  # characters: the shortest context in which the right panel asks the paper's question


def measured_by(what: str) -> str:
    """Where `what` is measured ("shapes": Figure 5; "context": a context of FIGURE_7_CONTEXT), in the words
    a result names its budget by: "the GPU prepared run"; for the words of a sweep that leaves it out."""
    having = sorted({sweep.device_class for sweep in SWEEPS.values()
                     if (sweep.shapes if what == "shapes" else sweep.context >= FIGURE_7_CONTEXT)})
    return " or ".join(run_text(tier, "full") for tier in having) or "no prepared run of this deck"


def chosen_yet(sweep: Sweep) -> bool:
    return (TUNED_DIR / f"{sweep.recipe_file}.json").exists()


class ScaleParam(Param):
    """"one" (the slide's models) or a sweep whose learning rates have been chosen."""

    def check(self, value):
        value = super().check(value)
        if value in SWEEPS and not chosen_yet(SWEEPS[value]):
            raise ParamError(self.name, f"the {value}'s learning rates are not chosen yet on this installation: "
                                        f"run python -m benchmarks.recipes {SWEEPS[value].recipe_file} first")
        return value


def scale_param(name: str, help: str) -> Param:
    return ScaleParam(name, "choice", "one", help, choices=("one", *SWEEPS))


def contender(kind: str, width: int) -> str:
    """A size of a family, as the recipe file names it: "transformer-128"."""
    return f"{kind}-{width}"


def model(sweep: Sweep, kind: str, width: int, seed: int, lr: float | None = None,
          layers: int | None = None, heads: int | None = None) -> CharLM:
    """The settings of one sweep model: its size's learning rate chosen on validation (or `lr`)."""
    if lr is None:
        lr = chosen(sweep.recipe_file, contender(kind, width))["lr"]
    layers = layers or sweep.layers
    return CharLM(kind=kind, seed=seed, steps=sweep.steps, context=sweep.context, batch_size=sweep.batch_size,
                  width=width, n_layers=layers, n_heads=heads or max(1, width // sweep.head_size),
                  lstm_layers=sweep.lstm_layers, eval_every=sweep.eval_every,
                  patience=sweep.steps // sweep.eval_every, lr=lr, schedule=SCHEDULE, window=sweep.context,
                  bfloat16=sweep.bfloat16)


def sizes(sweep: Sweep, seeds: list[int]) -> list[CharLM]:
    return [model(sweep, kind, width, seed) for width in sweep.widths for kind in MODELS for seed in seeds]


def middle(sweep: Sweep) -> int:
    """The middle size's Transformer width: Figure 5's shapes are about its size."""
    return sweep.widths[len(sweep.widths) // 2]


def shape(sweep: Sweep, layers: int, width: int, heads: int, seed: int) -> CharLM:
    """A Transformer of the given shape, with the middle size's learning rate."""
    lr = chosen(sweep.recipe_file, contender("transformer", middle(sweep)))["lr"]
    return model(sweep, "transformer", width, seed, lr=lr, layers=layers, heads=heads)


def shapes(sweep: Sweep, seeds: list[int]) -> list[CharLM]:
    """Figure 5's Transformers: the other shapes, at about the middle size."""
    return [shape(sweep, *dims, seed) for dims in sweep.shapes for seed in seeds]


def largest(sweep: Sweep, kind: str, seeds: list[int]) -> list[CharLM]:
    return [model(sweep, kind, sweep.widths[-1], seed) for seed in seeds]


def cost(settings: CharLM) -> float:
    """How many slide models (`CharLM()`) of as many steps training `settings` costs, roughly: by
    width² × layers × characters per step (for `work` estimates, which the speed test calibrates)."""
    slide = CharLM()
    return ((settings.width ** 2 * settings.n_layers * settings.batch_size * settings.context)
            / (slide.width ** 2 * slide.n_layers * slide.batch_size * slide.context))


def tuning(sweep: Sweep) -> Study:
    """Each size of each family tries the same learning rates at the sweep's budget, on one seed; the
    best validation bits per character (of the weights kept) wins. On a GPU all candidates train
    together (`score_all`)."""
    def settings(name: str, recipe: dict, seed: int) -> CharLM:
        kind, width = name.rsplit("-", 1)
        return model(sweep, kind, int(width), seed, lr=recipe["lr"])

    def score_all(jobs: list[tuple[str, dict, int]], device: torch.device) -> list[float]:
        fitted = fit_models([settings(*job) for job in jobs], device, lambda *args, **kwargs: None)
        return [info["validation_bits"] for _, info in fitted]

    def score(name: str, recipe: dict, seed: int, device: torch.device) -> float:
        return score_all([(name, recipe, seed)], device)[0]

    return Study(sweep.recipe_file, sweep.describe(), "validation bits per character",
                 {contender(kind, width): [{"lr": lr} for lr in GRID] for width in sweep.widths for kind in MODELS},
                 score, seeds=(0,), score_all=score_all)


# ----------------------------------------------------------------------------- the panels


def sweep_precision(sweep: Sweep, trained: dict, seeds: list[int]) -> str | None:
    """How the sweep's models trained ("bfloat16" on a GPU where the sweep says so), as its largest Transformer records it."""
    return trained[largest(sweep, "transformer", seeds)[0]][1].get("precision")


def size_panel(sweep: Sweep, trained: dict, seeds: list[int]) -> dict:
    """Figure 7 (left): each family's test bits per character at each size, over seeds, and a
    power law L = k·N^(−α) fitted to each family's means."""
    families = []
    for kind in MODELS:
        points = []
        for width in sweep.widths:
            infos = [trained[model(sweep, kind, width, seed)][1] for seed in seeds]
            points.append({"width": infos[0]["width"], "layers": sweep.lstm_layers if kind == "lstm" else sweep.layers,
                           "parameters": infos[0]["parameters"], "non_embedding": infos[0]["non_embedding"],
                           "lr": infos[0]["lr"], "test_bits": over_seeds([i["test_bits"] for i in infos]),
                           "validation_bits": over_seeds([i["validation_bits"] for i in infos]),
                           "best_step": [i["best_step"] for i in infos]})
        fit = fit_power_law([p["non_embedding"] for p in points], [p["test_bits"]["mean"] for p in points])
        families.append({"kind": kind, "label": label(kind), "points": points, "fit": fit})
    return {"families": families, "budget": sweep.describe(), "precision": sweep_precision(sweep, trained, seeds),
            "recipes": f"python -m benchmarks.recipes "
            f"{sweep.recipe_file}", "grid": list(GRID)}


def shape_panel(sweep: Sweep, trained: dict, seeds: list[int]) -> dict | None:
    """Figure 5: the middle size's Transformer and the other shapes, test bits over seeds, and how far
    apart the means are (the largest mean over the smallest, less one)."""
    if not sweep.shapes:
        return None
    width = middle(sweep)
    shown = [(sweep.layers, width, max(1, width // sweep.head_size))] + list(sweep.shapes)
    rows = []
    for layers, width, heads in shown:
        infos = [trained[shape(sweep, layers, width, heads, seed)][1] for seed in seeds]
        rows.append({"layers": layers, "width": width, "heads": heads, "head_size": width // heads,
                     "non_embedding": infos[0]["non_embedding"], "test_bits": over_seeds([i["test_bits"] for i in infos])})
    means = [row["test_bits"]["mean"] for row in rows]
    return {"shapes": rows, "spread": max(means) / min(means) - 1}


def position_panel(sweep: Sweep, trained: dict, seeds: list[int]) -> dict:
    """Figure 7 (right): each family's test bits at each position of the context at the largest size,
    over seeds, also binned by powers of two; a + b·T^(−c) fitted to each family's per-position means
    (each position weighted 1/T, so every doubling of the context counts alike); and, for each seed,
    the position from which the model stops gaining (`char_models.stops_gaining`)."""
    families = []
    for kind in MODELS:
        infos = [trained[s][1] for s in largest(sweep, kind, seeds)]
        curve = torch.tensor([i["test_by_position"] for i in infos]).mean(dim=0)  # (context,)
        positions = torch.arange(1, len(curve) + 1, dtype=torch.float64)
        families.append({"kind": kind, "label": label(kind), "non_embedding": infos[0]["non_embedding"],
                         "bins": [over_seeds(list(values)) for values in zip(*(i["test_bins"] for i in infos))],
                         "curve": [round(v, 4) for v in curve.tolist()],
                         "fit": fit_offset_power_law(positions.numpy(), curve.numpy(), weights=(1 / positions).numpy()),
                         "stops_gaining": over_seeds([i["stops_gaining"] for i in infos])})
    return {"bins": position_bins(sweep.context), "context": sweep.context, "families": families,
            "precision": sweep_precision(sweep, trained, seeds)}
