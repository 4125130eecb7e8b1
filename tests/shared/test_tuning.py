"""Recipes are chosen on validation scores alone: every candidate with every seed, the lowest mean wins."""
import torch

from demos.shared import tuning
from demos.shared.tuning import LR_GRID, Study, choose, lr_grid

CPU = torch.device("cpu")


def test_the_grid_is_half_decades_from_1e_4_to_1e_2():
    assert LR_GRID == (1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2)
    assert [c["lr"] for c in lr_grid(schedule="cosine")] == list(LR_GRID)
    assert all(c["schedule"] == "cosine" for c in lr_grid(schedule="cosine"))


def test_each_contender_keeps_its_lowest_mean_over_seeds():
    calls = []

    def score(contender, recipe, seed, device):
        calls.append((contender, recipe["lr"], seed))
        best = 1e-3 if contender == "a" else 1e-2
        noise = 0.1 if (seed == 1 and recipe["lr"] == 3e-4) else 0.0  # one lucky seed must not decide
        return abs(recipe["lr"] - best) * 100 - noise

    study = Study("demo", "10 steps", "validation error", {"a": lr_grid(), "b": lr_grid()}, score, seeds=(0, 1, 2))
    chosen = choose(study, CPU, log=lambda line: None)
    assert len(calls) == 2 * len(LR_GRID) * 3
    assert chosen["contenders"]["a"]["chosen"] == {"lr": 1e-3}
    assert chosen["contenders"]["b"]["chosen"] == {"lr": 1e-2}
    tried = chosen["contenders"]["a"]["tried"]
    assert [t["recipe"]["lr"] for t in tried] == list(LR_GRID) and all(len(t["validation"]) == 3 for t in tried)


def test_every_chosen_file_names_a_recipe_from_the_grid_for_every_contender():
    for path in tuning.TUNED_DIR.glob("*.json"):
        choice = tuning.tuned(path.stem)
        assert choice["grid"] and set(choice["grid"]) <= set(LR_GRID), path.name  # the shared grid, or part of it
        for name, entry in choice["contenders"].items():
            lrs = sorted({t["recipe"]["lr"] for t in entry["tried"]})
            assert lrs == choice["grid"], (path.name, name)  # every contender tried the same rates
            assert entry["chosen"]["lr"] in LR_GRID, (path.name, name)
            assert entry["chosen"] in [t["recipe"] for t in entry["tried"]], (path.name, name)
            best = min(entry["tried"], key=lambda t: t["mean"])
            assert entry["chosen"] == best["recipe"], (path.name, name)  # the lowest validation mean, nothing else


def test_every_recipe_was_chosen_at_the_budget_its_slide_now_runs():
    """A recipe is only as good as the budget it was chosen at: raise a demo's default steps without
    running `python -m benchmarks.recipes <demo>` again, and this fails, naming the demo."""
    from benchmarks.recipes import studying, study_of, variants

    stale = {name: (tuning.tuned(study_of(name).demo)["budget"], study_of(name).budget)
             for name in studying() + variants() if tuning.tuned(study_of(name).demo)["budget"] != study_of(name).budget}
    assert not stale, f"chosen at another budget than the slide's (chosen at, now): {stale}"
