"""The class's answers to each slide's poll, kept on disk and shared by every server process.

A poll's record is one small JSON file, `<cache>/polls/<demo>.json`: whether it is open and each
voter's choice (`{"open": bool, "answers": {voter id: choice index}}`). Every change reads,
changes and rewrites the record under a file lock, so answers sent to different processes at
the same moment are all kept, each once; the file is written whole or not at all. After each
change the counts go up on the board as the notice `poll-<demo>`, which wakes every process's
event streams. Without a folder the records live in this process's memory.
"""
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock

from demos.runtime.files import atomic_write_bytes
from engine.board import Board

CLOSED = {"open": False, "answers": {}}
LOCK_POLL_SECONDS = 0.002


def notice(demo_id: str) -> str:
    return f"poll-{demo_id}"


def tally(record: dict, n_choices: int) -> dict:
    """What everyone may see of a record: open or not, and how many chose each choice."""
    counts = [0] * n_choices
    for choice in record["answers"].values():
        if 0 <= choice < n_choices:
            counts[choice] += 1
    return {"open": record["open"], "counts": counts, "total": sum(counts)}


class PollStore:
    def __init__(self, directory: Path | None, board: Board):
        self.directory = Path(directory) / "polls" if directory else None
        self.board = board
        self.memory: dict[str, dict] = {}  # demo → record, when there is no folder
        self.lock = threading.Lock()

    def path(self, demo_id: str) -> Path:
        return self.directory / f"{demo_id}.json"

    def record(self, demo_id: str) -> dict:
        if self.directory is None:
            return self.memory.get(demo_id, CLOSED)
        try:
            return json.loads(self.path(demo_id).read_bytes())
        except FileNotFoundError:
            return CLOSED

    @contextmanager
    def locked(self, demo_id: str) -> Iterator[None]:
        """One change at a time: in this process (a thread lock), and across processes (a file lock)."""
        with self.lock:
            if self.directory is None:
                yield
                return
            self.directory.mkdir(parents=True, exist_ok=True)
            # Held for a few milliseconds, so ask again every 2 ms, not filelock's default 50 ms:
            # a class answering at once would otherwise queue for tenths of a second.
            with FileLock(self.directory / f".{demo_id}.lock").acquire(poll_interval=LOCK_POLL_SECONDS):
                yield

    def change(self, demo_id: str, n_choices: int, update: Callable[[dict], None]) -> dict:
        """Apply `update` to a copy of the record, save it, post the new counts; returns the record."""
        with self.locked(demo_id):
            current = self.record(demo_id)
            record = {"open": current["open"], "answers": dict(current["answers"])}
            update(record)
            if self.directory is None:
                self.memory[demo_id] = record
            else:
                # Whole or not at all, without waiting for the disk (fsync) inside the lock: a class
                # answering at once queues behind each write.
                atomic_write_bytes(self.path(demo_id), json.dumps(record, separators=(",", ":")).encode(), durable=False)
            self.board.write(notice(demo_id), tally(record, n_choices))
        return record

    def counts(self, demo_id: str, n_choices: int) -> tuple[int, dict]:
        """(board version, counts): from the board, which every change updates, else from the record."""
        version, counts = self.board.read(notice(demo_id))
        if counts is None or len(counts["counts"]) != n_choices:  # never posted, or the slide's choices changed
            counts = tally(self.record(demo_id), n_choices)
        return version, counts
