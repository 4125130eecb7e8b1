"""Bounded Dyck-2: is a string of brackets ( ) [ ] well balanced, never nested more than two deep?

A recurrent network needs only a small stack of open brackets, whatever the length. Bhattamishra
et al. (2024) prove that a one-layer Transformer recognising such a language must grow with the
length; Yao et al. (2021) show that two layers of self-attention can recognise bounded Dyck at
any length. So three contenders, each with its family's care (the LSTM's forget gates at 1; the
Transformers from GPT-2's small weights) and the learning rate of the grid under which it learned
soonest on validation strings (`tuning`, run by `python -m benchmarks.recipes dyck`), are trained
at each length on the same batches, with several seeds, until learned or out of steps (not stopped
on a plateau: these models sit at 50% for hundreds of steps before they learn, if they do). A model
that has learned stops there: the question is how soon, and training on past it only waits for the
slowest (on a CPU it doubled the slide's time) while its accuracy wanders.

Two things are measured: the step at which each model first answered 95% of a set of validation
strings right (checked every 25 steps; "learned"), and its accuracy at the end on fresh test
strings: half balanced, half near misses made from balanced strings by one small edit
(`NEAR_MISSES`). Beside them stand chance and the counting rule ("balanced if each type opens as
often as it closes"), which catches some near misses and none of the others.
"""
import math
import random
from collections import Counter

import torch

from demos.core.tasks import MAX_DEPTH, NEAR_MISSES, BoundedDyck, balanced_brackets, edit, near_miss_kind
from demos.runtime.params import Param, seed_param
from demos.shared.classifier import (Entry, FirstLearned, classifier_config, once_learned, train_and_score,
                                     train_entries)
from demos.shared.contenders import CARE, TIE, label, rates_sentence, recipe
from demos.shared.recap import headline as recap_row
from demos.shared.seeds import ahead, leader, over_seeds, seed_list, seeds_param, spread_text
from demos.shared.tuning import Study, chosen, how_chosen, lr_grid
from demos.shared.words import listed

ID = "dyck"
TITLE = "Bounded Dyck-2: which models learn the brackets?"
LENGTHS = (20, 50, 100, 200)  # not shorter: at 10 brackets there are only 512 balanced strings to train and test on
PARAMS = [
    seed_param(),
    seeds_param(),
    Param("lengths", "multi", [20], "String lengths (brackets); a model is trained at each", 1, len(LENGTHS),
          choices=LENGTHS),
    Param("steps", "int", 1000, "Most training steps of each model; it stops once it has learned", 50, 3000),
    Param("width", "int", 32, "Width of every model (LSTM state size, Transformer d_model)", 8, 64),
    Param("models", "multi", ["lstm", "transformer-2"], "The models trained: the LSTM, and a Transformer of 1 "
          "or 2 layers (the 1-layer one rarely learns within a slide's budget)", 1, 3,
          choices=("lstm", "transformer", "transformer-2")),
]
TINY = {"lengths": [20], "steps": 50, "width": 8, "seeds": 2}
# Budgets per device class (`demos.runtime.budgets`): by default the LSTM and the 2-layer Transformer, with
# steps enough for the 2-layer one to learn length 20 with every seed; the prepared run adds the 1-layer
# Transformer and length 50.
BUDGETS = {
    "cpu": {"full": {"lengths": [20, 50], "steps": 2000, "models": ["lstm", "transformer", "transformer-2"]}},
    "gpu": {"default": {"steps": 1500},
            "full": {"lengths": [20, 50], "steps": 1500, "models": ["lstm", "transformer", "transformer-2"]}},
}
CONTENDERS = {  # name: (contender, layers)
    "lstm": ("lstm-tuned", 1),
    "transformer": ("transformer", 1),
    "transformer-2": ("transformer", 2),
}
MODELS = tuple(CONTENDERS)
BATCH_SIZE = 256  # at 64 the Transformers took over three times the steps to learn length 20: too long for a slide
LEARNED = 0.95  # a model has learned the language once it is right on this share of the validation strings
CHANCE = 0.5
EXAMPLE_PAIRS = 4  # the example strings shown are 8 brackets long
KINDS = ("balanced", *NEAR_MISSES)  # the kinds of test string, each scored on its own


def model_label(name: str) -> str:
    contender, layers = CONTENDERS[name]
    return f"{layers}-layer {label(contender)}" if contender == "transformer" else "LSTM"


def counts_match(text: str) -> bool:
    """The counting rule: each bracket type opens as often as it closes (order and depth ignored)."""
    counts = Counter(text)
    return counts["("] == counts[")"] and counts["["] == counts["]"]


def accuracy_by_kind(right: list[bool], kinds: list[str]) -> dict:
    """The share of test strings of each kind (balanced, or how the near miss was made) answered right."""
    return {kind: sum(r for r, k in zip(right, kinds) if k == kind) / max(1, kinds.count(kind)) for kind in KINDS}


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): seeds × steps × the lengths."""
    return 0.00185 * params["seeds"] * params["steps"] * sum(params["lengths"])


def entry(name: str, length: int, params: dict, lr: float, seed: int) -> Entry:
    """Model `name` at `length` and learning rate `lr`, trained with `seed` on the settings `params`,
    watched for the step at which it learns, and stopped there (no plateau stop: see the docstring)."""
    contender, layers = CONTENDERS[name]
    task = BoundedDyck(length)
    learned = FirstLearned(task, seed, LEARNED)
    return Entry((name, length, seed), classifier_config(contender, task, params["width"], n_layers=layers), task,
                 recipe(contender, params["steps"], lr), seed, label=f"{model_label(name)}, length {length}, seed {seed}",
                 stop=once_learned(learned), watch=learned)


def tuning(settings: dict | None = None) -> Study:
    """Each model's learning rate: the grid's under which it learned soonest at the default budget, scored as
    the share of the budget spent before it was right on 95% of the validation strings, or (never there)
    1 plus its validation error at the end."""
    defaults = {**{param.name: param.default for param in PARAMS}, **(settings or {})}  # `settings`: tests' tiny ones

    def score(name: str, candidate: dict, seed: int, device: torch.device) -> float:
        made = [entry(name, length, defaults, candidate["lr"], seed) for length in defaults["lengths"]]
        train_entries(made, BATCH_SIZE, device, lambda *a, **k: None)
        return sum(e.watch.step / defaults["steps"] if e.watch.step is not None else 1 + e.watch.error
                   for e in made) / len(made)

    return Study(ID, f"at most {defaults['steps']} steps of {BATCH_SIZE} strings of length "
                 f"{'/'.join(map(str, defaults['lengths']))}",
                 "share of the steps until right on 95% of validation strings (1 + validation error if never)",
                 {name: lr_grid() for name in MODELS}, score)


def run(params: dict, progress, device: torch.device) -> dict:
    lengths, width, seeds = params["lengths"], params["width"], seed_list(params["seed"], params["seeds"])
    names = params["models"]
    entries = [entry(name, length, params, chosen(ID, name)["lr"], seed)
               for length in lengths for name in names for seed in seeds]
    scored = train_and_score(entries, BATCH_SIZE, device, progress)
    learned = {e.key: e.watch.step for e in entries}

    points, baselines, test_sets = [], {}, []
    for length in lengths:
        tests = {seed: scored[(names[0], length, seed)] for seed in seeds}  # same seed: same fresh strings
        texts = {seed: [BoundedDyck(length).describe(row) for row in tests[seed].inputs] for seed in seeds}
        kinds = {seed: [near_miss_kind(text) or "balanced" for text in texts[seed]] for seed in seeds}
        counting = [[counts_match(text) == (kind == "balanced") for text, kind in zip(texts[seed], kinds[seed])]
                    for seed in seeds]
        baselines[str(length)] = {"chance": CHANCE, "counting": over_seeds([sum(r) / len(r) for r in counting]),
                                  "counting_by_kind": accuracy_by_kind(counting[0], kinds[seeds[0]])}
        test_sets.append({"length": length, "counts": {kind: kinds[seeds[0]].count(kind) for kind in KINDS}})
        for name in names:
            runs = {seed: scored[(name, length, seed)] for seed in seeds}
            right = {seed: (r.probabilities.argmax(-1) == r.targets).tolist() for seed, r in runs.items()}
            by_kind = [accuracy_by_kind(right[seed], kinds[seed]) for seed in seeds]
            points.append({"model": name, "length": length,
                           "accuracy": over_seeds([runs[seed].accuracy for seed in seeds]),
                           "by_kind": {kind: over_seeds([b[kind] for b in by_kind]) for kind in KINDS},
                           "steps_taken": [len(runs[seed].losses) for seed in seeds],
                           "learned_at": [learned[(name, length, seed)] for seed in seeds],
                           "parameters": runs[seeds[0]].parameters})

    result = {"models": {name: model_label(name) for name in names}, "lengths": lengths, "seeds": seeds,
              "chance": CHANCE, "baselines": baselines, "points": points, "test_sets": test_sets,
              "examples": examples(params["seed"]), "near_misses": dict(NEAR_MISSES), "max_depth": MAX_DEPTH,
              "n_test": len(scored[entries[0].key].targets),
              "budget": {"optimizer": "Adam", "steps": params["steps"], "batch_size": BATCH_SIZE,
                         "width": width, "lstm": CARE["lstm-tuned"], "transformer": CARE["transformer"]},
              "learned": LEARNED, "lr": {name: chosen(ID, name)["lr"] for name in names}, "recipes": how_chosen(ID)}
    result["summary"] = summarize(result)
    return result


def examples(seed: int) -> list[dict]:
    """One short near miss of each kind beside the balanced string it was made from, for the slide."""
    rng = random.Random(seed)
    shown = []
    for kind in NEAR_MISSES:
        near_miss = None
        while near_miss is None:  # until the balanced string has a place for this edit
            source = balanced_brackets(EXAMPLE_PAIRS, rng)
            near_miss = edit(kind, source, rng)
        shown.append({"kind": kind, "balanced": "".join(source), "near_miss": "".join(near_miss),
                      "counting_rule": "balanced" if counts_match("".join(near_miss)) else "not balanced"})
    return shown


def trained(result: dict) -> list[str]:
    """The models this run trained, in the slide's order."""
    return [name for name in MODELS if name in result["models"]]


def point(result: dict, name: str, length: int) -> dict:
    return next(p for p in result["points"] if p["model"] == name and p["length"] == length)


def learned_text(steps: list[int | None], budget: int) -> str:
    """Steps until learned over seeds: "175 (150–200)", "300 (275–325); 1 seed not within 450", "not within 450"."""
    done = [s for s in steps if s is not None]
    missed = len(steps) - len(done)
    if not done:
        return f"not within {budget:,}"
    text = str(done[0]) if len(done) == 1 else f"{round(sum(done) / len(done))} ({min(done)}–{max(done)})"
    return text + (f"; {missed} seed{'s' if missed > 1 else ''} not within {budget:,}" if missed else "")


def learned_range(steps: list[int | None]) -> dict:
    """Steps until learned over seeds as a range ({"min", "max"}), never learning counting as last."""
    late = [math.inf if s is None else s for s in steps]
    return {"min": min(late), "max": max(late)}


def race(result: dict, length: int) -> tuple[str, str]:
    """Who learned sooner at `length`, with every seed ("lstm", "transformer" or "tie"), and the better Transformer."""
    steps = {name: point(result, name, length)["learned_at"] for name in trained(result)}
    transformers = [name for name in ("transformer-2", "transformer") if name in steps]
    if not transformers or "lstm" not in steps:  # one family only: no race
        return TIE, (transformers or ["lstm"])[0]
    best = min(transformers, key=lambda name: (steps[name].count(None), sum(s or 0 for s in steps[name])))
    # fewer steps is better: ahead when every seed learned before any of the other's did
    ranges = {"lstm": learned_range(steps["lstm"]), "transformer": learned_range(steps[best])}
    return leader(ranges, lower_is_better=True), best


def summarize(result: dict) -> str:
    lengths, seeds, budget = result["lengths"], result["seeds"], result["budget"]["steps"]
    over = f"mean over {len(seeds)} seeds, range in brackets" if len(seeds) > 1 else f"seed {seeds[0]}"
    steps = "; ".join(f"{result['models'][name]} "
                      f"{' / '.join(learned_text(point(result, name, n)['learned_at'], budget) for n in lengths)}"
                      for name in trained(result))
    text = (f"Steps until learned (right on {result['learned']:.0%} of validation strings, checked every 25 steps) "
            f"at length {' / '.join(map(str, lengths))} ({over}): {steps}.")
    racing = "lstm" in result["models"] and len(result["models"]) > 1  # a race needs both families
    for length in lengths if racing else ():
        winner, best = race(result, length)
        at = f" at length {length}" if len(lengths) > 1 else ""
        if winner == "lstm":
            text += f" The LSTM learned sooner than the {result['models'][best]} with every seed{at}."
        elif winner == "transformer":
            text += f" The {result['models'][best]} learned sooner than the LSTM with every seed{at}."
        else:
            text += f" Neither the LSTM nor a Transformer learned sooner with every seed{at}."
    scores = {name: [point(result, name, length)["accuracy"] for length in lengths] for name in trained(result)}
    per_model = "; ".join(f"{result['models'][name]} {' / '.join(spread_text(a) for a in scores[name])}"
                          for name in trained(result))
    counting = " / ".join(spread_text(result["baselines"][str(n)]["counting"]) for n in lengths)
    text += (f" Right on fresh strings at the end (half balanced, half near misses): {per_model}. "
             f"The counting rule scores {counting}, chance 50%.")
    below = [f"the {result['models'][name]} at length {listed(short)}" for name in trained(result)
             if (short := [n for n, a in zip(lengths, scores[name])
                           if not ahead(a, result["baselines"][str(n)]["counting"])])]
    if below:
        text += f" Not above counting with every seed: {listed(below)}."
    return text + " " + rates_sentence(result["recipes"], {result["models"][name]: result["lr"][name] for name in trained(result)})


def headline(result: dict) -> dict:
    """For the recap: who learned sooner, the LSTM or the better Transformer, at the longest length tested."""
    longest, budget = result["lengths"][-1], result["budget"]["steps"]
    winner, best = race(result, longest)
    lstm, attention = point(result, "lstm", longest), point(result, best, longest)
    return recap_row(f"Bounded Dyck-2, length {longest}", winner,
                     f"steps until learned: LSTM {learned_text(lstm['learned_at'], budget)}, {result['models'][best]} "
                     f"{learned_text(attention['learned_at'], budget)}")


def format_text(result: dict) -> str:
    lengths = result["lengths"]
    width = max(len(label) for label in result["models"].values())
    budget = result["budget"]
    lines = [f"Steps until learned (right on {result['learned']:.0%} of validation strings), each seed "
             f"(-: not within {budget['steps']:,})", f"{'length':<{width}}  " + "".join(f"{n:>16}" for n in lengths)]
    for name in trained(result):
        lines.append(f"{result['models'][name]:<{width}}  " + "".join(
            f"{' '.join('-' if s is None else str(s) for s in point(result, name, n)['learned_at']):>16}" for n in lengths))
    lines += ["", "Right on fresh strings, mean (lowest–highest) over seeds " + ", ".join(map(str, result["seeds"])),
              f"{'length':<{width}}  " + "".join(f"{n:>16}" for n in lengths)]
    for name in trained(result):
        lines.append(f"{result['models'][name]:<{width}}  "
                     + "".join(f"{spread_text(point(result, name, n)['accuracy']):>16}" for n in lengths))
    lines.append(f"{'counting rule':<{width}}  "
                 + "".join(f"{spread_text(result['baselines'][str(n)]['counting']):>16}" for n in lengths))
    lines.append(f"{'chance':<{width}}  " + "".join(f"{'50%':>16}" for _ in lengths))
    lines += ["", f"Right by kind of test string, length {lengths[-1]} (mean over seeds):",
              f"{'':<{width}}  " + "".join(f"{kind:>10}" for kind in KINDS)]
    for name in trained(result):
        by_kind = point(result, name, lengths[-1])["by_kind"]
        lines.append(f"{result['models'][name]:<{width}}  " + "".join(f"{by_kind[k]['mean']:>10.0%}" for k in KINDS))
    counting = result["baselines"][str(lengths[-1])]["counting_by_kind"]
    lines.append(f"{'counting rule':<{width}}  " + "".join(f"{counting[k]:>10.0%}" for k in KINDS))
    lines += ["", "Near misses, each made from a balanced string by one small edit:"]
    for example in result["examples"]:
        lines.append(f"  {example['kind']:<7} {example['balanced']} -> {example['near_miss']}   "
                     f"({result['near_misses'][example['kind']]}; counting says {example['counting_rule']})")
    lines += [f"Budget: Adam, batch {budget['batch_size']}, width {budget['width']}, at most {budget['steps']:,} steps "
              f"per model (stopping once learned); LSTM: "
              f"{budget['lstm']}; Transformers: {budget['transformer']}", "", result["summary"]]
    return "\n".join(lines)
