"""Bounded Dyck-2, the demo on tiny settings: three contenders over seeds at every length, each scored
by kind of near miss, beside the counting rule, computed from the very test strings (never typed in)."""
import pytest

from demos import dyck
from demos.core.tasks import BoundedDyck, near_miss_kind
from demos.runtime.runner import run_demo
from demos.shared import classifier
from demos.shared.seeds import ahead

TINY = {"lengths": [20], "steps": 60, "width": 8, "seeds": 2, "models": ["lstm", "transformer", "transformer-2"]}


@pytest.fixture(scope="module")
def result():
    return run_demo(dyck, TINY)


def test_every_contender_is_scored_over_seeds_and_by_kind(result):
    assert [(p["model"], p["length"]) for p in result["points"]] == [
        ("lstm", 20), ("transformer", 20), ("transformer-2", 20)]
    assert result["models"] == {"lstm": "LSTM", "transformer": "1-layer Transformer",
                                "transformer-2": "2-layer Transformer"}
    counts = result["test_sets"][0]["counts"]
    for point in result["points"]:
        accuracy, by_kind = point["accuracy"], point["by_kind"]
        assert len(accuracy["by_seed"]) == 2 and set(by_kind) == set(dyck.KINDS)
        # seed 0's accuracy is its accuracies by kind, weighted by how many strings of each kind there were
        weighted = sum(by_kind[k]["by_seed"][0] * counts[k] for k in dyck.KINDS) / sum(counts.values())
        assert weighted == pytest.approx(accuracy["by_seed"][0], abs=1e-6)


def test_by_default_the_lstm_races_the_two_layer_transformer_and_the_prepared_run_adds_the_one_layer():
    from demos.runtime.runner import effective_params

    assert effective_params(dyck, None, "cpu")["models"] == ["lstm", "transformer-2"]
    for device in ("cpu", "cuda"):
        full = effective_params(dyck, dyck.BUDGETS["cpu" if device == "cpu" else "gpu"]["full"], device)
        assert full["models"] == ["lstm", "transformer", "transformer-2"] and full["lengths"] == [20, 50]


def test_a_run_of_one_family_names_no_winner():
    one = run_demo(dyck, {**TINY, "models": ["transformer-2"], "seeds": 1})
    assert list(one["models"]) == ["transformer-2"] and dyck.race(one, 20)[0] == "tie"
    assert "learned sooner" not in one["summary"]


def test_the_counting_rule_is_computed_from_the_test_strings():
    assert dyck.counts_match("([])[]") and dyck.counts_match("([)]") and not dyck.counts_match("([]][")
    # what the rule can and cannot see, kind by kind, on real test strings
    inputs, targets = classifier.fresh_examples(BoundedDyck(20), 400, 0)
    texts = [BoundedDyck(20).describe(row) for row in inputs]
    kinds = [near_miss_kind(text) or "balanced" for text in texts]
    right = [dyck.counts_match(text) == (kind == "balanced") for text, kind in zip(texts, kinds)]
    by_kind = dyck.accuracy_by_kind(right, kinds)
    assert by_kind == {"balanced": 1.0, "retype": 1.0, "flip": 1.0, "swap": 0.0, "deepen": 0.0}


def test_the_result_carries_the_baselines_at_every_length(result):
    baseline = result["baselines"]["20"]
    assert baseline["chance"] == 0.5
    assert 0.65 < baseline["counting"]["mean"] < 0.85  # it fails on the two kinds of near miss it cannot see
    assert baseline["counting_by_kind"]["swap"] == 0.0 and baseline["counting_by_kind"]["balanced"] == 1.0
    assert f"counting rule scores {baseline['counting']['mean']:.0%}" in result["summary"]


def test_every_near_miss_example_is_one_edit_of_its_balanced_string(result):
    assert [e["kind"] for e in result["examples"]] == list(dyck.NEAR_MISSES)
    for example in result["examples"]:
        assert near_miss_kind(example["balanced"]) is None
        assert near_miss_kind(example["near_miss"]) == example["kind"]
        assert example["counting_rule"] == ("balanced" if dyck.counts_match(example["near_miss"]) else "not balanced")


def test_every_seed_reports_the_step_it_learned_at_or_none(result):
    for point in result["points"]:
        assert len(point["learned_at"]) == 2
        for learned, taken in zip(point["learned_at"], point["steps_taken"]):
            # checked at every report (every 25 steps, and the last): never after the model stopped
            assert learned is None or (learned <= taken and (learned % 25 == 0 or learned == taken))
    assert "Steps until learned (right on 95% of validation strings" in result["summary"]


def test_an_lstm_learns_the_language_at_length_20_beyond_the_counting_rule_and_says_when():
    # Seeds 0-7 learned at step 125-150 and were right on 96%-99% of fresh strings (counting: 73%-76%).
    learned = run_demo(dyck, {"lengths": [20], "steps": 300, "seeds": 2, "models": ["lstm"]})
    lstm = dyck.point(learned, "lstm", 20)
    assert lstm["accuracy"]["min"] > 0.9, lstm["accuracy"]
    assert ahead(lstm["accuracy"], learned["baselines"]["20"]["counting"]), "not above counting with every seed"
    assert None not in lstm["learned_at"] and max(lstm["learned_at"]) <= 300
    assert f"LSTM {dyck.learned_text(lstm['learned_at'], 300)}" in learned["summary"]
    assert "Not above counting" not in learned["summary"]


def fake(steps: dict, budget: int = 450) -> dict:
    """A result with only what the race needs: each model's steps until learned at length 20."""
    accuracy = {"mean": 0.9, "min": 0.9, "max": 0.9, "by_seed": [0.9] * 3}
    return {"lengths": [20], "budget": {"steps": budget}, "models": {"lstm": "LSTM", "transformer": "1-layer Transformer",
                                                                      "transformer-2": "2-layer Transformer"},
            "points": [{"model": name, "length": 20, "learned_at": seeds, "accuracy": accuracy}
                       for name, seeds in steps.items()],
            "baselines": {"20": {"counting": accuracy}}}


def test_the_verdict_is_who_learned_sooner_with_every_seed():
    never = [None, None, None]
    lstm_first = fake({"lstm": [100, 125, 150], "transformer": never, "transformer-2": [175, 300, None]})
    assert dyck.race(lstm_first, 20) == ("lstm", "transformer-2")
    assert dyck.headline(lstm_first)["winner"] == "lstm"
    overlap = fake({"lstm": [100, 200, 150], "transformer": never, "transformer-2": [175, 300, 400]})
    assert dyck.race(overlap, 20)[0] == "tie"
    attention_first = fake({"lstm": [300, None, 400], "transformer": [100, 125, 150], "transformer-2": never})
    assert dyck.race(attention_first, 20) == ("transformer", "transformer")
    assert dyck.race(fake({"lstm": never, "transformer": never, "transformer-2": never}), 20)[0] == "tie"
    assert dyck.learned_text([175, 300, None], 450) == "238 (175–300); 1 seed not within 450"
    assert dyck.learned_text(never, 450) == "not within 450"


def test_the_recap_headline_compares_the_lstm_with_the_better_transformer(result):
    row = dyck.headline(result)
    winner, best = dyck.race(result, 20)
    assert row["test"] == "Bounded Dyck-2, length 20" and row["winner"] == winner
    steps = {name: dyck.point(result, name, 20)["learned_at"] for name in ("lstm", best)}
    assert (f"steps until learned: LSTM {dyck.learned_text(steps['lstm'], TINY['steps'])}, {result['models'][best]} "
            f"{dyck.learned_text(steps[best], TINY['steps'])}") == row["detail"]
