"""The speed test behind estimates before a demo's first run: measured once, in the background, kept."""
import json
import threading

import pytest
import torch

from engine import calibration as calibration_module
from engine.calibration import Calibration, measure

CPU = torch.device("cpu")


class FakeTest:
    """A speed test that takes no time: it answers the made-up seconds given, one per call."""

    def __init__(self, *seconds: float, gate: threading.Event | None = None):
        self.seconds, self.calls, self.gate = list(seconds), 0, gate

    def __call__(self, device) -> float:
        if self.gate is not None:
            assert self.gate.wait(10)
        self.calls += 1
        return self.seconds.pop(0)


def test_the_figure_is_the_median_of_the_repeats_after_a_warm_up():
    # The first (cold) pass is left out, and one slow repeat (another process took the core) does not count.
    assert measure(CPU, FakeTest(9.0, 1.0, 5.0, 1.2)) == pytest.approx(1.2)


def test_it_is_measured_once_in_the_background_and_kept_for_a_restart(tmp_path):
    gate = threading.Event()
    test = FakeTest(0.8, gate=gate)
    calibration = Calibration(tmp_path, CPU, "cpu", measure=test)
    assert calibration.seconds() is None  # not started: no figure, and no waiting
    calibration.start()
    calibration.start()  # a second start does not measure twice
    assert calibration.seconds(wait=0.05) is None  # under way: an estimate waits for it (here, not long)
    gate.set()
    assert calibration.seconds() == pytest.approx(0.8) and test.calls == 1
    restarted = Calibration(tmp_path, CPU, "cpu", measure=FakeTest())  # no figure to give: it must not be asked
    restarted.start()
    assert restarted.seconds() == pytest.approx(0.8)
    assert Calibration(tmp_path, CPU, "cuda:0 (H100)", measure=FakeTest(0.1)).seconds() is None  # per device


def test_a_new_speed_test_is_measured_again(tmp_path, monkeypatch):
    first = Calibration(tmp_path, CPU, "cpu", measure=FakeTest(0.8))
    first.start()
    assert first.seconds() == pytest.approx(0.8)  # measured and kept before the speed test changes
    monkeypatch.setattr(calibration_module, "VERSION", calibration_module.VERSION + 1)
    again = Calibration(tmp_path, CPU, "cpu", measure=FakeTest(0.5))
    assert again.seconds() is None
    again.start()
    assert again.seconds() == pytest.approx(0.5)


def test_a_failing_test_or_an_unwritable_folder_leaves_the_server_running(tmp_path):
    def broken(device):
        raise RuntimeError("no device")

    failed = Calibration(tmp_path, CPU, "cpu", measure=broken)
    failed.start()
    assert failed.seconds() is None  # no estimate before a first run, as before; nothing raised
    (tmp_path / "file").write_text("")
    in_memory = Calibration(tmp_path / "file" / "cache", CPU, "cpu", measure=FakeTest(0.7))
    in_memory.start()
    assert in_memory.seconds() == pytest.approx(0.7)


def test_an_unreadable_file_is_measured_again(tmp_path):
    (tmp_path / "calibration.json").write_text("{not json")
    calibration = Calibration(tmp_path, CPU, "cpu", measure=FakeTest(0.6))
    calibration.start()
    assert calibration.seconds() == pytest.approx(0.6)
    assert json.loads((tmp_path / "calibration.json").read_text())["cpu"]["seconds"] == pytest.approx(0.6)



def test_a_speed_test_another_process_ran_later_is_read_when_asked(tmp_path):
    # A web server with FLASK_TRAINING=worker runs none: the training worker's, written into the cache
    # folder they share after the server started, is the one its estimates use.
    server = Calibration(tmp_path, CPU, "cpu", measure=FakeTest(1.0))
    assert server.seconds() is None
    worker = Calibration(tmp_path, CPU, "cpu", measure=lambda device: 0.25)
    worker.start()
    assert worker.seconds(wait=None) == 0.25
    assert server.seconds() == 0.25
