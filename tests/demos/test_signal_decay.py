"""Signal decay: the gradient reaching each position of four similar-sized models at initialisation
(or briefly trained), over several seeds; the forget gates' starting bias is what separates the LSTMs."""
import math

import pytest

from demos import signal_decay
from demos.core.tasks import FirstLetter
from demos.runtime.runner import run_demo
from tests.demos.tiny import TINY as TINY_ALL
from tests.demos.tiny import without_timings

TINY = TINY_ALL["signal_decay"]


@pytest.fixture(scope="module")
def result():
    return run_demo(signal_decay, TINY)


def test_every_position_of_four_similar_sized_models_is_measured(result):
    n = result["length"]
    assert result["distances"] == list(range(1, n + 1)) and result["seeds"] == [0, 1, 2]
    models = result["models"]
    assert list(models) == ["rnn", "lstm", "lstm-tuned", "transformer"]
    for model in models.values():
        assert len(model["gradient"]) == n and len(model["gradient_by_seed"]) == 3
        assert all(value > 0 for value in model["gradient"])  # a log axis can show every one
        for d in (0, n - 1):  # the mean curve is the mean of the seeds' curves
            assert model["gradient"][d] == pytest.approx(sum(c[d] for c in model["gradient_by_seed"]) / 3)
    sizes = [model["parameters"] for model in models.values()]
    assert max(sizes) / min(sizes) < 1.25, sizes
    assert models["rnn"]["sequential_steps"] == models["lstm"]["sequential_steps"] == n
    assert models["transformer"]["sequential_steps"] == 1
    assert result["precision"] == "float64"


def test_the_ratio_is_first_over_last_for_each_seed_and_its_geometric_mean(result):
    for model in result["models"].values():
        stats = model["first_over_last"]
        assert stats["by_seed"] == pytest.approx([curve[-1] / curve[0] for curve in model["gradient_by_seed"]])
        assert math.log(stats["mean"]) == pytest.approx(sum(math.log(r) for r in stats["by_seed"]) / 3)
        assert stats["min"] <= stats["mean"] <= stats["max"]


def test_the_two_lstms_differ_only_in_their_forget_gates_and_the_bias_lets_more_through(result):
    cfgs = signal_decay.configs(FirstLetter(20), 8)
    plain, tuned = cfgs["lstm"], cfgs["lstm-tuned"]
    assert plain.forget_bias is None and tuned.forget_bias == 1.0
    assert (plain.kind, plain.width) == (tuned.kind, tuned.width)
    plain_ratios = result["models"]["lstm"]["first_over_last"]["by_seed"]
    tuned_ratios = result["models"]["lstm-tuned"]["first_over_last"]["by_seed"]
    assert all(t > p for t, p in zip(tuned_ratios, plain_ratios)), "forget bias 1 keeps more of the first letter"
    assert "forget gates" in result["summary"] and "at initialisation" in result["summary"]
    assert signal_decay.ratio_range(result["models"]["rnn"]["first_over_last"]) in result["summary"]


def test_an_untrained_rnns_gradient_fades_along_the_string(result):
    assert all(curve[-1] < curve[0] for curve in result["models"]["rnn"]["gradient_by_seed"])


def test_it_can_train_briefly_first_and_says_so():
    trained = run_demo(signal_decay, {**TINY, "train_steps": 3, "seeds": 1})
    assert "Measured after 3 training steps" in trained["summary"]
    untrained = run_demo(signal_decay, {**TINY, "seeds": 1})
    assert without_timings(trained["models"]) != without_timings(untrained["models"])
