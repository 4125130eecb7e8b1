"""The task slides' learning rates: each contender tries the one grid, scored on validation examples
drawn from their own stream (never the test questions, which the demo reads once, after the choice),
and each demo trains every model at the rate chosen for it."""
import math

import pytest
import torch

from demos import amnesia, dyck, index_lookup, recall_vs_length
from demos.core.tasks import EVAL, TRAIN, FirstLetter, data_generator
from demos.runtime.runner import run_demo
from demos.shared import classifier, tuning
from demos.shared.contenders import WARMUP_SHARE
from demos.shared.tuning import LR_GRID, rate_text

CPU = torch.device("cpu")
TINY = {  # demo: (tiny settings for its grid and its run, a contender to score)
    amnesia: ({"length": 5, "steps": 20, "width": 8, "seeds": 1}, "transformer"),
    recall_vs_length: ({"lengths": [5], "steps": 10, "width": 8, "seeds": 1}, "lstm"),
    index_lookup: ({"length": 8, "widths": [4], "steps": 100, "seeds": 1}, "lstm-tuned"),
    dyck: ({"lengths": [20], "steps": 50, "width": 8, "seeds": 1}, "transformer-2"),
}


def never_the_test_questions(*args, **kwargs):
    raise AssertionError("a recipe was scored on the test questions")


@pytest.mark.parametrize("demo", TINY, ids=lambda demo: demo.ID)
def test_a_candidate_is_scored_on_validation_examples_never_on_the_test_questions(demo, monkeypatch):
    settings, name = TINY[demo]
    study = demo.tuning(settings)
    assert all([c["lr"] for c in candidates] == list(LR_GRID) for candidates in study.candidates.values())
    assert study.seeds == (0, 1, 2)
    monkeypatch.setattr(classifier, "fresh_examples", never_the_test_questions)
    score = study.score(name, {"lr": 1e-3}, 0, CPU)
    assert math.isfinite(score) and score >= 0


def test_validation_examples_are_neither_the_training_batches_nor_the_test_questions():
    task = FirstLetter(20)
    validation = classifier.validation_examples(task, 200, 0)[0]
    assert validation.equal(classifier.validation_examples(task, 200, 0)[0])  # the same for a seed
    for other in (task.sample(200, data_generator(0, TRAIN))[0], task.sample(200, data_generator(0, EVAL))[0],
                  classifier.validation_examples(task, 200, 1)[0]):
        assert not torch.isin(classifier.fingerprints(validation), classifier.fingerprints(other)).any()


@pytest.mark.parametrize("demo", TINY, ids=lambda demo: demo.ID)
def test_every_model_trains_at_the_rate_chosen_for_it_and_the_summary_names_it(demo, monkeypatch):
    settings, _ = TINY[demo]
    entries, real = [], classifier.train_entries

    def spy(made, *args, **kwargs):
        entries.extend(made)
        return real(made, *args, **kwargs)

    monkeypatch.setattr(classifier, "train_entries", spy)
    result = run_demo(demo, settings)
    assert set(tuning.tuned(demo.ID)["contenders"]) == set(demo.tuning().candidates)
    for entry in entries:
        name = entry.key[0]  # every task demo names an entry (contender, ..., seed)
        assert entry.train_cfg.lr == tuning.chosen(demo.ID, name)["lr"], name
        transformer = entry.cfg.kind == "transformer"
        assert entry.train_cfg.warmup == (round(WARMUP_SHARE * entry.train_cfg.steps) if transformer else 0)
        assert rate_text(entry.train_cfg.lr) in result["summary"]
    assert "each chosen on validation data from 0.0001–0.01" in result["summary"]
    assert result["recipes"] == tuning.how_chosen(demo.ID)
