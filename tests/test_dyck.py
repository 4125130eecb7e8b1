"""Slide 13, bounded Dyck-2: the recogniser against hand-checked strings, the string generator
(balanced strings drawn evenly, near misses never in the language and each of the kind it says),
and the demo on tiny settings (same batches for both models, whole partial results, the recap row)."""
import itertools
import json
import math
import random
from collections import Counter

import pytest
import torch

from demos import classifier, dyck
from demos.runner import run_demo
from demos.tasks import (NEAR_MISSES, TRAIN, BoundedDyck, Interleaved, balanced_brackets, data_generator, edit,
                         is_bounded_dyck, near_miss, near_miss_kind)
from tests.test_memory_demos import numbers_in, without_timings

# Checked by hand: balanced, and never more than two brackets open at once.
IN_LANGUAGE = ["", "()", "[]", "()[]", "([])", "[()]", "(())", "[[]]", "(()[])", "[()()][]", "([][])(())[]"]
NOT_IN_LANGUAGE = {
    "(": "left open",
    ")": "closed before opened",
    ")(": "closed before opened",
    "(]": "closed by the wrong type",
    "[)": "closed by the wrong type",
    "([)]": "two pairs cross",
    "(()": "left open",
    "())": "one closing too many",
    "((()))": "three deep",
    "[([])]": "three deep",
    "()[[[]]]": "three deep",
    "(()[)]": "two pairs cross",
    "([]]": "closed by the wrong type",
}

TINY = {"lengths": [20, 50], "steps": 10, "width": 8}


def test_the_recogniser_agrees_with_the_hand_checked_strings():
    assert all(is_bounded_dyck(text) for text in IN_LANGUAGE)
    assert not any(is_bounded_dyck(text) for text in NOT_IN_LANGUAGE)
    assert is_bounded_dyck("((()))", max_depth=3) and is_bounded_dyck("[([])]", max_depth=3)  # only too deep


@pytest.mark.parametrize("text, kind", [
    ("(]", "retype"), ("([)[", "flip"), ("(()(", "flip"), ("([)]", "swap"), ("(()[)]", "swap"),
    ("(([]))", "deepen"), (")(", "other"), ("()", None),
])
def test_a_near_miss_is_told_from_the_string_alone(text, kind):
    assert near_miss_kind(text) == kind


def all_strings_of(length: int) -> set[str]:
    """The language at one length, by brute force over every string of brackets."""
    return {"".join(chars) for chars in itertools.product("()[]", repeat=length) if is_bounded_dyck("".join(chars))}


def test_balanced_strings_are_drawn_evenly_from_the_whole_language():
    language = all_strings_of(6)
    assert len(language) == 32  # 4 shapes, (()()) (())() ()(()) ()()(), times 2³ typings
    rng = random.Random(0)
    counts = Counter("".join(balanced_brackets(3, rng)) for _ in range(6400))
    assert set(counts) == language  # every string of the language, and nothing else
    assert 130 < min(counts.values()) and max(counts.values()) < 270  # about 200 each


@pytest.mark.parametrize("length", [6, 20, 50, 200])
def test_the_generator_never_labels_a_string_wrongly(length):
    """Over thousands of strings, positives are in the language (by the recogniser), near misses never are,
    and each near miss shows the fault of the edit it says made it."""
    task = BoundedDyck(length)
    texts, kinds = [], []
    for seed in range(4):
        more_texts, more_kinds = task.strings(1000, data_generator(seed, TRAIN))
        texts += more_texts
        kinds += more_kinds
    assert all(len(text) == length for text in texts)
    assert kinds.count(None) == len(kinds) // 2  # balanced classes
    for text, kind in zip(texts, kinds):
        assert is_bounded_dyck(text) == (kind is None), (text, kind)
        assert near_miss_kind(text) == kind, (text, kind)
    made = Counter(kind for kind in kinds if kind is not None)
    assert set(made) == set(NEAR_MISSES) and min(made.values()) > 0.2 * sum(made.values())  # about a quarter each


@pytest.mark.parametrize("kind", NEAR_MISSES)
def test_a_near_miss_is_one_small_edit_of_a_balanced_string(kind):
    rng = random.Random(1)
    for _ in range(300):
        source = balanced_brackets(10, rng)
        edited = edit(kind, source, rng)
        if edited is None:
            continue
        changed = [i for i, (a, b) in enumerate(zip(source, edited)) if a != b]
        assert len(edited) == len(source) and 1 <= len(changed) <= (1 if kind in ("retype", "flip") else 3)
        assert max(changed) - min(changed) <= 2  # all in one place
        assert not is_bounded_dyck("".join(edited))
    assert not is_bounded_dyck("".join(near_miss(kind, 3, rng)))


def test_the_task_encodes_strings_with_a_question_at_the_end():
    inputs, targets = BoundedDyck(20).sample(64, data_generator(0, TRAIN))
    assert inputs.shape == (64, 21) and (inputs[:, -1] == 4).all() and inputs[:, :-1].max() < 4
    assert targets.sum() == 32
    for row, target in zip(inputs, targets):
        assert is_bounded_dyck(BoundedDyck(20).describe(row)) == bool(target)


def test_interleaved_lengths_take_turns():
    task = Interleaved((BoundedDyck(20), BoundedDyck(50)))
    generator = data_generator(0, TRAIN)
    assert [task.sample(2, generator)[0].shape[1] for _ in range(5)] == [21, 51, 21, 51, 21]
    assert task.length == 50 and task.vocab_size == 5 and task.n_out == 2


# ----------------------------------------------------------------------------- the demo


@pytest.fixture(scope="module")
def result():
    return run_demo(dyck, TINY)


def test_a_tiny_run_scores_both_models_at_every_length(result):
    json.dumps(result, allow_nan=False)
    assert all(math.isfinite(x) for x in numbers_in(result))
    assert result["device"] == "cpu" and result["lengths"] == [20, 50]
    assert {(p["model"], p["length"]) for p in result["points"]} == {
        (model, n) for model in ("lstm", "transformer") for n in (20, 50)}
    for p in result["points"]:
        assert 0 <= p["accuracy"] <= 1 and set(p["by_kind"]) == {"balanced", *NEAR_MISSES}
    for test_set in result["test_sets"]:  # how many of each kind of string each model was tested on
        assert sum(test_set["counts"].values()) == 1000
        assert 450 <= test_set["counts"]["balanced"] <= 550
        assert all(test_set["counts"][kind] > 100 for kind in NEAR_MISSES)  # about 125 each
    assert result["budget"]["steps"] == 20 and result["budget"]["steps_per_length"] == 10
    assert [e["kind"] for e in result["examples"]] == list(NEAR_MISSES)
    for example in result["examples"]:
        assert is_bounded_dyck(example["balanced"]) and near_miss_kind(example["near_miss"]) == example["kind"]
    assert "trained 20 steps on the same batches, 10 per length" in result["summary"]
    assert "at length 20 / 50" in result["summary"]
    text = dyck.format_text(result)
    assert "LSTM" in text and "Transformer" in text and result["summary"] in text


def test_each_kind_is_scored_on_its_own(result):
    """The overall accuracy is the by-kind accuracies weighted by how many strings of each kind there were."""
    for p in result["points"]:
        counts = next(t["counts"] for t in result["test_sets"] if t["length"] == p["length"])
        weighted = sum(p["by_kind"][kind] * counts[kind] for kind in counts) / sum(counts.values())
        assert weighted == pytest.approx(p["accuracy"], abs=1e-6)


def test_the_same_seed_repeats_and_another_seed_differs(result):
    assert without_timings(run_demo(dyck, TINY)) == without_timings(result)
    other = run_demo(dyck, {**TINY, "seed": 1})
    assert other["points"] != result["points"] and other["examples"] != result["examples"]


def test_both_models_train_on_the_same_batches_one_length_after_another(monkeypatch):
    batches = {}
    real_train = classifier.train

    def recording_train(model, get_batch, loss_fn, cfg, on_step=None):
        seen = batches.setdefault(type(model).__name__, [])

        def recorded(step):
            batch = get_batch(step)
            seen.append(batch[0].clone())
            return batch
        return real_train(model, recorded, loss_fn, cfg, on_step)

    monkeypatch.setattr(classifier, "train", recording_train)
    run_demo(dyck, TINY)
    lstm, transformer = batches["Recurrent"], batches["Transformer"]
    assert len(lstm) == len(transformer) == 20
    assert all(torch.equal(a, b) for a, b in zip(lstm, transformer))
    assert [batch.shape[1] - 1 for batch in lstm] == [20, 50] * 10


def test_progress_streams_each_point_in_a_whole_partial_result():
    reports = []
    result = run_demo(dyck, TINY, lambda fraction, message, data=None: reports.append(
        (fraction, message, data, json.dumps(data))))
    fractions = [r[0] for r in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1
    snapshots = [(data, text) for _, _, data, text in reports if data is not None]
    assert [len(data["points"]) for data, _ in snapshots] == [1, 2, 3, 4]  # one more point each time
    assert all(json.dumps(data) == text for data, text in snapshots), "a partial result was changed after it was sent"
    assert snapshots[-1][0]["points"] == result["points"]
    assert snapshots[0][0]["examples"] == result["examples"]  # the near misses are shown while it trains


def test_a_constant_size_lstm_learns_the_language_at_length_20():
    """The labels are learnable: the small LSTM gets nearly every fresh string right (the task is not noise)."""
    result = run_demo(dyck, {"lengths": [20], "steps": 300})
    lstm = dyck.point(result, "lstm", 20)
    assert lstm["accuracy"] > 0.9 and min(lstm["by_kind"].values()) > 0.8


def test_the_recap_headline_names_the_winner_at_the_longest_length(result):
    fake = json.loads(json.dumps(result))
    for p in fake["points"]:
        p["accuracy"] = {("lstm", 50): 0.97, ("transformer", 50): 0.61}.get((p["model"], p["length"]), 0.5)
    row = dyck.headline(fake)
    assert row["test"] == "Bounded Dyck-2 (depth ≤ 2)"
    assert row["winner"] == "lstm" and row["detail"] == "LSTM 97% vs Transformer 61% at length 50"
    dyck.point(fake, "transformer", 50)["accuracy"] = 0.95
    assert dyck.headline(fake)["winner"] == "tie"
    dyck.point(fake, "transformer", 50)["accuracy"] = 1.0
    assert dyck.headline(fake)["winner"] == "tie"  # within 10 points
    dyck.point(fake, "lstm", 50)["accuracy"] = 0.5
    assert dyck.headline(fake)["winner"] == "transformer"
