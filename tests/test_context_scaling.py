"""Slide 11, using the whole context, on tiny settings: one finite loss per position for each
model, fits with finite constants that recover known curves, documents whose names behave as
described, the size sweep streamed point by point, and `flask warm --full` computing it."""
import json
import math

import pytest
import torch

from demos import context_scaling, line_fit
from demos.context_documents import COMMON, documents, sentences
from demos.corpus import SENTENCE_ENDS, load
from demos.power_law import fit_offset_power_law, fit_power_law
from demos.runner import effective_params, run_demo
from demos.storage import ModelStore
from tests.test_api import run_to_completion
from tests.test_memory_demos import Recorder, numbers_in, without_timings

TINY = {"steps": 10, "context": 16, "width": 16}


@pytest.fixture(scope="module")
def result():
    return run_demo(context_scaling, TINY)


def test_each_model_has_one_finite_loss_per_position_and_a_finite_fit(result):
    json.dumps(result, allow_nan=False)
    assert all(math.isfinite(x) for x in numbers_in(result))
    assert [m["kind"] for m in result["models"]] == ["transformer", "lstm"]
    for model in result["models"]:
        assert len(model["per_token_loss"]) == TINY["context"]
        assert all(0 < loss < 20 for loss in model["per_token_loss"])
        assert set(model["fit"]) == {"a", "b", "c", "rmse"} and all(math.isfinite(v) for v in model["fit"].values())
        assert model["loss"] == pytest.approx(sum(model["per_token_loss"]) / TINY["context"], abs=1e-3)
    assert result["device"] == "cpu" and result["sweep"] is None
    assert result["winner"] in ("transformer", "lstm", "tie")


def test_the_two_models_have_about_the_same_non_embedding_size():
    for width in (16, 32, 64):
        transformer = context_scaling.Contender("transformer", 2, width)
        for layers in (1, 2):
            lstm = context_scaling.matching_lstm(transformer, layers, 256)
            sizes = [context_scaling.non_embedding_parameters(context_scaling.config(c, 256))
                     for c in (transformer, lstm)]
            assert abs(sizes[1] - sizes[0]) / sizes[0] < 0.05, (width, layers, sizes)


def test_the_summary_and_the_terminal_say_what_was_measured(result):
    transformer, lstm = result["models"]
    summary = result["summary"]
    assert f"{transformer['early_loss']:.2f}" in summary and f"{lstm['early_loss']:.2f}" in summary
    gain = transformer["mid_loss"] - transformer["late_loss"]
    if abs(gain) >= 0.005:
        assert f"Transformer's loss {'fell' if gain > 0 else 'rose'} {abs(gain):.2f}" in summary
    text = context_scaling.format_text(result)
    assert f"{transformer['per_token_loss'][0]:.3f}" in text and summary in text


def test_the_headline_names_the_model_whose_loss_kept_falling(result):
    row = context_scaling.headline(result)
    assert row["test"] == "Using the whole context" and row["winner"] == result["winner"]
    gains = {m["kind"]: m["mid_loss"] - m["late_loss"] for m in result["models"]}
    assert f"Transformer {gains['transformer']:.2f}" in row["detail"] and f"LSTM {gains['lstm']:.2f}" in row["detail"]


def test_a_winner_needs_more_than_two_standard_errors():
    ahead = context_scaling.ahead
    assert ahead({"lstm_minus_transformer": 0.3, "standard_error": 0.1}) == "transformer"
    assert ahead({"lstm_minus_transformer": -0.3, "standard_error": 0.1}) == "lstm"
    assert ahead({"lstm_minus_transformer": 0.15, "standard_error": 0.1}) == "tie"
    assert ahead({"lstm_minus_transformer": 0.3, "standard_error": 0.1}, lower_is_better=False) == "lstm"


def test_the_same_seed_repeats_and_another_seed_differs(result):
    assert without_timings(run_demo(context_scaling, TINY)) == without_timings(result)
    other = run_demo(context_scaling, {**TINY, "seed": 1})
    assert other["models"][0]["per_token_loss"] != result["models"][0]["per_token_loss"]


def test_models_read_back_from_disk_give_the_same_numbers(tmp_path, result):
    """A second server process loads the trained models from the cache folder instead of training."""
    trained = run_demo(context_scaling, TINY, store=ModelStore(tmp_path))
    loaded = run_demo(context_scaling, TINY, store=ModelStore(tmp_path))
    assert len(list((tmp_path / "models").glob("*.pt"))) == 2
    assert without_timings(loaded) == without_timings(trained) == without_timings(result)


def test_the_fits_recover_known_curves():
    positions = list(range(1, 257))
    fit = fit_offset_power_law(positions, [2.0 + 3.0 * t ** -0.5 for t in positions])
    assert fit["a"] == pytest.approx(2.0, abs=0.02) and fit["b"] == pytest.approx(3.0, abs=0.05)
    assert fit["c"] == pytest.approx(0.5, abs=0.02) and fit["rmse"] < 0.01
    flat = fit_offset_power_law(positions, [4.0] * 256)
    assert all(math.isfinite(v) for v in flat.values()) and flat["rmse"] < 1e-9
    sizes = [1e4, 3e4, 1e5, 3e5]
    law = fit_power_law(sizes, [(8.8e13 / n) ** 0.076 for n in sizes])
    assert law["alpha"] == pytest.approx(0.076, abs=1e-6)


def test_names_are_the_uncommon_words_and_recur_within_a_document():
    docs = documents("train", 8, 128, torch.Generator().manual_seed(0))
    assert docs.tokens.shape == (8, 129)
    assert bool((docs.tokens[docs.is_name] > COMMON).all()) and bool((docs.tokens[~docs.is_name] <= COMMON).all())
    for tokens, is_name, seen in zip(docs.tokens.tolist(), docs.is_name.tolist(), docs.name_seen.tolist()):
        names = [t for t, name in zip(tokens, is_name) if name]
        assert len(set(names)) <= 64, "a cast of at most MOST_NAMES names"
        for i, (token, name) in enumerate(zip(tokens, is_name)):
            assert seen[i] == (name and token in {t for t, n in zip(tokens[:i], is_name[:i]) if n})


def test_held_out_documents_are_made_of_held_out_sentences_only():
    """Each whole sentence inside a held-out document (names masked) is a held-out sentence."""
    ends = {load().tokenizer.ids[mark] for mark in SENTENCE_ENDS if mark in load().tokenizer.ids}

    def skeleton(tokens):
        return tuple(t if t <= COMMON else -1 for t in tokens)

    held_out = {skeleton(s) for s in sentences("held_out")}
    docs = documents("held_out", 16, 256, torch.Generator().manual_seed(0))
    checked = 0
    for tokens in docs.tokens.tolist():
        cuts = [i + 1 for i, t in enumerate(tokens) if t in ends]
        for start, stop in zip(cuts, cuts[1:]):  # the whole sentences between the partial first and last
            assert skeleton(tokens[start:stop]) in held_out
            checked += 1
    assert checked > 100


def test_the_sweep_streams_each_point_as_it_lands():
    recorder = Recorder()
    result = run_demo(context_scaling, {**TINY, "sweep": True}, recorder)
    sweep = result["sweep"]
    assert len(sweep["points"]) == 3 * len(context_scaling.SWEEP_WIDTHS)
    assert {p["family"] for p in sweep["points"]} == {"transformer", "lstm-1", "lstm-2"}
    assert set(sweep["fits"]) == {"transformer", "lstm-1", "lstm-2"}
    assert all(math.isfinite(fit["alpha"]) for fit in sweep["fits"].values())
    assert sweep["paper_alpha"] == 0.076 and result["sweep_models"] == len(sweep["points"])
    assert f"{sweep['fits']['transformer']['alpha']:.3f}" in result["summary"]
    counts = [len(data["sweep"]["points"]) for data, _ in recorder.data]
    assert counts == list(range(1, len(sweep["points"]) + 1)), "one report per point, each with all so far"
    for data, text in recorder.data:
        assert json.dumps(data) == text, "a reported partial result is never changed afterwards"
    # the main pair is part of the sweep, trained once
    main = {(m["kind"], m["non_embedding_parameters"]) for m in result["models"]}
    assert main <= {(p["family"].split("-")[0], p["non_embedding_parameters"]) for p in sweep["points"]}


def test_the_full_variant_is_the_sweep():
    assert effective_params(context_scaling, context_scaling.FULL_PARAMS)["sweep"] is True


def test_warm_full_also_computes_each_demos_full_variant(app, only_fast_demos, monkeypatch):
    monkeypatch.setattr(line_fit, "FULL_PARAMS", {"steps": 7}, raising=False)
    outcome = app.test_cli_runner().invoke(args=["warm", "--full", "line_fit", "system_check"])
    assert outcome.exit_code == 0, outcome.output
    assert "line_fit (full)" in outcome.output and "system_check (full)" not in outcome.output
    engine = app.extensions["engine"]
    assert engine.cached("line_fit") is not None and engine.cached("line_fit", {"steps": 7}) is not None
    plain = app.test_cli_runner().invoke(args=["warm", "line_fit"])
    assert "(full)" not in plain.output


def test_the_slide_finds_a_cached_sweep_by_looking_it_up(client):
    """What the renderer does: POST the result's params with sweep true to the lookup URL."""
    params = {**TINY, "sweep": True}
    assert client.post("/api/demos/context_scaling/lookup", json=params).get_json() == {"status": "missing"}
    _, final = run_to_completion(client, "context_scaling", params)
    assert final["status"] == "done"
    shown = final["result"]["params"]
    found = client.post("/api/demos/context_scaling/lookup", json={**shown, "sweep": True}).get_json()
    assert found["status"] == "done" and len(found["result"]["sweep"]["points"]) == 12
    plain = client.post("/api/demos/context_scaling/lookup", json={**shown, "sweep": False}).get_json()
    assert plain == {"status": "missing"}
