"""How long a demo takes on this server: measured, never typed in.

Every training run the engine finishes is written down (`<cache>/timings.jsonl`: the demo, the
device, the parameters, the seconds it took and the demo's `work` for them, its `cost`). An estimate for
new settings is read off those runs:

- runs with exactly these settings on this device: the median of their times;
- otherwise, runs with other settings: the median of their seconds per unit of `work`, times the
  new settings' work (a demo's `work(params)` says how its cost grows: steps × lengths × seeds, ...);
- no run of the demo on this device yet: the server's speed test (`engine/calibration.py`: the
  seconds of one unit of work) times the settings' work, corrected by how this server's recent
  runs of other demos compared with their own such figures (a busier machine, a GPU that suits
  some demos more than the test); no estimate only when the speed test has no figure either.

A run's work is taken before it starts (a demo that reuses a kept model costs less once that
model exists) and written down with its time.

Demos that stop once a model has solved its task often take less than the estimate, which is
meant as "up to about". Every server process appends to the same file (one short line per run,
written with O_APPEND) and rereads it when it has grown.
"""
import json
import logging
import os
import statistics
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable

from demos.shared.words import count

log = logging.getLogger(__name__)
RECENT = 5  # the runs with other settings an estimate is scaled from: the most recent few


@dataclass(frozen=True)
class Estimate:
    seconds: float
    basis: str  # in plain words, for the slide: where the figure comes from

    def as_json(self) -> dict:
        return {"seconds": round(self.seconds, 2), "basis": self.basis}


def work(demo: ModuleType, params: dict) -> float:
    """The demo's own measure of how much a run with `params` costs (1 if it has none)."""
    measure = getattr(demo, "work", None)
    return max(float(measure(params)), 1e-9) if measure else 1.0


class Timings:
    def __init__(self, directory: Path | None):
        self.path = Path(directory) / "timings.jsonl" if directory else None
        self.runs: list[dict] = []
        self.read_bytes = 0  # how much of the file is in `runs`
        self.lock = threading.Lock()

    def record(self, demo: ModuleType, device: str, params: dict, seconds: float, cost: float | None = None) -> None:
        """Write down a run; `cost`: its `work`, as taken before it started (else taken now)."""
        run = {"demo": demo.ID, "device": device, "params": params, "seconds": round(seconds, 3),
               "cost": work(demo, params) if cost is None else cost}
        with self.lock:
            if self.path is None:
                self.runs.append(run)
                return
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                line = (json.dumps(run, separators=(",", ":")) + "\n").encode()
                descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    os.write(descriptor, line)
                finally:
                    os.close(descriptor)
            except OSError as error:
                log.warning("cannot write %s (%s): keeping timings in memory", self.path, error)
                self.path = None
                self.runs.append(run)

    def estimate(self, demo: ModuleType, device: str, params: dict,
                 speed_test: Callable[[], float | None] = lambda: None) -> Estimate | None:
        """How long a run will take; `speed_test()`: the seconds of a unit of work, asked for (it may
        wait for the test) only for a demo never run here."""
        on_device = [run for run in self._read() if run["device"] == device]
        runs = [run for run in on_device if run["demo"] == demo.ID]
        same = [run["seconds"] for run in runs if run["params"] == params]
        if same:
            return Estimate(statistics.median(same), f"{count(len(same), 'earlier run')} with these settings")
        scalable = [run for run in runs if run.get("cost")][-RECENT:]  # older records had no `cost`
        if scalable:
            per_unit = statistics.median(run["seconds"] / run["cost"] for run in scalable)
            return Estimate(per_unit * work(demo, params), f"scaled from {count(len(scalable), 'earlier run')} with other settings")
        unit_seconds = speed_test()
        if unit_seconds is None:
            return None
        others = [run for run in on_device if run.get("cost")][-RECENT:]
        if not others:
            return Estimate(unit_seconds * work(demo, params), "a speed test, as this demo has not run here yet")
        # A ratio of sums: the longer runs, whose times say most about this machine, weigh most.
        pace = sum(run["seconds"] for run in others) / sum(run["cost"] * unit_seconds for run in others)
        return Estimate(pace * unit_seconds * work(demo, params),
                        f"a speed test and the {count(len(others), 'latest run')} of other demos, "
                        "as this demo has not run here yet")

    def _read(self) -> list[dict]:
        with self.lock:
            if self.path is None:
                return list(self.runs)
            try:
                with open(self.path, "rb") as file:
                    file.seek(self.read_bytes)
                    new = file.read()
            except FileNotFoundError:
                return list(self.runs)
            complete = new[:new.rfind(b"\n") + 1]  # a line still being written waits for the next read
            self.read_bytes += len(complete)
            for line in complete.splitlines():
                try:
                    self.runs.append(json.loads(line))
                except ValueError:
                    log.warning("skipping an unreadable line of %s", self.path)
            return list(self.runs)

