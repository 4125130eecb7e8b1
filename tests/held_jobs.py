"""The test demo line_fit held where a test needs it: at a gate, or spinning until cancelled; and
waiting for a job to end. Shared by the engine, API and reliability tests; no sleeps-and-hope."""
import threading
import time

from tests import line_fit

FAST = {"steps": 20}


class Gate:
    """Holds line_fit inside its run until the test opens the gate, so tests need no sleeps."""

    def __init__(self, monkeypatch):
        self.entered = threading.Event()
        self.opened = threading.Event()
        real_run = line_fit.run

        def gated_run(params, progress, device):
            progress(0.5, "halfway, held at the gate", {"partial": [1, 2, 3]})
            self.entered.set()
            assert self.opened.wait(timeout=30), "the test never opened the gate"
            return real_run(params, progress, device)

        monkeypatch.setattr(line_fit, "run", gated_run)


def wait_done(job, timeout=120):
    """The job's state once it has ended; a job still going after `timeout` seconds fails the test
    (a deadline that only bounds a hang)."""
    deadline = time.monotonic() + timeout
    version = -1
    while not job.finished:
        left = deadline - time.monotonic()
        assert left > 0, f"the job did not end within {timeout} s: {job.snapshot()}"
        version = job.wait_for_change(version, timeout=min(left, 1.0))
    return job.snapshot()


class Spinner:
    """Makes line_fit report progress every few milliseconds until stopped from outside (or 30 s):
    a stand-in for a long training run, so cancelling can be tested without one."""

    def __init__(self, monkeypatch):
        self.entered = threading.Event()

        def spinning_run(params, progress, device):
            self.entered.set()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                progress(0.3, "training")
                time.sleep(0.005)
            raise AssertionError("nobody stopped the spinning job")

        monkeypatch.setattr(line_fit, "run", spinning_run)
