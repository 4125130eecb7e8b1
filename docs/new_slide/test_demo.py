"""Majority vote: the task's answers, both models trained on it with each seed and scored on the same
strings, progress that draws the curves as they grow, and a headline that names a model only where it
was ahead with every seed (what every demo promises besides, on its TINY settings, is checked for it by
tests/demos/test_contract.py)."""
import pytest
import torch

from demos import new_demo
from demos.core.tasks import TRAIN, data_generator
from demos.runtime.runner import run_demo
from demos.shared.seeds import over_seeds
from tests.demos.tiny import tiny_result


def test_the_answer_is_whether_the_bits_hold_more_ones_than_zeros():
    bits, answers = new_demo.Majority(7, data_generator(0, TRAIN)).sample(200)
    assert bits.shape == (200, 7) and set(bits.unique().tolist()) <= {0, 1}
    assert answers.tolist() == [int(row.count(1) > row.count(0)) for row in bits.tolist()]
    steps, batch = new_demo.Majority(7, data_generator(0, TRAIN)).draw(3)
    assert steps.shape == (3, new_demo.BATCH_SIZE, 7) and batch.shape == (3, new_demo.BATCH_SIZE)


def test_both_models_train_with_every_seed_and_are_scored_against_the_commoner_answer():
    result, _ = tiny_result(new_demo.ID)
    assert list(result["models"]) == list(new_demo.MODELS) and len(result["seeds"]) == new_demo.TINY["seeds"]
    for model in result["models"].values():
        accuracy = model["accuracy"]
        assert len(accuracy["by_seed"]) == len(model["loss_curves"]) == len(result["seeds"])
        assert 0 <= accuracy["min"] <= accuracy["mean"] <= accuracy["max"] <= 1 and model["parameters"] > 0
        assert all(curve[-1][0] == result["steps"] for curve in model["loss_curves"]), "each curve ends at the last step"
    assert 0.5 <= result["baseline"] <= 1


def test_the_progress_draws_each_models_curves_as_they_grow():
    _, progress = tiny_result(new_demo.ID)
    sent = [data for data, _ in progress.data]
    assert sent and all(data["steps"] == new_demo.TINY["steps"] for data in sent)
    assert sent[0]["curves"]["transformer"] == [], "one model after the other"
    last = sent[-1]["curves"]
    assert all(len(last[name]) == new_demo.TINY["seeds"] for name in new_demo.MODELS), "the last report holds every curve"


def test_trained_longer_both_models_beat_the_commoner_answer_and_the_loss_falls():
    result = run_demo(new_demo, {**new_demo.TINY, "steps": 150}, device=torch.device("cpu"))
    for model in result["models"].values():
        assert model["accuracy"]["min"] > result["baseline"] + 0.1, model["accuracy"]
        assert all(curve[-1][1] < curve[0][1] for curve in model["loss_curves"]), "the loss fell"


@pytest.mark.parametrize("lstm, transformer, winner", [
    ([0.9, 0.95], [0.6, 0.7], "lstm"), ([0.6, 0.7], [0.9, 0.95], "transformer"), ([0.8, 0.9], [0.85, 0.95], "tie")])
def test_the_headline_names_a_model_only_where_it_was_ahead_with_every_seed(lstm, transformer, winner):
    result, _ = tiny_result(new_demo.ID)
    result["models"]["lstm"]["accuracy"], result["models"]["transformer"]["accuracy"] = over_seeds(lstm), over_seeds(transformer)
    row = new_demo.headline(result)
    assert row["winner"] == winner and row["contest"] is True
    assert f"LSTM {sum(lstm) / 2:.0%}" in row["detail"] and f"Transformer {sum(transformer) / 2:.0%}" in row["detail"]
