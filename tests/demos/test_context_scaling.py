"""Context scaling on tiny settings: the copy test's loss at every position for both families, over
seeds, split where the repeat starts; the learning rates are the ones chosen on validation sequences,
and choosing them never reads the test sequences; the natural-text curve scores the same characters
at every context length; the verdict (recap and poll) follows the loss on the repeats alone."""
import math

import pytest
import torch

from demos import context_scaling
from tests import line_fit
from demos.core.tasks import EVAL
from demos.runtime.budgets import full_params
from demos.runtime.runner import effective_params, run_demo
from demos.runtime.storage import ModelStore
from demos.shared.tuning import chosen
from tests.demos.tiny import TINY as TINY_ALL

TINY = TINY_ALL["context_scaling"]
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
    assert set(study.candidates) == {"transformer", "lstm"} and len(study.candidates["lstm"]) == 5


def test_natural_text_scores_the_same_characters_at_every_context_length(result):
    text = result["text"]
    assert text["contexts"][0] == 1 and text["contexts"][-1] == text["context"]
    assert text["targets"] > 500 and text["chance"] == pytest.approx(math.log2(96), abs=0.5)
    for model in text["models"]:
        assert len(model["bits"]) == len(text["contexts"])
        assert model["stops_gaining"] in text["contexts"]


def test_a_family_stops_gaining_where_no_longer_context_helps_by_more_than_two_standard_errors():
    noise = torch.randn(400) * 0.5  # each target character's own difficulty, the same at every context
    def curve(*levels):  # contexts 1, 2, 4, 8
        return torch.stack([level + noise + 0.01 * torch.randn(400) for level in levels])
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
    assert row["winner"] in ("transformer", "lstm", "tie") and row["winner"] == result["winner"]
    assert "bits per repeated symbol" in row["detail"]
    assert "Transformer" in context_scaling.format_text(result)


def test_the_longer_run_measures_the_varying_distance():
    assert effective_params(context_scaling, full_params(context_scaling, "cpu"))["variant"] == "varying"
    assert full_params(context_scaling, "cuda")["variant"] == "varying", "on a GPU too"
    varied = run_demo(context_scaling, {**TINY, "variant": "varying"}, device=CPU, store=ModelStore())
    copy = varied["copy"]
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
