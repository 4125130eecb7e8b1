"""A training job: its state, its progress reports, and a way to wait for the next change.

The demo's thread calls `report` (often: every step); listeners (the JSON endpoint, event
streams) read `snapshot` and `wait_for_change`. Reports are published at most ten times a
second, so a fast loop does not wake every listener on every step.

A job can be stopped before it finishes: cancelled by whoever started it or the instructor, by
its last watcher leaving, by its time limit, or to let the lecturer's run go first. `check_stop`
raises `JobStopped` in the demo's thread at its next training step (the training core asks at
every step) or progress report; nothing it computed is cached. A stopped job ends `cancelled`, and
its `stopped_by` says which of those it was (data for the page, beside the sentence for people).
"""
import json
import re
import secrets
import threading
import time
from contextlib import contextmanager
from typing import Callable

from engine import notices
from engine.liveness import Heartbeat, Liveness

TERMINAL = ("done", "failed", "cancelled")
JOB_ID = re.compile(r"^[0-9a-f]{16}$")  # what `Job.id` looks like
PUBLISH_INTERVAL = 0.1  # seconds
STOP_CHECK_INTERVAL = 0.25  # seconds between looks at requests to stop made by other processes
UNWATCHED_GRACE = 3.0  # seconds a job nobody watches keeps running: a reloaded page reconnects within them
# What stopped a job before it finished (its `stopped_by`): Cancel (whoever started it, or the
# instructor), its last watcher leaving, its time limit, or a run of the lecturer's going first.
STOPPED_BY = ("cancel", "unwatched", "time_limit", "lecturer")
UNWATCHED = "Cancelled: nobody was watching it any more."


class JobStopped(Exception):
    """The job was stopped before it finished; the message says why, in plain words, and `by` is
    one of STOPPED_BY."""

    def __init__(self, message: str, by: str = "cancel"):
        super().__init__(message)
        self.by = by


class TimeLimitReached(JobStopped):
    def __init__(self, seconds: float, student: bool = True):
        who = "a student's run" if student else "a run (the instructor's time limit)"
        super().__init__(f"Stopped after {seconds:.0f} s, the longest {who} may take. "
                         + ("Choose smaller settings, or ask the lecturer to run it." if student else
                            "Choose smaller settings, or compute it before the lecture with flask --app app warm."),
                         by="time_limit")


def remaining_seconds(expected: float | None, elapsed: float, fraction: float,
                      first: tuple[float, float] | None = None) -> float | None:
    """How long a job still needs: from the estimate at first, from its own pace as it gets on.

    The pace is measured from `first`, the (elapsed, fraction) of its first progress report, so
    that the setup before it (loading a corpus, building models) is not taken for slow training.
    It is trusted slowly (as the square of the share done since): most demos stop a model once
    it has solved its task, so the steps still to go overstate what is left, while the estimate
    comes from whole runs. Once the run has outlasted its estimate, only the pace counts. The
    widget counts the figure down between reports (static/js/demos/estimate.js)."""
    by_pace = None
    if first is not None:
        took, done = elapsed - first[0], fraction - first[1]
        if done >= 0.05 and took >= 1:
            by_pace = took / done * (1 - fraction)
    if expected is None or (by_pace is not None and elapsed > expected):
        return by_pace
    by_estimate = max(expected - elapsed, 0.0)
    if by_pace is None:
        return by_estimate
    trust = ((fraction - first[1]) / (1 - first[1])) ** 2  # the pace says more the further the job has got
    return (1 - trust) * by_estimate + trust * by_pace


class Job:
    def __init__(self, demo_id: str, params: dict, key: str, force: bool = False,
                 on_publish: Callable[["Job"], None] | None = None, time_limit: float | None = None,
                 expected: float | None = None, student: bool = False, job_id: str | None = None,
                 cancel_token: str | None = None):
        self.id = job_id or secrets.token_hex(8)  # given: a job another process enqueued for this one to run
        self.cancel_token = cancel_token or secrets.token_hex(16)  # given only to whoever started the job
        self.student = student
        self.demo_id = demo_id
        self.params = params
        self.key = key
        self.force = force
        self.created = time.time()
        self.status = "queued"
        self.progress = 0.0
        self.message = "waiting for its turn"
        self.data: dict | None = None  # the latest partial result (a copy the demo cannot change)
        self.result: dict | None = None
        self.cached = False  # finished by reading another process's result rather than training
        self.error: str | None = None
        self.stopped_by: str | None = None  # a cancelled job: what stopped it (one of STOPPED_BY)
        self.version = 0  # grows with every published change
        self._pending_data = None
        self._last_publish = 0.0
        self._flush_timer: threading.Timer | None = None
        self._changed = threading.Condition()
        self._on_publish = on_publish  # e.g. post the job on the board for other server processes
        self.time_limit = time_limit  # seconds of running before the job is stopped (None: no limit)
        self.started: float | None = None
        self.started_version = 0  # the board's version at its start: later posts (a lecturer's run) have greater ones
        self.expected = expected  # the estimate of its running time, in seconds, if there was one
        self.first_report: tuple[float, float] | None = None  # (elapsed, fraction) when progress began
        self.stop_reason: str | None = None  # set: the job stops at its next report...
        self.stop_by = "cancel"  # ...stopped by this (one of STOPPED_BY)
        self.should_stop: Callable[["Job"], tuple[str, str] | None] | None = None  # asks the board: (reason, by)
        self._last_stop_check = 0.0
        self.watchers = 0  # open event streams following this job in this process
        self.on_unwatched: Callable[["Job"], None] | None = None  # its last watcher left
        self.watched_elsewhere: Callable[["Job"], bool] | None = None  # do other processes' streams follow it?

    @property
    def finished(self) -> bool:
        return self.status in TERMINAL

    # ---- called by the worker thread

    def report(self, fraction: float, message: str, data: dict | None = None) -> None:
        """The demo's progress callback. Published at once, or at the end of the current
        interval if one was published just now (so the last report is never left unseen).
        Raises JobStopped once the job was asked to stop or has run longer than its time limit."""
        self.check_stop()
        with self._changed:
            self.progress = max(0.0, min(1.0, float(fraction)))
            if self.first_report is None and self.progress > 0:
                self.first_report = (time.monotonic() - self.started, self.progress)
            self.message = str(message)
            if data is not None:
                self._pending_data = data
            wait = self._last_publish + PUBLISH_INTERVAL - time.monotonic()
            if wait > 0:
                if self._flush_timer is None:
                    self._flush_timer = threading.Timer(wait, self._flush)
                    self._flush_timer.daemon = True
                    self._flush_timer.start()
                return
        self._publish()

    def check_stop(self) -> None:
        """Raise JobStopped if someone asked this job to stop, or its time is up."""
        now = time.monotonic()
        if self.stop_reason is None and self.should_stop is not None and now - self._last_stop_check >= STOP_CHECK_INTERVAL:
            self._last_stop_check = now
            request = self.should_stop(self)
            if request is not None:
                self.stop_reason, self.stop_by = request
        if self.stop_reason is not None:
            raise JobStopped(self.stop_reason, self.stop_by)
        if self.time_limit is not None and now - self.started > self.time_limit:
            raise TimeLimitReached(self.time_limit, self.student)

    def _flush(self) -> None:
        with self._changed:
            self._flush_timer = None
            if self.finished:
                return
        self._publish()

    def start(self, board_version: int = 0) -> None:
        """Running from now; `board_version`: the board's current version (Board.current_version)."""
        self.started = time.monotonic()
        self.started_version = board_version
        self._publish(status="running", message="starting")

    def finish(self, result: dict, cached: bool) -> None:
        self._publish(result=result, cached=cached, status="done", progress=1.0, message="done", _pending_data=None)

    def fail(self, error: str) -> None:
        self._publish(error=error, status="failed", message="failed", _pending_data=None)

    def cancelled(self, reason: str, by: str) -> None:
        self._publish(error=reason, stopped_by=by, status="cancelled", message="cancelled", _pending_data=None)

    def _publish(self, **changes) -> None:
        """Apply `changes` at once (a listener never sees half of them) and wake the listeners."""
        with self._changed:
            if self._pending_data is not None and "_pending_data" not in changes:
                try:  # a deep copy the demo cannot change, checked to be JSON-safe
                    changes["data"] = json.loads(json.dumps(self._pending_data, allow_nan=False))
                except ValueError:
                    pass  # partial data with NaN in it: keep showing the last good one
                changes["_pending_data"] = None
            for name, value in changes.items():
                setattr(self, name, value)
            self._last_publish = time.monotonic()
            self.version += 1
            self._changed.notify_all()
        if self._on_publish is not None:
            self._on_publish(self)

    # ---- called by listeners

    def brief(self) -> dict:
        """Where the job stands, without its data or result: with its expected time and, while it
        runs, the seconds it has run and an estimate of those left."""
        state = {"job": self.id, "demo": self.demo_id, "status": self.status,
                 "progress": round(self.progress, 4), "message": self.message}
        if self.expected is not None:
            state["expected_seconds"] = round(self.expected, 1)
        if self.status == "running":
            elapsed = time.monotonic() - self.started
            state["elapsed_seconds"] = round(elapsed, 1)
            left = remaining_seconds(self.expected, elapsed, self.progress, self.first_report)
            if left is not None:
                state["eta_seconds"] = round(left, 1)
        return state

    def snapshot(self) -> dict:
        """The job as the API shows it: status, progress, message, and data, result or error."""
        with self._changed:
            state = self.brief()
            if self.status == "done":
                state.update(cached=self.cached, result=self.result)
            elif self.status in ("failed", "cancelled"):
                state["error"] = self.error
                if self.stopped_by is not None:
                    state["stopped_by"] = self.stopped_by
            elif self.data is not None:
                state["data"] = self.data
            return state

    def wait_for_change(self, seen_version: int, timeout: float) -> int:
        """Block until the job changes after `seen_version` (or `timeout` passes); return the version now."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > seen_version, timeout=timeout)
            return self.version

    @contextmanager
    def watched(self):
        """Count an event stream following this job; when the last one has gone for a few
        seconds (a closed tab, not a reload), tell `on_unwatched`."""
        with self._changed:
            self.watchers += 1
        try:
            yield
        finally:
            with self._changed:
                self.watchers -= 1
                nobody = self.watchers == 0 and not self.finished
            if nobody and self.on_unwatched is not None:
                self._look_again_later()

    def _look_again_later(self) -> None:
        timer = threading.Timer(UNWATCHED_GRACE, self._still_unwatched)
        timer.daemon = True
        timer.start()

    def _still_unwatched(self) -> None:
        if self.watchers or self.finished or self.on_unwatched is None:
            return
        if self.watched_elsewhere is not None and self.watched_elsewhere(self):
            self._look_again_later()  # a page reloaded onto another server process follows it there
            return
        self.on_unwatched(self)


_remote_watchers: dict[str, int] = {}  # watchers notice → this process's streams following another process's job
_remote_lock = threading.Lock()
OWNER_GONE = "The server process running this job stopped before it finished. Press Run again."
LOST_FROM_QUEUE = "lost"  # what `taken_by` says of a job the worker's queue does not have (no process id looks so)
NO_WORKER = ("waiting for a training worker, and none is running: start one on the machine that trains "
             "(flask --app app worker)")


class RemoteJob:
    """A job that another server process runs, seen through the notice it posts on the board."""

    def __init__(self, board, job_id: str, heartbeat: Heartbeat, liveness: Liveness,
                 workers_running: Callable[[], bool] | None = None, taken_by: Callable[[str], str | None] | None = None):
        self.board = board
        self.id = job_id
        self.notice = notices.job(job_id)
        self.heartbeat = heartbeat  # this process's: beats while its streams follow the job
        self.liveness = liveness
        self.workers_running = workers_running  # whether a training worker beats (FLASK_TRAINING=worker)
        self.taken_by = taken_by  # which worker took a job off the queue (engine.training_queue.TrainingQueue)

    def snapshot(self) -> dict:
        notice = self.board.read(self.notice)[1]
        state = notice["snapshot"]
        owner = self._owner(notice)
        if self._gone(state, owner):
            # Its server process (or the worker that took it) was killed: say so, rather than "running" forever.
            return {**state, "status": "failed", "message": "failed", "error": OWNER_GONE}
        if owner is None and self.workers_running is not None and not self.workers_running():
            return {**state, "message": NO_WORKER}
        return state

    def _owner(self, notice: dict) -> str | None:
        """The id of the process that holds the job: the one that posted it, or, for a job its notice
        says is on the training worker's queue, the worker that took it from there; None while it waits."""
        if not notice.get("in_queue"):
            return notice.get("process", "")
        # The worker posts the job running only once it has it: asking the queue covers a worker killed
        # in between, and a queue that lost the job (a Redis restarted without its data: LOST_FROM_QUEUE).
        return self.taken_by(self.id) if self.taken_by is not None else None

    def _gone(self, state: dict, owner: str | None) -> bool:
        """Whether the job is unfinished but its `owner` no longer beats (or never will: lost from the queue)."""
        return (state["status"] not in TERMINAL and owner is not None
                and (owner == LOST_FROM_QUEUE or not self.liveness.alive(owner)))

    @property
    def finished(self) -> bool:
        return self.status in TERMINAL

    @property
    def status(self) -> str:
        return self.snapshot()["status"]

    @property
    def demo_id(self) -> str:
        return self.snapshot()["demo"]

    def brief(self) -> dict:
        """Where the job stands, as Job.brief says it: the snapshot without its data, result or error."""
        return {name: value for name, value in self.snapshot().items()
                if name not in ("data", "result", "cached", "error", "stopped_by")}

    @contextmanager
    def watched(self):
        """Count this process's streams following the job where the process that runs it looks
        before cancelling it for want of watchers (a reloaded page may reconnect to any process)."""
        with self.heartbeat.held():  # the count stands only while this process beats
            self._count_watchers(+1)
            try:
                yield
            finally:
                self._count_watchers(-1)

    def _count_watchers(self, change: int) -> None:
        name = notices.watchers(self.id, self.heartbeat.process_id)
        with _remote_lock:
            count = _remote_watchers.pop(name, 0) + change
            if count:
                _remote_watchers[name] = count
            self.board.write(name, {"process": self.heartbeat.process_id, "count": count})

    def wait_for_change(self, seen: tuple[int, bool] | int, timeout: float) -> tuple[int, bool]:
        """Block until the job's notice changes after `seen`, or `timeout` passes; returns (the notice's
        version, whether its process is gone), so that a stream hears of that end too, which no notice
        tells. (A notice that changed was posted by its process just now: no need to ask.)"""
        seen_version = seen[0] if isinstance(seen, tuple) else seen
        version, notice = self.board.wait(self.notice, seen_version, timeout)
        return version, version == seen_version and self._gone(notice["snapshot"], self._owner(notice))

    @property
    def cancel_token(self) -> str:
        """The secret that lets whoever started the job cancel it, as its process posted it."""
        return self.board.read(self.notice)[1].get("cancel_token", "")

