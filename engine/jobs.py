"""A training job: its state, its progress reports, and a way to wait for the next change.

The demo's thread calls `report` (often: every step); listeners (the JSON endpoint, event
streams) read `snapshot` and `wait_for_change`. Reports are published at most ten times a
second, so a fast loop does not wake every listener on every step.
"""
import json
import secrets
import threading
import time
from typing import Callable

TERMINAL = ("done", "failed")
PUBLISH_INTERVAL = 0.1  # seconds


class Job:
    def __init__(self, demo_id: str, params: dict, key: str, force: bool = False,
                 on_publish: Callable[["Job"], None] | None = None):
        self.id = secrets.token_hex(8)
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
        self.version = 0  # grows with every published change
        self._pending_data = None
        self._last_publish = 0.0
        self._changed = threading.Condition()
        self._on_publish = on_publish  # e.g. post the job on the board for other server processes

    @property
    def finished(self) -> bool:
        return self.status in TERMINAL

    # ---- called by the worker thread

    def report(self, fraction: float, message: str, data: dict | None = None) -> None:
        """The demo's progress callback."""
        self.progress = max(0.0, min(1.0, float(fraction)))
        self.message = str(message)
        if data is not None:
            self._pending_data = data
        now = time.monotonic()
        if now - self._last_publish >= PUBLISH_INTERVAL:
            self._last_publish = now
            self._publish()

    def start(self) -> None:
        self._publish(status="running", message="starting")

    def finish(self, result: dict, cached: bool) -> None:
        self._pending_data = None
        self._publish(result=result, cached=cached, status="done", progress=1.0, message="done")

    def fail(self, error: str) -> None:
        self._publish(error=error, status="failed", message="failed")

    def _publish(self, **changes) -> None:
        """Apply `changes` at once (a listener never sees half of them) and wake the listeners."""
        if self._pending_data is not None:
            changes["data"] = json.loads(json.dumps(self._pending_data))  # a deep copy, checked to be JSON-safe
            self._pending_data = None
        with self._changed:
            for name, value in changes.items():
                setattr(self, name, value)
            self.version += 1
            self._changed.notify_all()
        if self._on_publish is not None:
            self._on_publish(self)

    # ---- called by listeners

    def brief(self) -> dict:
        """Where the job stands, without its data or result."""
        return {"job": self.id, "demo": self.demo_id, "status": self.status,
                "progress": round(self.progress, 4), "message": self.message}

    def snapshot(self) -> dict:
        """The job as the API shows it: status, progress, message, and data, result or error."""
        with self._changed:
            state = self.brief()
            if self.status == "done":
                state.update(cached=self.cached, result=self.result)
            elif self.status == "failed":
                state["error"] = self.error
            elif self.data is not None:
                state["data"] = self.data
            return state

    def wait_for_change(self, seen_version: int, timeout: float) -> int:
        """Block until the job changes after `seen_version` (or `timeout` passes); return the version now."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > seen_version, timeout=timeout)
            return self.version


class RemoteJob:
    """A job that another server process runs, seen through the notice it posts on the board."""

    def __init__(self, board, job_id: str):
        self.board = board
        self.id = job_id
        self.notice = notice_name(job_id)

    def snapshot(self) -> dict:
        return self.board.read(self.notice)[1]

    @property
    def finished(self) -> bool:
        return self.snapshot()["status"] in TERMINAL

    def wait_for_change(self, seen_version: int, timeout: float) -> int:
        return self.board.wait(self.notice, seen_version, timeout)[0]


def notice_name(job_id: str) -> str:
    return f"job-{job_id}"
