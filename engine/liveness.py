"""Whether a server process still runs, told by its heartbeat on the board (engine/board.py).

A process that others depend on (it runs jobs they follow, or counts streams that follow their
jobs) re-posts its heartbeat notice every lease / BEATS_PER_LEASE seconds. Another process takes it
for gone once that notice's version has stayed the same for a whole lease, timed by its own
monotonic clock from when it first saw that version: no two processes' clocks are ever compared, so
it works across machines, and a process id is a random one, which no later process reuses (a PID is
per machine, and reused).
"""
import threading
import time
import uuid
from collections.abc import Hashable, Iterator
from contextlib import contextmanager

from engine import notices
from engine.board import Board, BoardUnavailable

LEASE_SECONDS = 5.0  # a heartbeat unchanged for this long, as the reader times it, is a process gone
BEATS_PER_LEASE = 5  # so it beats every second: a late beat or two (a busy machine) is no death


class Heartbeat:
    """This process's heartbeat: posted while anything holds it, from a daemon thread."""

    def __init__(self, board: Board, lease_seconds: float = LEASE_SECONDS):
        self.board = board
        self.process_id = uuid.uuid4().hex  # what this process's notices name it by
        self.notice = notices.alive(self.process_id)
        self.interval = lease_seconds / BEATS_PER_LEASE
        self.holders: set[Hashable] = set()  # what needs the beat: a job's id, an open stream
        self.beating = False  # the thread runs
        self.lock = threading.Lock()

    def hold(self, holder: Hashable) -> None:
        """Beat while `holder` needs it. The first holder beats at once: another process may remember
        this one's last beat from long ago, and must not take it for gone."""
        with self.lock:
            first = not self.holders
            self.holders.add(holder)
            if first:
                self._post()
            if not self.beating:
                self.beating = True
                threading.Thread(target=self._beat, name="heartbeat", daemon=True).start()

    def release(self, holder: Hashable) -> None:
        """`holder` needs the beat no more (a second release changes nothing)."""
        with self.lock:
            self.holders.discard(holder)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Beat during the block."""
        holder = object()
        self.hold(holder)
        try:
            yield
        finally:
            self.release(holder)

    def _beat(self) -> None:
        while True:
            time.sleep(self.interval)
            with self.lock:
                if not self.holders:
                    self.beating = False
                    return
                self._post()

    def _post(self) -> None:
        try:
            self.board.write(self.notice, {})
        except BoardUnavailable:
            pass  # beat again next time: a beat missed while the board was away is no death, and the thread must live


class Liveness:
    """Which other processes still beat, as this process sees them."""

    def __init__(self, board: Board, lease_seconds: float = LEASE_SECONDS):
        self.board = board
        self.lease_seconds = lease_seconds
        self.seen: dict[str, tuple[int, float]] = {}  # process id → (heartbeat's version, monotonic time first seen)
        self.lock = threading.Lock()

    def alive(self, process_id: str) -> bool:
        """False once `process_id`'s heartbeat has not changed for a lease since this process first
        saw it, or there has been none for a lease since this process first asked."""
        version = self.board.read(notices.alive(process_id))[0]
        now = time.monotonic()
        with self.lock:
            seen = self.seen.get(process_id)
            if seen is None or seen[0] != version:
                self.seen[process_id] = (version, now)
                return True
            return now - seen[1] <= self.lease_seconds
