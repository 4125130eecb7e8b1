"""Majority vote: the task's answers, both models trained on it and scored on the same strings, progress
that draws the curves as they grow, and a headline that names the model ahead (what every demo promises
besides, on its TINY settings, is checked for it by tests/demos/test_contract.py)."""
import pytest
import torch

from demos import new_demo
from demos.core.tasks import data_generator
from demos.runtime.runner import run_demo
from tests.demos.tiny import tiny_result


def test_the_answer_is_whether_the_bits_hold_more_ones_than_zeros():
    bits, answers = new_demo.Majority(7, data_generator(0, 0)).sample(200)
    assert bits.shape == (200, 7) and set(bits.unique().tolist()) <= {0, 1}
    assert answers.tolist() == [int(row.count(1) > row.count(0)) for row in bits.tolist()]
    steps, batch = new_demo.Majority(7, data_generator(0, 0)).draw(3)
    assert steps.shape == (3, new_demo.BATCH_SIZE, 7) and batch.shape == (3, new_demo.BATCH_SIZE)


def test_both_models_train_and_are_scored_against_the_commoner_answer():
    result, _ = tiny_result(new_demo.ID)
    assert list(result["models"]) == list(new_demo.MODELS)
    for model in result["models"].values():
        assert 0 <= model["accuracy"] <= 1 and model["parameters"] > 0
        assert model["loss_curve"][-1] == [result["steps"], model["final_loss"]], "the curve ends at the last step"
    assert 0.5 <= result["baseline"] <= 1


def test_the_progress_draws_each_models_curve_as_it_grows():
    _, progress = tiny_result(new_demo.ID)
    sent = [data for data, _ in progress.data]
    assert sent and all(data["steps"] == new_demo.TINY["steps"] for data in sent)
    assert set(sent[-1]["curves"]) == set(new_demo.MODELS), "the last report holds both models' curves"
    assert "lstm" in sent[0]["curves"] and "transformer" not in sent[0]["curves"], "one model after the other"


def test_trained_longer_both_models_beat_the_commoner_answer():
    result = run_demo(new_demo, {**new_demo.TINY, "steps": 150}, device=torch.device("cpu"))
    for model in result["models"].values():
        assert model["accuracy"] > result["baseline"] + 0.1, model
        assert model["final_loss"] < model["loss_curve"][0][1], "the loss fell"


@pytest.mark.parametrize("lstm, transformer, winner", [(0.9, 0.6, "lstm"), (0.6, 0.9, "transformer"), (0.8, 0.81, "tie")])
def test_the_headline_names_the_model_ahead_or_a_tie(lstm, transformer, winner):
    result, _ = tiny_result(new_demo.ID)
    result["models"]["lstm"]["accuracy"], result["models"]["transformer"]["accuracy"] = lstm, transformer
    row = new_demo.headline(result)
    assert row["winner"] == winner and row["contest"] is True
    assert f"{lstm:.0%}" in row["detail"] and f"{transformer:.0%}" in row["detail"]
