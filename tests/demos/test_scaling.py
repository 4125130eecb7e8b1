"""Kaplan et al.'s Figures 7 and 5 in miniature, on tiny settings: each size's learning rate is chosen
on validation text by the recipe script's code and written where the demos read it; the showdown's
sweep reports both families at every size (growing in parameters) beside a fitted power law, the
shapes at the middle size, and the showdown between the largest; the context slide reads those very
models from the store (it trains nothing) and reports the loss at each position with its fit and
where each family stops gaining; and the words follow the numbers. Every family learns: its largest size
well below chance and below its smallest with every seed, the Transformer reading only the characters
before each one it predicts."""
import math
import shutil

import numpy as np
import pytest
import torch

from demos import context_scaling, generation
from demos.core.fitting import fit_offset_power_law
from demos.core.python_docs import load
from demos.runtime.budgets import full_params
from demos.runtime.params import ParamError, validate
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore, using_store
from demos.shared import scaling, tuning
from demos.shared.char_models import document_windows, position_bins, stops_gaining, trained_models, untrained
from tests.demos.tiny import reads_only_the_past

CPU = torch.device("cpu")
TINY = scaling.Sweep("gpu-sweep", widths=(8, 16, 24), layers=1, lstm_layers=1, head_size=8, context=32,
                     batch_size=4, steps=20, eval_every=10, shapes=((2, 12, 1), (1, 16, 1)))
# Test bits per character seen with seeds 0-1 (2-3 passed too): the Transformer 6.06-6.24 at width 8, 5.14 at width 24;
# the LSTM 5.87-5.91, then 4.87-4.95. Chance is log2(96) = 6.58; a model with random weights scores about that.
LEARNED = 1.0  # bits: the largest size of each family at least this far below chance


@pytest.fixture(scope="module")
def sweep_results(tmp_path_factory):
    """Recipes chosen and saved into a temporary recipe folder, then both slides' sweep runs (the tiny
    sweep stands in for the GPU's while they run)."""
    folder = tmp_path_factory.mktemp("recipes") / "tuned"
    shutil.copytree(tuning.TUNED_DIR, folder)  # every demo's recipes, and room for the sweep's
    patch = pytest.MonkeyPatch()
    patch.setitem(scaling.SWEEPS, "gpu-sweep", TINY)
    patch.setattr(tuning, "TUNED_DIR", folder)
    patch.setattr(scaling, "TUNED_DIR", folder)
    tuning.tuned.cache_clear()
    store = ModelStore()
    try:
        study = generation.tuning("gpu-sweep")
        chosen = tuning.choose(study, CPU, log=lambda *args: None)
        tuning.save(chosen)
        showdown = run_demo(generation, {"scale": "gpu-sweep", "seeds": 2, "characters": 10}, device=CPU, store=store)
        with using_store(store):
            left_untrained = untrained([s for kind in scaling.MODELS for s in scaling.largest(TINY, kind, [0, 1])])
        context = run_demo(context_scaling, {"text_scale": "gpu-sweep", "steps": 20, "seeds": 2}, device=CPU,
                           store=store)
    finally:  # the deck's own sweeps and recipes again before any test runs: none depends on the order
        patch.undo()
        tuning.tuned.cache_clear()
    return {"chosen": chosen, "showdown": showdown, "context": context, "left_untrained": left_untrained,
            "store": store}


def test_the_offset_power_law_fit_recovers_known_a_b_c():
    positions = np.arange(1, 513, dtype=float)
    for a, b, c in ((1.5, 2.5, 0.6), (2.0, 1.0, 0.3), (0.8, 3.0, 1.2)):
        fit = fit_offset_power_law(positions, a + b * positions ** -c, weights=1 / positions)
        assert fit["a"] == pytest.approx(a, abs=0.01) and fit["b"] == pytest.approx(b, rel=0.02)
        assert fit["c"] == pytest.approx(c, rel=0.02) and fit["rmse"] < 1e-3


def test_a_family_that_keeps_gaining_stops_late_and_one_that_levels_off_stops_early():
    generator = torch.Generator().manual_seed(0)
    noise = torch.randn(6, 400, generator=generator) * 0.05
    falling = torch.tensor([3.0, 2.5, 2.2, 2.0, 1.9, 1.8])[:, None] + noise
    flat = torch.tensor([3.0, 2.5, 2.2, 2.2, 2.2, 2.2])[:, None] + noise
    starts = [1, 2, 4, 8, 16, 32]
    assert stops_gaining(starts, falling) == 32
    assert stops_gaining(starts, flat) == 4


def test_the_bins_of_positions_double_and_cover_the_context():
    assert position_bins(8) == [[1, 1], [2, 3], [4, 8]] and position_bins(7) == [[1, 1], [2, 3], [4, 7]]
    assert position_bins(512)[-1] == [256, 512]
    bins = position_bins(512)
    assert bins[0][0] == 1 and bins[-1][1] == 512 and all(b[0] == a[1] + 1 for a, b in zip(bins, bins[1:]))


def test_each_size_of_each_family_gets_the_same_grid_and_keeps_its_best(sweep_results):
    chosen = sweep_results["chosen"]
    assert set(chosen["contenders"]) == {f"{kind}-{width}" for kind in ("transformer", "lstm") for width in TINY.widths}
    for entry in chosen["contenders"].values():
        assert [tried["recipe"]["lr"] for tried in entry["tried"]] == list(scaling.GRID)
        assert entry["chosen"]["lr"] == min(entry["tried"], key=lambda tried: tried["mean"])["recipe"]["lr"]


def test_the_left_panel_has_every_size_of_both_families_growing_in_parameters(sweep_results):
    result = sweep_results["showdown"]
    sizes = result["sweep"]["sizes"]["families"]
    assert [family["kind"] for family in sizes] == ["transformer", "lstm"]
    for family in sizes:
        parameters = [point["non_embedding"] for point in family["points"]]
        assert len(parameters) == len(TINY.widths) and parameters == sorted(parameters) and parameters[0] > 0
        for point, width in zip(family["points"], TINY.widths):
            assert point["lr"] == sweep_results["chosen"]["contenders"][f"{family['kind']}-{width}"]["chosen"]["lr"]
            assert len(point["test_bits"]["by_seed"]) == 2 and 0 < point["test_bits"]["mean"] < math.log2(96)
        assert math.isfinite(family["fit"]["alpha"])
        # it learned, and more at its largest size than at its smallest
        smallest, largest = family["points"][0]["test_bits"], family["points"][-1]["test_bits"]
        assert largest["max"] < math.log2(96) - LEARNED, (family["kind"], largest)
        assert largest["max"] < smallest["min"], (family["kind"], smallest, largest)
    # the showdown is between the largest of each family: the same test bits
    for family in sizes:
        assert result["models"][family["kind"]]["test_bits"] == family["points"][-1]["test_bits"]
    assert result["budget"]["context"] == TINY.context and result["baselines"]["ngrams"]


def test_the_shapes_are_scored_at_the_middle_size_and_their_spread_is_what_the_summary_says(sweep_results):
    result = sweep_results["showdown"]
    shapes = result["sweep"]["shapes"]
    assert [(row["layers"], row["width"], row["heads"]) for row in shapes["shapes"]] == [(1, 16, 2), (2, 12, 1), (1, 16, 1)]
    means = [row["test_bits"]["mean"] for row in shapes["shapes"]]
    assert shapes["spread"] == pytest.approx(max(means) / min(means) - 1)
    assert f"within {shapes['spread']:.1%} of each other" in result["summaries"]["sizes"]
    assert result["summary"] == result["summaries"]["showdown"] + " " + result["summaries"]["sizes"]
    for family in result["sweep"]["sizes"]["families"]:
        assert f"{family['fit']['alpha']:.3f}" in result["summary"]


def test_the_right_panel_reads_the_largest_models_from_the_store_with_a_fit_per_family(sweep_results):
    assert sweep_results["left_untrained"] == []  # the context slide trains nothing: the showdown's models
    text = sweep_results["context"]["text"]
    panel = text["positions"]
    assert panel["context"] == TINY.context and panel["bins"] == position_bins(TINY.context)
    assert text["contexts"][-1] == TINY.context
    showdown = sweep_results["showdown"]["sweep"]["sizes"]["families"]
    for family, sizes in zip(panel["families"], showdown):
        assert family["kind"] == sizes["kind"] and family["non_embedding"] == sizes["points"][-1]["non_embedding"]
        assert len(family["curve"]) == TINY.context and len(family["bins"]) == len(panel["bins"])
        assert all(math.isfinite(family["fit"][key]) for key in "abc")
        assert family["stops_gaining"]["min"] in [first for first, _ in panel["bins"]]
        assert f"{family['fit']['a']:.2f} + {family['fit']['b']:.2f}·T^−{family['fit']['c']:.2f}" in \
            sweep_results["context"]["summary"]


def test_the_largest_transformer_predicts_each_character_from_the_ones_before_it_only(sweep_results):
    with using_store(sweep_results["store"]):
        lr = sweep_results["chosen"]["contenders"][f"transformer-{TINY.widths[-1]}"]["chosen"]["lr"]
        settings = scaling.model(TINY, "transformer", TINY.widths[-1], 0, lr=lr)  # the tiny sweep's, as it chose
        assert not untrained([settings])
        [(model, _)] = trained_models([settings], CPU, lambda *args: None)
    windows, _ = document_windows(load(), "test", TINY.context, most=8)
    assert reads_only_the_past(model, windows[:, :-1], model.cfg.vocab_size)


def test_a_sweep_whose_recipes_are_not_chosen_is_refused_with_the_command_that_chooses_them(monkeypatch, tmp_path):
    monkeypatch.setattr(scaling, "TUNED_DIR", tmp_path)
    with pytest.raises(ParamError, match="benchmarks.recipes generation-gpu-sweep"):
        validate(generation.PARAMS, {"scale": "gpu-sweep"})
    assert validate(generation.PARAMS, {"scale": "one"})["scale"] == "one"


SWEEPS_ON = {"cpu": "cpu-sweep", "gpu": "gpu-sweep"}  # each class's prepared sweep


@pytest.mark.parametrize("device, tier", [(CPU, "cpu"), (torch.device("cuda"), "gpu")])
def test_each_device_class_prepares_the_sweep_sized_for_it_and_both_slides_read_the_same_one(device, tier):
    showdown, context = full_params(generation, device), full_params(context_scaling, device)
    assert showdown["scale"] == context["text_scale"] and SWEEPS_ON[tier] == showdown["scale"]
    sweep = scaling.SWEEPS[showdown["scale"]]
    assert sweep.device_class == tier
    # its recipes are chosen and shipped: the prepared run validates on a fresh installation
    assert validate(generation.PARAMS, showdown)["scale"] == sweep.name
    assert validate(context_scaling.PARAMS, context)["text_scale"] == sweep.name
    chosen = tuning.tuned(sweep.recipe_file)
    assert chosen["budget"] == sweep.describe() and chosen["device"].startswith("cuda" if tier == "gpu" else "cpu")
    assert set(chosen["contenders"]) == {scaling.contender(kind, width) for kind in scaling.MODELS for width in sweep.widths}
    # at least three sizes spanning ten times the Transformer's non-embedding parameters (12·width² a layer)
    assert len(sweep.widths) >= 3 and (sweep.widths[-1] / sweep.widths[0]) ** 2 >= 10



def test_what_a_sweep_leaves_out_its_words_say_and_name_the_run_that_measures_it(sweep_results, monkeypatch):
    result = sweep_results["showdown"]
    words = generation.sweep_words({**result["sweep"], "shapes": None}, result["baselines"]["ngrams"])
    assert "within" not in words and "(Figure 5) is not in this run: the GPU prepared run measures it." in words
    assert "is not in this run" not in result["summaries"]["sizes"]  # the tiny sweep has its shapes
    panel = sweep_results["context"]["text"]["positions"]
    assert (f"A context of {TINY.context} is shorter than the 512 characters in which Kaplan et al.'s question is "
            f"asked here: the GPU prepared run asks it.") in context_scaling.position_words(panel)
    assert "shorter" not in context_scaling.position_words({**panel, "context": 512})
    monkeypatch.setitem(scaling.SWEEPS, "gpu-sweep", TINY)  # now no sweep of the deck reads 512 characters
    assert "no prepared run of this deck asks it" in context_scaling.position_words(panel)


def test_the_sweep_says_where_its_time_went(sweep_results):
    seconds = sweep_results["showdown"]["seconds"]
    assert set(seconds) == {"models", "continuations", "counting baselines", "training (when trained)",
                            "of which validation, summed", "first score at", "last score at", "test scoring"}
    assert all(value >= 0 for value in seconds.values())
    assert 0 < seconds["of which validation, summed"] and 0 < seconds["test scoring"] < seconds["models"]
    assert 0 < seconds["first score at"] < seconds["last score at"] <= seconds["training (when trained)"]
    assert "Where the time went (seconds): models" in generation.format_text(sweep_results["showdown"])
