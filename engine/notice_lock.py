"""One change at a time to a notice on the engine's board, across threads and server processes.

A store (the polls, the questions) reads a notice, changes it and posts it back while holding the
notice's lock: a thread lock in this process and a file lock beside the board for the others, so
two changes sent to different processes at the same moment are both kept.
"""
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from filelock import FileLock

from engine.board import Board

LOCK_POLL_SECONDS = 0.002
_thread_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def _thread_lock(name: str) -> threading.Lock:
    with _guard:
        return _thread_locks.setdefault(name, threading.Lock())


@contextmanager
def changing(board: Board, name: str) -> Iterator[None]:
    """Hold notice `name` of `board` for one read-change-post."""
    with _thread_lock(f"{board.directory}/{name}"):  # apps on other boards (tests) do not wait for this one
        if board.directory is None:  # the board lives in this process's memory only
            yield
            return
        board.directory.mkdir(parents=True, exist_ok=True)
        # Held for a millisecond or two, so ask again every 2 ms, not filelock's default 50 ms:
        # a class answering at once would otherwise queue for tenths of a second.
        with FileLock(board.directory / f".{name}.lock").acquire(poll_interval=LOCK_POLL_SECONDS):
            yield
