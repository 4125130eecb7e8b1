"""Slides 2 to 5, the memory demos, on tiny settings: what they return, what must always hold
(accuracies in [0, 1], probabilities summing to 1, no test string among the training ones),
that the same seed repeats and another seed differs, and that progress streams whole results."""
import json
import math

import pytest
import torch

from demos import amnesia, classifier, index_lookup, recall_vs_length, signal_decay
from demos.classifier import fresh_examples, row_keys
from demos.runner import run_demo
from demos.tasks import EVAL, LETTERS, FirstLetter, IndexLookup, data_generator

TINY = {
    signal_decay: {"length": 20, "sequences": 4, "width": 8},
    amnesia: {"length": 5, "steps": 20, "width": 8},
    recall_vs_length: {"lengths": [5, 10], "steps": 10, "width": 8},
    index_lookup: {"lengths": [10, 20], "widths": [16, 32], "steps": 10},
}


def without_timings(value):
    """The result less its wall-clock times, which differ between two runs of the same thing."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in ("seconds", "train_seconds")}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def numbers_in(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from numbers_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from numbers_in(v)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


class Recorder:
    """A progress callback that keeps every report, and each partial result as it was when reported."""

    def __init__(self):
        self.reports = []

    def __call__(self, fraction, message, data=None):
        self.reports.append((fraction, message, data, json.dumps(data)))

    @property
    def data(self):
        return [(data, text) for _, _, data, text in self.reports if data is not None]


@pytest.fixture(scope="module")
def results():
    """Each demo's tiny run, made once for the tests that only read it."""
    return {demo: run_demo(demo, params) for demo, params in TINY.items()}


@pytest.mark.parametrize("demo", TINY, ids=lambda demo: demo.ID)
def test_a_tiny_run_is_json_safe_and_says_what_it_measured(demo, results):
    result = results[demo]
    json.dumps(result, allow_nan=False)  # raises on NaN or infinity
    assert all(math.isfinite(x) for x in numbers_in(result))
    assert result["device"] == "cpu" and result["params"]["seed"] == 0
    summary = result["summary"]
    assert len(summary) > 40 and any(ch.isdigit() for ch in summary)
    assert demo.format_text(result).strip()


@pytest.mark.parametrize("demo", TINY, ids=lambda demo: demo.ID)
def test_the_same_seed_repeats_and_another_seed_differs(demo, results):
    again = run_demo(demo, TINY[demo])
    other = run_demo(demo, {**TINY[demo], "seed": 1})
    assert without_timings(again) == without_timings(results[demo])
    assert without_timings({**other, "seed": 0, "params": again["params"]}) != without_timings(again)


@pytest.mark.parametrize("demo", TINY, ids=lambda demo: demo.ID)
def test_progress_reports_whole_partial_results_that_are_never_changed_afterwards(demo):
    progress = Recorder()
    result = run_demo(demo, TINY[demo], progress)
    fractions = [report[0] for report in progress.reports]
    assert fractions == sorted(fractions) and 0 <= fractions[0] and fractions[-1] == 1
    snapshots = progress.data
    assert snapshots, "no partial result to draw while training"
    assert all(json.dumps(data) == text for data, text in snapshots), "a partial result was changed after it was sent"
    # The last snapshot is the whole result's chart data, not just its newest piece.
    key = {"signal_decay": "models", "amnesia": "models", "recall_vs_length": "points", "index_lookup": "cells"}[demo.ID]
    assert len(snapshots[-1][0][key]) == len(result[key])


# ----------------------------------------------------------------------------- slide 2


def test_signal_decay_measures_every_position_of_similar_sized_models(results):
    result = results[signal_decay]
    n = result["length"]
    assert result["distances"] == list(range(1, n + 1))
    models = result["models"]
    assert set(models) == {"rnn", "lstm", "transformer"}
    for model in models.values():
        assert len(model["gradient"]) == n
        assert all(value > 0 for value in model["gradient"])  # a log axis can show every one
    sizes = [model["parameters"] for model in models.values()]
    assert max(sizes) / min(sizes) < 1.25, sizes
    assert models["rnn"]["sequential_steps"] == models["lstm"]["sequential_steps"] == n
    assert models["transformer"]["sequential_steps"] == 1
    assert "at initialisation" in result["summary"]
    # An untrained tanh RNN's gradient fades along the string: the first letter gets less than the last.
    assert models["rnn"]["gradient"][-1] < models["rnn"]["gradient"][0]


def test_signal_decay_can_train_briefly_first_and_says_so():
    result = run_demo(signal_decay, {**TINY[signal_decay], "train_steps": 3})
    assert "Measured after 3 training steps" in result["summary"]
    assert without_timings(result["models"]) != without_timings(run_demo(signal_decay, TINY[signal_decay])["models"])


# ----------------------------------------------------------------------------- slide 3


def test_amnesia_answers_an_unseen_string_with_probabilities(results):
    result = results[amnesia]
    assert len(result["test_string"]) == 5 and set(result["test_string"]) <= set(LETTERS)
    assert result["target"] == result["test_string"][0]
    assert result["chance"] == pytest.approx(1 / 26)
    for model in result["models"].values():
        assert 0 <= model["accuracy"] <= 1
        assert sum(model["probabilities"]) == pytest.approx(1, abs=1e-5)
        assert len(model["probabilities"]) == 26
        top = [t["probability"] for t in model["top"]]
        assert len(top) == 3 and top == sorted(top, reverse=True)
        assert model["prediction"] == model["top"][0]["answer"]
        assert result["answers"][max(range(26), key=model["probabilities"].__getitem__)] == model["prediction"]
        assert model["loss_curve"][-1][0] == 20 and model["parameters"] > 0
    assert result["budget"] == {"optimizer": "Adam", "lr": 3e-3, "batch_size": 64, "steps": 20}
    text = amnesia.format_text(result)
    assert f"Unseen test string: '{' '.join(result['test_string'])}'" in text
    assert f"Target answer:      '{result['target']}'" in text


def test_the_amnesia_test_string_was_never_a_training_string(monkeypatch):
    """Record every batch the shared training loop is given, and look for the test string in them."""
    trained_on = []
    real_train = classifier.train

    def recording_train(model, get_batch, loss_fn, cfg, on_step=None):
        def recorded(step):
            batch = get_batch(step)
            trained_on.extend("".join(LETTERS[t] for t in row[:-1]) for row in batch[0].tolist())
            return batch
        return real_train(model, recorded, loss_fn, cfg, on_step)

    monkeypatch.setattr(classifier, "train", recording_train)
    result = run_demo(amnesia, {"length": 5, "steps": 50, "width": 8})
    assert len(trained_on) == 2 * 50 * 64  # both models, every step, the whole batch
    assert result["test_string"] not in set(trained_on)


def test_test_examples_leave_out_every_training_input():
    task = FirstLetter(2)  # only 676 strings: a test draw repeats training ones for sure
    drawn, _ = task.sample(400, data_generator(7, EVAL))
    seen = set(row_keys(drawn))
    inputs, targets = fresh_examples(task, 100, 7, seen)
    assert len(inputs) == 100 and not seen & set(row_keys(inputs))
    assert torch.equal(targets, inputs[:, 0])


def test_a_task_with_too_few_unseen_inputs_is_refused_not_looped_on():
    task = FirstLetter(1)
    everything = set(row_keys(torch.cat([torch.arange(26).unsqueeze(1), torch.full((26, 1), task.query)], dim=1)))
    with pytest.raises(ValueError, match="too few distinct inputs"):
        fresh_examples(task, 10, 0, everything)


# ----------------------------------------------------------------------------- slide 4


def test_recall_vs_length_scores_every_model_at_every_length(results):
    result = results[recall_vs_length]
    assert result["lengths"] == [5, 10]
    assert {(p["model"], p["length"]) for p in result["points"]} == {
        (model, n) for model in ("lstm-tuned", "lstm", "transformer") for n in (5, 10)}
    assert all(0 <= p["accuracy"] <= 1 for p in result["points"])
    assert result["budget"]["forget_bias"] == 1.0 and result["budget"]["tuned_lr"] == 1e-2
    assert "after 10 steps each" in result["summary"]


def test_the_tuned_lstm_differs_from_the_default_one_only_by_its_recipe(monkeypatch):
    configs = []
    real = classifier.train_and_score

    def spy(cfg, task, train_cfg, *args, **kwargs):
        configs.append((cfg, train_cfg))
        return real(cfg, task, train_cfg, *args, **kwargs)

    monkeypatch.setattr(recall_vs_length, "train_and_score", spy)
    run_demo(recall_vs_length, {"lengths": [5], "steps": 10, "width": 8, "forget_bias": 2.5, "tuned_lr": 0.02})
    (tuned, tuned_train), (plain, plain_train), _ = configs
    assert tuned.forget_bias == 2.5 and plain.forget_bias is None and tuned.kind == plain.kind == "lstm"
    assert tuned_train.lr == 0.02 and plain_train.lr == 3e-3 and tuned_train.steps == plain_train.steps == 10


# ----------------------------------------------------------------------------- slide 5


def test_index_lookup_fills_the_whole_grid(results):
    result = results[index_lookup]
    lstm = {(c["length"], c["width"]) for c in result["cells"] if c["model"] == "lstm-tuned"}
    attention = {(c["length"], c["width"]) for c in result["cells"] if c["model"] == "transformer"}
    assert lstm == {(n, w) for n in (10, 20) for w in (16, 32)}
    assert attention == {(10, 64), (20, 64)}
    assert all(0 <= c["accuracy"] <= 1 for c in result["cells"])
    assert result["chance"] == pytest.approx(1 / 10)


def test_index_lookup_asks_for_the_token_at_the_named_position():
    task = IndexLookup(12)
    inputs, targets = task.sample(200, torch.Generator().manual_seed(0))
    positions = inputs[:, -1] - task.symbols
    assert inputs.shape == (200, 13) and bool(((positions >= 0) & (positions < 12)).all())
    assert torch.equal(targets, inputs[torch.arange(200), positions])
