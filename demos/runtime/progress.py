"""Progress: a bar for terminals (`python -m demos`, `flask warm`), dividing one run's bar between
its parts, and the question a training loop asks at every step: should I stop?"""
import contextvars
import shutil
import threading
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable

# Raises if the run should stop (cancelled, out of time); set by whoever runs the demo (the engine).
# A context variable, so that two runs in two threads never see each other's; the training core
# hands it on to the threads it trains in.
_stop_check: ContextVar[Callable[[], None] | None] = ContextVar("stop_check", default=None)


def check_stop() -> None:
    """Called by training loops at every step (cheap): raises the runner's exception to stop the run."""
    check = _stop_check.get()
    if check is not None:
        check()


@contextmanager
def stopping_with(check: Callable[[], None] | None):
    """Within the block, `check_stop()` calls `check`."""
    token = _stop_check.set(check)
    try:
        yield
    finally:
        _stop_check.reset(token)


def in_threads(work: Callable, items: list, workers: int, name: str = "work") -> list:
    """`work(item)` for every item, in up to `workers` threads that each see the run's stop request
    (each runs in a copy of this context); the results in order. A failure, or a stop, in any thread
    is raised here."""
    with ThreadPoolExecutor(max(1, min(len(items), workers)), thread_name_prefix=name) as pool:
        return [done.result() for done in [pool.submit(contextvars.copy_context().run, work, item) for item in items]]


class ProgressBar:
    """One line on stderr, redrawn at most ten times a second:
    [#########---------------------]  30%  step 90/300, loss 1.92"""

    WIDTH = 30
    INTERVAL = 0.1  # seconds between redraws

    def __init__(self, label: str = "", stream=None):
        self.label = label
        self.stream = stream or sys.stderr  # the stderr of now, not of import time (a caller may redirect it)
        self.last_draw = 0.0

    def __call__(self, fraction: float, message: str, data=None) -> None:
        now = time.monotonic()
        if now - self.last_draw < self.INTERVAL and fraction < 1:
            return
        self.last_draw = now
        fraction = max(0.0, min(1.0, fraction))
        filled = round(self.WIDTH * fraction)
        columns = shutil.get_terminal_size((100, 20)).columns
        line = f"{self.label}[{'#' * filled}{'-' * (self.WIDTH - filled)}] {fraction:4.0%}  {message}"
        self.stream.write("\r" + line[: columns - 1].ljust(columns - 1))
        self.stream.flush()

    def close(self) -> None:
        if self.last_draw:
            self.stream.write("\n")
            self.stream.flush()


def share(progress, start: float, end: float):
    """`progress` for one part of a run: the part's 0 to 1 drawn from `start` to `end` of the whole bar."""
    return lambda fraction, message, data=None: progress(start + (end - start) * fraction, message, data)


def part(progress, index: int, count: int):
    """`progress` for part `index` of `count` equal parts of a run (index counts from 0)."""
    return share(progress, index / count, (index + 1) / count)


class Tally:
    """One progress bar for several models trained together: the share of all their steps done.

    `update(key, step, finished, message)` is called by each model's run (from any thread); a
    model that stops early counts as done. With `partial`, each report also carries the whole
    partial result so far (built at most a few times a second)."""

    DATA_INTERVAL = 0.25  # seconds between partial results

    def __init__(self, progress, totals: dict, partial=None, weights: dict | None = None):
        self.progress, self.totals, self.partial = progress, dict(totals), partial
        self.weights = weights or dict.fromkeys(totals, 1)  # a step's cost, when models' steps differ
        self.done = dict.fromkeys(totals, 0)
        self.lock = threading.Lock()
        self.last_data = 0.0

    def update(self, key, step: int, finished: bool, message: str) -> None:
        with self.lock:
            self.done[key] = self.totals[key] if finished or step >= self.totals[key] else step
            fraction = (sum(self.weights[key] * done for key, done in self.done.items())
                        / max(1, sum(self.weights[key] * total for key, total in self.totals.items())))
            data = None
            if self.partial is not None and (time.monotonic() - self.last_data > self.DATA_INTERVAL or fraction >= 1):
                data, self.last_data = self.partial(), time.monotonic()
            self.progress(fraction, message, data)
