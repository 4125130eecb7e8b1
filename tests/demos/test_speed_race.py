"""The speed race on tiny sizes: every series with its spread, and a verdict that says who is faster
only where the timings tell the two apart (constructed timings test that rule directly). The speed-up
from one thread to all cores: tests/demos/test_speedup.py."""
import statistics

import pytest

from demos import speed_race
from demos.runtime.runner import run_demo
from demos.core.models import FusedLSTM, LoopLSTM
from demos.shared import step_timing
from demos.shared.race_verdict import faster, verdict, winners
from demos.shared.step_timing import NOISE_LIMIT, RETRIES
from tests.demos.tiny import TINY


@pytest.fixture(scope="module")
def result():
    return run_demo(speed_race, TINY["speed_race"])


def test_every_contender_is_timed_at_every_length_with_its_spread(result):
    assert result["device"] == "cpu" and result["lengths"] == [64, 128]
    race = result["races"][0]
    assert set(race["series"]) == {"lstm_fused", "lstm_loop", "transformer"}
    for name in ("lstm_fused", "transformer"):
        for median, (fastest, slowest), noisy in zip(race["series"][name], race["spread"][name], race["noisy"][name]):
            assert 0 < fastest <= median <= slowest
            assert noisy == ((slowest - fastest) / median > NOISE_LIMIT)
    assert race["series"]["lstm_loop"][0] > 0
    assert race["series"]["lstm_loop"][1] is race["spread"]["lstm_loop"][1] is None, "the loop is skipped past its limit"
    assert result["skipped"] == {"lstm_loop": [128]}


def test_a_noisy_point_marks_the_whole_result(result):
    any_noisy = any(bad for times in result["races"][0]["noisy"].values() for bad in times)
    assert result["noisy"] is (any_noisy or speed_race.speedup.any_noisy(result["scaling"]))
    assert ("stayed noisy" in result["races"][0]["verdict"]) is any_noisy
    assert result["races"][0]["verdict"] in result["summary"]


def test_the_ratio_and_throughput_come_from_the_times(result):
    for i, n in enumerate(result["lengths"]):
        fused, attention = result["series"]["lstm_fused"][i], result["series"]["transformer"][i]
        assert result["ratio_lstm_to_transformer"][i] == pytest.approx(fused / attention)
        assert result["tokens_per_second"]["transformer"][i] == pytest.approx(1 * n / attention)


def test_the_terminal_table_shows_each_spread(result):
    text = speed_race.format_text(result)
    fastest, slowest = result["spread"]["transformer"][0]
    assert f"({speed_race.milliseconds(fastest)} to {speed_race.milliseconds(slowest)})" in text


def timed(fused, attention, loop=None, noisy=()):
    """A race from constructed timings: each point's list of seconds; `noisy` names (contender, index)."""
    points = {"lstm_fused": fused, "transformer": attention, "lstm_loop": loop or [None] * len(fused)}
    return {
        "lengths": [64, 256, 1024][:len(fused)],
        "series": {k: [None if t is None else statistics.median(t) for t in v] for k, v in points.items()},
        "spread": {k: [None if t is None else [min(t), max(t)] for t in v] for k, v in points.items()},
        "noisy": {k: [None if t is None else (k, i) in noisy for i, t in enumerate(v)] for k, v in points.items()},
    }


def around(*medians):
    """Three timings 5% apart around each median: quiet points."""
    return [[m * 0.95, m, m * 1.05] for m in medians]


@pytest.mark.parametrize("fused, attention, words", [
    (around(1, 1, 1), around(2, 8, 32),
     "the fused LSTM beat the Transformer layer at every length: it took 0.50× the Transformer's time at 64, 0.031× at 1,024."),
    (around(4, 8, 16), around(1, 1, 2),
     "the Transformer layer beat the fused LSTM at every length: 4.00× faster at 64, 8.00× at 1,024."),
    (around(1, 4, 16), around(2, 2, 2),
     "beat the fused LSTM at 256 and 1,024 (8.00× faster at best) and lost at 64."),
    (around(1, 2.05, 16), around(2, 2, 2),
     "beat the fused LSTM at 1,024 (8.00× faster) and lost at 64; too close to call on this machine at 256."),
])
def test_the_verdict_covers_every_outcome(fused, attention, words):
    assert words in verdict("cpu", timed(fused, attention))


def test_overlapping_timings_are_too_close_to_call():
    # The medians differ by 7×, but the fused LSTM's slowest and fastest timings straddle the Transformer's.
    race = timed(fused=[[0.096, 0.382, 3.2]], attention=[[0.05, 0.054, 0.1]])
    assert winners(race) == [None]
    text = verdict("cpu", race)
    assert "too close to call at every length" in text
    assert "beat" not in text and "faster" not in text and "7." not in text


def test_a_noisy_point_gets_no_verdict_even_when_apart():
    race = timed(fused=[[0.4, 0.5], [0.4, 0.5]], attention=[[0.05, 0.06], [0.05, 0.06]], noisy={("lstm_fused", 0)})
    assert winners(race) == [None, "transformer"]
    text = verdict("cpu", race)
    assert "beat the fused LSTM at 256 (8.18× faster); too close to call on this machine at 64." in text
    assert "Timings at 64 stayed noisy" in text and "left out of the verdict" in text




class Clock:
    """Stands in for time_length: hands out the given attempts' timings in turn, the same to every model."""

    def __init__(self, *attempts):
        self.attempts, self.calls = list(attempts), []

    def __call__(self, models, x, repeats, device, warm_up=True):
        self.calls.append(sorted(models))
        seconds = self.attempts.pop(0)
        return {name: (seconds, None) for name in models}


QUIET, NOISY = [0.1, 0.11, 0.12], [0.1, 0.38, 3.2]


def test_a_noisy_point_is_timed_again_and_the_quietest_attempt_kept(monkeypatch):
    clock = Clock(NOISY, QUIET)
    monkeypatch.setattr(step_timing, "time_length", clock)
    points, _ = step_timing.time_points({"lstm_fused": None}, None, 3, None, warm_up=False)
    assert points["lstm_fused"] == (QUIET, None, 2) and len(clock.calls) == 2


def test_a_point_that_stays_noisy_is_retried_a_bounded_number_of_times(monkeypatch):
    clock = Clock(*[NOISY] * 10)
    monkeypatch.setattr(step_timing, "time_length", clock)
    points, _ = step_timing.time_points({"lstm_fused": None}, None, 3, None, warm_up=False)
    seconds, _, attempts = points["lstm_fused"]
    assert attempts == len(clock.calls) == 1 + RETRIES and step_timing.noise(seconds) > NOISE_LIMIT


def test_no_retry_once_the_race_has_spent_its_retry_budget(monkeypatch):
    clock = Clock(*[NOISY] * 10)
    monkeypatch.setattr(step_timing, "time_length", clock)
    points, _ = step_timing.time_points({"lstm_fused": None}, None, 3, None, warm_up=False, allowance=0)
    assert points["lstm_fused"][2] == len(clock.calls) == 1


def test_the_contenders_take_turns_so_load_falls_on_all_alike():
    import torch
    order = []

    class Recorded(torch.nn.Module):
        def __init__(self, name):
            super().__init__()
            self.name, self.weight = name, torch.nn.Parameter(torch.ones(1))

        def forward(self, x):
            order.append(self.name)
            return x * self.weight

    models = {name: Recorded(name) for name in ("a", "b")}
    timings = step_timing.time_length(models, torch.ones(2), 3, torch.device("cpu"), warm_up=False)
    assert order == ["a", "b"] * 3 and all(len(seconds) == 3 for seconds, _ in timings.values())


def test_parameter_counts_and_sequential_steps(result):
    counts = result["parameters"]
    assert counts["lstm_fused"] == counts["lstm_loop"] == 8 * 64 * 64 + 8 * 64
    assert counts["transformer"] > 0
    assert result["sequential_steps"] == {"lstm": [64, 128], "transformer": [1, 1]}
    assert [row["per_layer"] for row in result["complexity"]] == ["O(n²·d)", "O(n·d²)"]


def test_the_loop_lstm_computes_what_the_fused_one_does():
    import torch
    fused, loop = FusedLSTM(8), LoopLSTM(8)
    loop.cell.weight_ih.data = fused.lstm.weight_ih_l0.data.clone()
    loop.cell.weight_hh.data = fused.lstm.weight_hh_l0.data.clone()
    loop.cell.bias_ih.data = fused.lstm.bias_ih_l0.data.clone()
    loop.cell.bias_hh.data = fused.lstm.bias_hh_l0.data.clone()
    x = torch.randn(3, 5, 8)
    assert torch.allclose(fused(x), loop(x), atol=1e-6), "the race compares the same computation"


def test_faster_names_the_faster_contender_or_none_when_it_cannot_be_told():
    quick, slow = {"spread": [0.1, 0.2], "noisy": False}, {"spread": [0.3, 0.4], "noisy": False}
    assert faster({"lstm_fused": quick, "transformer": slow}) == "lstm_fused"
    assert faster({"lstm_fused": slow, "transformer": quick}) == "transformer"
    assert faster({"lstm_fused": quick, "transformer": {"spread": [0.15, 0.3], "noisy": False}}) is None
    assert faster({"lstm_fused": quick, "transformer": {**slow, "noisy": True}}) is None
    assert faster({"lstm_fused": quick, "transformer": {"spread": None, "noisy": None}}) is None


def test_the_transformers_speedup_over_the_fused_lstm_keeps_its_range():
    """Slide 10's number poll reads it: the ratio of the medians, and the least and most two timings give."""
    series = {"lstm_fused": [0.2, 0.9], "transformer": [0.1, 0.3]}
    spread = {"lstm_fused": [[0.15, 0.3], [0.6, 1.2]], "transformer": [[0.05, 0.2], [0.3, 0.4]]}
    noisy = {"lstm_fused": [False, True], "transformer": [False, False]}
    assert speed_race.speedups_by_length([64, 4096], series, spread, noisy) == [
        {"length": 64, "median": pytest.approx(2.0), "min": pytest.approx(0.75), "max": pytest.approx(6.0), "noisy": False},
        {"length": 4096, "median": pytest.approx(3.0), "min": pytest.approx(1.5), "max": pytest.approx(4.0),
         "noisy": True}]  # a timing that stayed noisy marks the ratio: no poll is scored against it
