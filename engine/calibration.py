"""How fast this server trains: a speed test of about a second, timed once per device, kept in
the cache folder.

Before a demo's first run here there is no time of its own to go by; its estimate is then this
test's seconds times the demo's `work(params)`, which counts a run's cost in units of this test
(each demo's factor was measured with `python -m benchmarks.eta --fit`). The test trains two small
models of the deck's kind (a tuned LSTM and a Transformer on the Amnesia Test's task) through the
deck's own training loop, so that it slows down with whatever slows the demos: the device, its
cores, the load on it.

A server runs it in the background, started by the first request it answers, so that the first
slide's estimate is ready when asked for (a request that comes first waits for it, a second or two)
and no request pays for it twice; `flask warm` starts it and waits for its end before it trains, and no
other command runs it at all. Measured once per device and cache folder: a restarted server reads it back. It holds
the device (the engine's lock on it) while it runs, so no training run slows it down or is slowed
by it, and several server processes measure it once.
"""
import json
import logging
import statistics
import threading
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Callable

import torch

from demos.runtime.files import atomic_write_bytes

log = logging.getLogger(__name__)
VERSION = 1  # raise when the workload changes: older measurements are then taken again
REPEATS = 3  # timed repeats after a warm-up; their median is kept
WAIT_SECONDS = 10.0  # the longest an estimate (and so Run, just after a start) waits for a test under way


def speed_test(device: torch.device) -> float:
    """Seconds for one pass of the workload: 40 steps of two small classifiers trained together."""
    from demos.core.tasks import FirstLetter
    from demos.core.training import TrainConfig
    from demos.runtime.storage import ModelStore, using_store
    from demos.shared.classifier import Entry, classifier_config, train_entries

    task = FirstLetter(20)
    entries = [Entry((name, 0), classifier_config(name, task, 32), task, TrainConfig(steps=40, report_every=20), seed=0)
               for name in ("lstm-tuned", "transformer")]
    with using_store(ModelStore()):
        started = time.perf_counter()
        train_entries(entries, 64, device, lambda *_: None)
        return time.perf_counter() - started


def measure(device: torch.device, workload: Callable[[torch.device], float] = speed_test) -> float:
    """The workload's median time over a few repeats, after one to warm up (allocations, kernels)."""
    workload(device)
    return statistics.median(workload(device) for _ in range(REPEATS))


class Calibration:
    """The seconds of one unit of `work` on this server's device, measured in the background."""

    def __init__(self, directory: Path | None, device: torch.device, label: str,
                 measure: Callable[[torch.device], float] = measure, hold_device: Callable = nullcontext):
        self.path = Path(directory) / "calibration.json" if directory else None
        self.device, self.label, self._measure = device, label, measure
        self._hold_device = hold_device  # a context manager: the device is ours within it
        self._seconds: float | None = self._read()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        if self._seconds is not None:
            self._done.set()

    def start(self) -> None:
        """Measure in a background thread, unless it is known or under way already."""
        with self._lock:
            if self._done.is_set() or self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="calibration", daemon=True)
            self._thread.start()

    def seconds(self, wait: float | None = WAIT_SECONDS) -> float | None:
        """The unit's seconds, waiting (at most `wait` seconds; None: to its end) for a test under way; None
        if never measured."""
        if self._thread is not None:
            self._done.wait(wait)
        elif self._seconds is None:  # measured since by another process (a training worker: web/engine.py)
            self._seconds = self._read()
        return self._seconds

    def _run(self) -> None:
        try:
            with self._hold_device():
                self._seconds = self._read()  # another server process may have measured it meanwhile
                if self._seconds is None:
                    self._seconds = self._measure(self.device)
                    self._write()
            log.info("calibration on %s: %.2f s a unit of work", self.label, self._seconds)
        except Exception:  # no estimate before a first run, rather than no server
            log.exception("the calibration speed test failed")
        finally:
            self._done.set()

    def _read(self) -> float | None:
        try:
            found = json.loads(self.path.read_text()).get(self.label) if self.path else None
        except (OSError, ValueError):
            return None
        return found["seconds"] if isinstance(found, dict) and found.get("version") == VERSION else None

    def _write(self) -> None:
        if self.path is None:
            return
        try:
            known = json.loads(self.path.read_text()) if self.path.exists() else {}
        except (OSError, ValueError):
            known = {}
        known[self.label] = {"seconds": round(self._seconds, 4), "version": VERSION, "measured": time.time()}
        try:
            atomic_write_bytes(self.path, json.dumps(known, indent=1).encode())
        except OSError as error:
            log.warning("cannot write %s (%s): the calibration is kept in memory", self.path, error)
