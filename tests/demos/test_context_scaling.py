"""Context scaling on tiny settings: the copy test's loss at every position for both families, over
seeds, split where the repeat starts; the learning rates are the ones chosen on validation sequences,
and choosing them never reads the test sequences; the natural-text curve scores the same characters
at every context length; the verdict (recap and poll) follows the loss on the repeats alone. The
Transformer learns to copy: below chance on the repeats, at chance on the first stretch (a causal
model cannot predict random symbols it has not read yet), and the showdown's text models beat chance."""
import math

import pytest
import torch

from demos import context_scaling
from tests import line_fit
from demos.core.tasks import EVAL
from demos.runtime.budgets import full_params
from demos.runtime.runner import effective_params, run_demo
from demos.runtime.storage import ModelStore
from demos.shared.seeds import spread_text
from demos.shared.tuning import LR_GRID, chosen
from tests.demos.tiny import TINY as TINY_ALL

# Ten times the contract's copy-test steps: the Transformer's loss on the repeats falls from chance
# (5 bits) between steps 130 and 190 (seeds 0-9); at 200, seeds 0-7 scored 0.06-0.26 bits per repeated
# symbol, seeds 8-9 0.34 and 0.62. The LSTM stays at chance (5.00), and so does every model on the
# first stretch (5.00-5.02).
TINY = {**TINY_ALL["context_scaling"], "steps": 200}
COPIED = 2.5  # bits per repeated symbol: every seed's Transformer below this, half of chance
GUESSING = 0.1  # bits: on the first stretch every model stays within this of chance, or above it
TEXT_LEARNED = 1.0  # bits per character: the text models at their whole context at least this far below chance
CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def result():
    return run_demo(context_scaling, TINY, device=CPU, store=ModelStore())


def test_each_family_has_one_loss_per_position_split_where_the_repeat_starts(result):
    copy = result["copy"]
    assert copy["variant"] == "fixed" and copy["length"] == 128 and copy["chance"] == pytest.approx(5.0)
    assert copy["repeat_starts"] == [65, 65]
    assert copy["predictable_share"] == [0.0] * 64 + [1.0] * 64
    assert [m["kind"] for m in copy["models"]] == ["transformer", "lstm"]
    for model in copy["models"]:
        curve = model["per_position_bits"]
        assert len(curve) == 128 and len(model["per_position_bits_by_seed"]) == len(result["seeds"])
        assert model["first_bits"]["mean"] == pytest.approx(sum(curve[:64]) / 64, abs=1e-3)
        assert model["repeat_bits"]["mean"] == pytest.approx(sum(curve[64:]) / 64, abs=1e-3)
        assert all(math.isfinite(v) and v >= 0 for v in curve)
    transformer, lstm = copy["models"]
    assert abs(transformer["parameters"] - lstm["parameters"]) / transformer["parameters"] < 0.02  # matched in size


def test_the_transformer_copies_the_repeat_and_nobody_predicts_the_first_stretch(result):
    copy = result["copy"]
    transformer, lstm = copy["models"]
    assert transformer["repeat_bits"]["max"] < COPIED, transformer["repeat_bits"]
    for model in copy["models"]:  # random symbols not read yet: a model that beats chance here reads the future
        assert model["first_bits"]["min"] > copy["chance"] - GUESSING, (model["kind"], model["first_bits"])
    # The slide's title at this budget: only the Transformer copies from 64 back, so the poll's answer is it.
    assert lstm["repeat_bits"]["min"] > copy["chance"] - GUESSING, lstm["repeat_bits"]
    assert result["winner"] == context_scaling.headline(result)["winner"] == "transformer"


def test_the_rates_are_those_chosen_on_validation_and_the_result_says_how(result):
    for model in result["copy"]["models"]:
        assert model["lr"] == chosen("context_scaling", model["kind"])["lr"]
    recipes = result["recipes"]
    assert set(recipes["recipes"]) == {"transformer", "lstm"} and "validation" in recipes["measure"]
    assert recipes["script"] == "python -m benchmarks.recipes context_scaling"


def test_choosing_a_rate_never_reads_the_test_sequences(monkeypatch):
    drawn = []
    real = context_scaling.data_generator

    def watched(seed, stream, device="cpu"):
        drawn.append(stream)
        assert stream != EVAL, "the recipe was scored on the test stream"
        return real(seed, stream, device)

    monkeypatch.setattr(context_scaling, "data_generator", watched)
    monkeypatch.setattr(context_scaling, "STEPS", 3)
    study = context_scaling.tuning()
    score = study.score("lstm", {"lr": 1e-3}, 0, CPU)
    assert drawn and 4.0 < score < 6.0  # trained on the training stream, scored on validation: near chance
    assert set(study.candidates) == {"transformer", "lstm"} and len(study.candidates["lstm"]) == len(LR_GRID)


def test_natural_text_scores_the_same_characters_at_every_context_length(result):
    text = result["text"]
    assert text["contexts"][0] == 1 and text["contexts"][-1] == text["context"]
    assert text["targets"] > 500 and text["chance"] == pytest.approx(math.log2(96), abs=0.5)
    for model in text["models"]:
        assert len(model["bits"]) == len(text["contexts"])
        assert model["stops_gaining"] in text["contexts"]
        assert model["bits"][-1]["max"] < text["chance"] - TEXT_LEARNED, (model["kind"], model["bits"][-1])


def test_a_family_stops_gaining_where_no_longer_context_helps_by_more_than_two_standard_errors():
    # Seeded: on a plateau two levels differ by noise alone, and the rule takes that for a gain about one
    # time in 44 (two standard errors, one-sided); unseeded, this test failed that often (seed 0 is one).
    generator = torch.Generator().manual_seed(1)
    noise = torch.randn(400, generator=generator) * 0.5  # each target character's own difficulty, at every context
    def curve(*levels):  # contexts 1, 2, 4, 8
        return torch.stack([level + noise + 0.01 * torch.randn(400, generator=generator) for level in levels])
    assert context_scaling.stops_gaining([1, 2, 4, 8], curve(3.0, 2.0, 1.5, 1.5)) == 4
    assert context_scaling.stops_gaining([1, 2, 4, 8], curve(3.0, 2.0, 1.5, 1.0)) == 8  # still falling
    assert context_scaling.stops_gaining([1, 2, 4, 8], curve(3.0, 2.0, 1.5, 1.7)) == 4  # worse with more: stopped


def test_the_verdict_needs_every_seed_lower_on_the_repeats():
    def stats(*values):
        return {"min": min(values), "max": max(values)}

    def copy(transformer, lstm):
        return {"models": [{"repeat_bits": transformer}, {"repeat_bits": lstm}]}

    assert context_scaling.verdict(copy(stats(0.0, 0.1), stats(4.9, 5.0))) == "transformer"
    assert context_scaling.verdict(copy(stats(4.9, 5.0), stats(0.0, 0.1))) == "lstm"
    assert context_scaling.verdict(copy(stats(0.0, 4.95), stats(4.9, 5.0))) == "tie"  # one seed never learned


def test_the_summary_and_headline_say_what_was_measured(result):
    summary = result["summary"]
    assert "Copy test, fixed distance, 64 back (seed 0, chance 5.00 bits): on the repeats the Transformer" in summary
    assert "Rates chosen on validation: Transformer" in summary and "Text, context cut to T" in summary
    row = context_scaling.headline(result)
    assert row["winner"] == result["winner"] == context_scaling.verdict(result["copy"])
    transformer, lstm = (m["repeat_bits"] for m in result["copy"]["models"])
    assert row["detail"] == (f"bits per repeated symbol: Transformer {spread_text(transformer, '.2f')}, "
                             f"LSTM {spread_text(lstm, '.2f')}, chance 5.00")
    assert "Transformer" in context_scaling.format_text(result)


def test_the_longer_run_measures_the_varying_distance():
    assert effective_params(context_scaling, full_params(context_scaling, "cpu"))["variant"] == "varying"
    assert full_params(context_scaling, "cuda")["variant"] == "varying", "on a GPU too"
    # The copy test alone (the natural-text half is the fixed run's): where each sequence's repeat starts.
    copy = context_scaling.copy_test({"variant": "varying", "steps": 1}, [0], CPU, lambda *args: None)
    assert copy["variant"] == "varying" and copy["repeat_starts"] == [33, 65]
    assert copy["predictable_share"][:32] == [0.0] * 32 and copy["predictable_share"][64:] == [1.0] * 64
    assert 0 < copy["predictable_share"][48] < 1  # some sequences repeat from here, others not yet


def test_warm_full_also_computes_each_demos_full_variant(app, only_fast_demos, monkeypatch):
    # The prepared run of this server's class (a CPU here), not another class's.
    monkeypatch.setattr(line_fit, "BUDGETS", {"cpu": {"full": {"steps": 7}}, "gpu": {"full": {"steps": 9}}}, raising=False)
    outcome = app.test_cli_runner().invoke(args=["warm", "--full", "line_fit", "system_check"])
    assert outcome.exit_code == 0, outcome.output
    assert "line_fit (full)" in outcome.output and "system_check (full)" not in outcome.output
    engine = app.extensions["engine"]
    assert engine.cached("line_fit") is not None and engine.cached("line_fit", {"steps": 7}) is not None
    assert engine.cached("line_fit", {"steps": 9}) is None, "the GPU's prepared run is not a CPU's"
