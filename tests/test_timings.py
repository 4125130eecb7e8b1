"""Time estimates from made-up timings: a demo's own runs first, else the server's speed test scaled
by the demo's `work`, corrected by how the server's other runs compared with theirs."""
from types import SimpleNamespace

import pytest

from engine.timings import Timings

# Two made-up demos whose work is their steps (in speed-test units).
SLOW = SimpleNamespace(ID="slow", work=lambda params: params["steps"])
FAST = SimpleNamespace(ID="fast", work=lambda params: params["steps"] / 10)


def asked(figure: float | None):
    """A speed test that counts how often it was asked."""
    def speed_test():
        speed_test.calls += 1
        return figure
    speed_test.calls = 0
    return speed_test


def test_a_demo_never_run_here_is_the_speed_test_times_its_work(tmp_path):
    timings = Timings(tmp_path)
    estimate = timings.estimate(SLOW, "cpu", {"steps": 30}, asked(0.5))
    assert estimate.seconds == pytest.approx(15.0) and "speed test" in estimate.basis
    assert timings.estimate(SLOW, "cpu", {"steps": 30}, asked(None)) is None  # no speed test either: no figure


def test_the_speed_test_is_corrected_by_the_servers_runs_of_other_demos(tmp_path):
    timings = Timings(tmp_path)
    # This server ran "fast" twice as slowly as the speed test said (a busier machine): 2 s for 0.5 s × 2 units;
    # a short run three times as fast (0.07 s for 0.5 s × 0.4 units) weighs little beside it.
    timings.record(FAST, "cpu", {"steps": 20}, 2.0, cost=2.0)
    timings.record(FAST, "cpu", {"steps": 2}, 0.0667, cost=0.4)
    timings.record(FAST, "cuda:0", {"steps": 20}, 0.01, cost=2.0)  # another device says nothing about this one
    estimate = timings.estimate(SLOW, "cpu", {"steps": 30}, asked(0.5))
    assert estimate.seconds == pytest.approx(15.0 * 2.0667 / 1.2, rel=0.01) and "2 latest runs of other demos" in estimate.basis


def test_a_demos_own_runs_come_first_and_the_speed_test_is_not_asked(tmp_path):
    timings = Timings(tmp_path)
    timings.record(SLOW, "cpu", {"steps": 30}, 12.0, cost=30)
    speed_test = asked(0.5)
    same = timings.estimate(SLOW, "cpu", {"steps": 30}, speed_test)
    assert same.seconds == pytest.approx(12.0) and "1 earlier run with these settings" in same.basis
    half = timings.estimate(SLOW, "cpu", {"steps": 15}, speed_test)
    assert half.seconds == pytest.approx(6.0) and "other settings" in half.basis
    assert speed_test.calls == 0


def test_a_runs_cost_is_the_one_taken_before_it(tmp_path):
    # A run that trained a model the next run reuses: its cost was high, though its work is low by now.
    timings = Timings(tmp_path)
    timings.record(SLOW, "cpu", {"steps": 30}, 12.0, cost=30)
    timings.record(SLOW, "cpu", {"steps": 40}, 0.1, cost=0.25)
    assert Timings(tmp_path).estimate(SLOW, "cpu", {"steps": 20}).seconds == pytest.approx(8.0)  # 0.4 s a unit, both


def test_older_records_without_a_cost_count_only_for_their_own_settings(tmp_path):
    (tmp_path / "timings.jsonl").write_text('{"demo":"slow","device":"cpu","params":{"steps":30},"seconds":9.0,"work":30}\n')
    timings = Timings(tmp_path)
    assert timings.estimate(SLOW, "cpu", {"steps": 30}).seconds == pytest.approx(9.0)
    assert timings.estimate(SLOW, "cpu", {"steps": 60}, asked(0.5)).seconds == pytest.approx(30.0)  # the speed test's
