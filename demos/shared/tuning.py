"""Recipes chosen on validation data, the same way for every contender of every slide.

Each contender's learning rate (and, where a slide tries more, its schedule or batch) is the
candidate of a small grid that scored best on validation data at that slide's own budget, never
on the test data, which is read once, by the demo, after the choice. `python -m benchmarks.recipes
<demo>` runs a demo's grid and writes what it chose, with every score it saw, to
`demos/shared/tuned/<demo>.json`; the demo reads its recipes from there, so the slide can name the
rate each contender got and how it was chosen, and anyone can run the choice again.

A demo takes part by defining `tuning() -> Study`.
"""
import json
import platform
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Callable

import torch

# Half-decades: the one grid of learning rates every contender gets. 3e-2 joined on 2026-11-28, when
# every LSTM of the GPU sweep chose 1e-2, the grid's edge; each recipe file records the rates it tried.
LR_GRID = (1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2)
TUNED_DIR = Path(__file__).parent / "tuned"
SCRIPT = "benchmarks/recipes.py"

# score(contender, recipe, seed, device) -> the validation loss or error of that contender trained with
# that recipe and seed at the slide's budget (lower is better); it must never read the test data.
Score = Callable[[str, dict, int, torch.device], float]


@dataclass(frozen=True)
class Study:
    """How one demo's recipes are chosen: the candidates each contender tries, and how one is scored."""
    demo: str
    budget: str  # the slide's budget, in words: "450 steps of 64 strings of length 20"
    measure: str  # what the score is, in words: "validation error", "validation bits per character"
    candidates: dict[str, list[dict]]  # contender -> recipes to try, each a dict with at least "lr"
    score: Score
    seeds: tuple[int, ...] = (0, 1, 2)
    # Optional: score_all(jobs, device) scores a list of (contender, recipe, seed) at once (all trained
    # together: on a GPU, many small models at a time); the same numbers as `score` one by one.
    score_all: Callable[[list[tuple[str, dict, int]], torch.device], list[float]] | None = None


def lr_grid(**fixed) -> list[dict]:
    """The learning-rate grid as candidates, each with the same `fixed` settings."""
    return [{"lr": lr, **fixed} for lr in LR_GRID]


@dataclass
class Cell:
    """One candidate recipe of one contender, with one validation score per seed."""
    contender: str
    recipe: dict
    scores: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else float("inf")


def best(cells: list[Cell]) -> Cell:
    """The candidate with the lowest mean validation score (the first listed, of equals)."""
    return min(cells, key=lambda cell: cell.mean)


def record(study: Study, cells: list[Cell], device: torch.device, seconds: float, threads: int) -> dict:
    """What the choice was and what it saw, JSON-safe: the file a demo reads its recipes from."""
    contenders = {}
    for name in study.candidates:
        mine = [cell for cell in cells if cell.contender == name]
        contenders[name] = {"chosen": best(mine).recipe,
                            "tried": [{"recipe": c.recipe, "validation": [round(s, 5) for s in c.scores],
                                       "mean": round(c.mean, 5)} for c in mine]}
    tried = sorted({recipe["lr"] for recipes in study.candidates.values() for recipe in recipes})
    return {"demo": study.demo, "budget": study.budget, "measure": study.measure, "grid": tried,
            "seeds": list(study.seeds), "contenders": contenders, "script": f"python -m benchmarks.recipes {study.demo}",
            "device": str(device), "machine": f"{platform.machine()}, {threads} thread{'s' if threads > 1 else ''} per run",
            "seconds": round(seconds, 1), "date": time.strftime("%Y-%m-%d")}


def choose(study: Study, device: torch.device, run_cells=None, log=print, threads: int | None = None) -> dict:
    """Score every candidate with every seed (with `run_cells`, a function that scores a list of
    (contender, recipe, seed) at once, e.g. on several cores, `threads` each), and keep each contender's best."""
    cells = [Cell(name, recipe) for name, recipes in study.candidates.items() for recipe in recipes]
    jobs = [(cell.contender, cell.recipe, seed) for cell in cells for seed in study.seeds]
    started = time.perf_counter()
    if run_cells is not None:
        scores = run_cells(jobs)
    elif study.score_all is not None:
        scores = study.score_all(jobs, device)
    else:
        scores = [study.score(contender, recipe, seed, device) for contender, recipe, seed in jobs]
    for (contender, recipe, seed), score in zip(jobs, scores):
        cell = next(c for c in cells if c.contender == contender and c.recipe == recipe)
        cell.scores.append(float(score))
        log(f"{study.demo}: {contender} {recipe} seed {seed}: {study.measure} {score:.4f}")
    return record(study, cells, device, time.perf_counter() - started, threads or torch.get_num_threads())


def save(chosen: dict) -> Path:
    TUNED_DIR.mkdir(exist_ok=True)
    path = TUNED_DIR / f"{chosen['demo']}.json"
    path.write_text(json.dumps(chosen, indent=1) + "\n")
    tuned.cache_clear()
    return path


@cache
def tuned(demo: str) -> dict:
    """The choice `benchmarks/recipes.py` made for `demo` (the file is part of the code)."""
    return json.loads((TUNED_DIR / f"{demo}.json").read_text())


def chosen(demo: str, contender: str) -> dict:
    """The recipe chosen for `contender` on `demo`'s slide: {"lr": ..., and any other setting tried}."""
    return dict(tuned(demo)["contenders"][contender]["chosen"])


def how_chosen(demo: str) -> dict:
    """For a result: each contender's chosen recipe and how it was chosen, so the slide can say so."""
    choice = tuned(demo)
    return {"recipes": {name: entry["chosen"] for name, entry in choice["contenders"].items()},
            "grid": choice["grid"], "budget": choice["budget"], "measure": choice["measure"],
            "seeds": choice["seeds"], "script": choice["script"]}


def rate_text(lr: float) -> str:
    """A learning rate as the slides write it: 0.003, 0.0001."""
    return f"{lr:.4f}".rstrip("0")
