"""Context scaling on tiny settings: the showdown's models read test windows inside documents; one
loss per position for each model over seeds, fits that flag an exponent at the edge, paired
differences with standard errors over documents, and a verdict from the late loss and gain together."""
import math

import pytest
import torch

from demos import context_scaling, line_fit
from demos.core.fitting import fit_offset_power_law, fit_power_law
from demos.runtime.runner import effective_params, run_demo
from demos.runtime.storage import ModelStore
from tests.demos.tiny import TINY as TINY_ALL

TINY = TINY_ALL["context_scaling"]
CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def result():
    return run_demo(context_scaling, TINY, device=CPU, store=ModelStore())


def test_each_model_has_one_loss_per_position_and_a_fit(result):
    assert [m["kind"] for m in result["models"]] == ["transformer", "lstm"]
    for model in result["models"]:
        assert len(model["per_token_bits"]) == result["context"] == 128
        assert len(model["per_token_bits_by_seed"]) == len(result["seeds"])
        assert model["bits"]["mean"] == pytest.approx(sum(model["per_token_bits"]) / 128, abs=1e-3)
        assert all(math.isfinite(v) for v in model["fit"].values() if not isinstance(v, bool))
    assert result["data"]["test_documents"] > 100


def test_the_comparison_is_paired_over_documents(result):
    for name in ("early", "late", "late_gain"):
        difference = result["comparison"][name]
        assert difference["documents"] == result["data"]["test_documents"] and difference["standard_error"] > 0
    # per document first, then over the documents: a document with many windows counts once
    values, documents = torch.tensor([1.0, 3.0, 10.0]), torch.tensor([0, 0, 1])
    assert context_scaling.per_document(values, documents).tolist() == [2.0, 10.0]
    paired = context_scaling.paired(torch.tensor([3.0, 5.0]), torch.tensor([1.0, 1.0]))
    assert paired["lstm_minus_transformer"] == 3.0 and paired["standard_error"] == pytest.approx(1.0)


def test_a_winner_needs_more_than_two_standard_errors_and_both_measures():
    def d(gap, error=0.01):
        return {"lstm_minus_transformer": gap, "standard_error": error}
    assert context_scaling.ahead(d(0.05)) == "transformer" and context_scaling.ahead(d(0.01)) == "tie"
    assert context_scaling.verdict({"late": d(0.1), "late_gain": d(0.0)}) == "transformer"
    assert context_scaling.verdict({"late": d(0.1), "late_gain": d(0.1)}) == "tie"  # lower, but gained less
    assert context_scaling.verdict({"late": d(0.0), "late_gain": d(-0.2)}) == "tie"  # level at the end


def test_an_exponent_at_the_edge_of_the_range_is_flagged():
    positions = range(1, 129)
    assert context_scaling.fit_curve([2.0 + 3.0 * t ** -0.5 for t in positions])["at_edge"] is False
    assert context_scaling.fit_curve([3.0 + (1.0 if t == 1 else 0.0) for t in positions])["at_edge"] is True


def test_the_fits_recover_known_curves():
    positions = list(range(1, 257))
    fit = fit_offset_power_law(positions, [2.0 + 3.0 * t ** -0.5 for t in positions])
    assert fit["a"] == pytest.approx(2.0, abs=0.02) and fit["c"] == pytest.approx(0.5, abs=0.02)
    sizes = [1e4, 3e4, 1e5, 3e5]
    assert fit_power_law(sizes, [(8.8e13 / n) ** 0.076 for n in sizes])["alpha"] == pytest.approx(0.076, abs=1e-6)


def test_the_summary_and_headline_say_what_was_measured(result):
    assert f"{result['data']['test_windows']:,} windows of test text" in result["summary"]
    row = context_scaling.headline(result)
    assert row["winner"] in ("transformer", "lstm", "neither") or row["winner"] == "tie"
    assert "late loss" in row["detail"]


def test_the_longer_run_adds_the_size_sweep():
    assert effective_params(context_scaling, context_scaling.FULL_PARAMS)["sweep"] is True
    swept = run_demo(context_scaling, {**TINY, "sweep": True}, device=CPU, store=ModelStore())
    points = swept["sweep"]["points"]
    assert len(points) == 2 * len(context_scaling.SWEEP_WIDTHS)
    assert set(swept["sweep"]["fits"]) == {"transformer", "lstm"}


def test_warm_full_also_computes_each_demos_full_variant(app, only_fast_demos, monkeypatch):
    monkeypatch.setattr(line_fit, "FULL_PARAMS", {"steps": 7}, raising=False)
    outcome = app.test_cli_runner().invoke(args=["warm", "--full", "line_fit", "system_check"])
    assert outcome.exit_code == 0, outcome.output
    assert "line_fit (full)" in outcome.output and "system_check (full)" not in outcome.output
    engine = app.extensions["engine"]
    assert engine.cached("line_fit") is not None and engine.cached("line_fit", {"steps": 7}) is not None
