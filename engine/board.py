"""The notice board: small JSON documents ("notices") that every server process of a room posts,
reads and waits on (jobs, follow mode, the pointer, polls, questions, heartbeats).

`Board` is all the rest of the code may ask of one, whichever kind keeps the notices:

- the files of the cache folder (engine/file_board.py), the default, with nothing to install;
- a Redis server (engine/redis_board.py), chosen by one setting, `FLASK_REDIS_URL`, for server
  processes that share no folder, or that should not rewrite files to talk.

`open_board` makes the one the settings ask for; nothing else knows which it has.

Whichever kind it is, a notice's version is a count, not a time: every post, by any process, has a
greater version than every earlier post on the board. Each process keeps its own view of the notices
(the newest version of each it has posted or read) and never goes back to an older one, so readers
and waiters compare versions, never clocks.

A notice may also be a map (`write_field`, `clear`): its value is `{field: value}`, changed one field
at a time, so that a class's answers are each one small change rather than a rewrite of every answer.
It is read and waited on like any notice; a name is used as a map or as a plain notice, never both.
"""
import threading
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path


class BoardUnavailable(Exception):
    """The board's shared store cannot be reached (Redis down): the request may be tried again soon.
    A board never falls back to its process's memory then: two servers would disagree without knowing."""


class Board(ABC):
    """The interface, and this process's view of the notices with its waits, which every kind shares.
    A kind says how to post and fetch one notice, how to notice others' posts, and the rest of the
    interface (`names`, `remove_older_than`, `changing`)."""

    def __init__(self):
        self.memory: dict[str, tuple[int, object]] = {}  # name → (version, value), this process's view
        self.newest = 0  # the greatest version this process has posted or read
        self.lock = threading.Lock()
        # One condition per set of notices waited on together (most waits are on one), all over the same
        # lock: a change wakes only those waiting on that notice (a class's poll answers do not wake
        # every follow-mode stream, which waits on the follow state and the lecturer's pointer).
        self.conditions: dict[tuple[str, ...], threading.Condition] = {}
        self.waiting_on: dict[str, list[threading.Condition]] = {}  # name → the conditions that include it
        self.watched: set[str] = set()  # the names someone in this process has waited on

    # ---- the interface

    def write(self, name: str, value) -> int:
        """Post `value` (JSON-safe) under `name` for every process; returns its version, greater than
        that of every earlier post on this board, by any process."""
        version = self._post(name, value)
        with self.lock:
            if version is None:  # the board lives in this process's memory
                version = self.newest + 1
            self._keep(name, version, value)
        return version

    def write_field(self, name: str, field: str, value, only_while: tuple[str, str] | None = None) -> int | None:
        """Set one field of map notice `name` to `value` (JSON-safe; None removes the field), for every
        process; returns the map's new version. Writes of different fields never undo each other.
        `only_while` (notice, key): only while that notice's value has `key` true, checked in the same
        step as the write, so that no change of that notice comes between (a poll's answer lands only
        while the poll is open, never a moment after its Close); else nothing is written and it returns
        None. This one rewrites the whole map under its lock, and checks the guard under that notice's
        lock, taken first: it holds against changes made under that lock (`changing`, as PollStore
        changes a poll). A kind may do better: Redis checks and writes in one script."""
        with self.changing(only_while[0]) if only_while else nullcontext(), self.changing(name):
            if only_while and not (self.read(only_while[0], {})[1] or {}).get(only_while[1]):
                return None
            fields = dict(self.read(name, {})[1])
            if value is None:
                fields.pop(field, None)
            else:
                fields[field] = value
            return self.write(name, fields)

    def clear(self, name: str) -> int:
        """Remove every field of map notice `name`; returns its new version."""
        with self.changing(name):  # not in the middle of another process's write_field, which would undo it
            return self.write(name, {})

    def read(self, name: str, default=None) -> tuple[int, object]:
        """(version, value) of the newest post of `name` this process knows, asking the store first;
        (0, `default`) if nothing was ever posted."""
        self._refresh(name)
        with self.lock:
            return self.memory.get(name, (0, default))

    def wait(self, name: str, seen_version: int, timeout: float, default=None) -> tuple[int, object]:
        """Block until `name` has a version newer than `seen_version`, or `timeout` passes."""
        return self.wait_any({name: seen_version}, timeout, default)[name]

    def wait_any(self, seen: dict[str, int], timeout: float, default=None) -> dict[str, tuple[int, object]]:
        """Block until any notice of `seen` (name → the version seen last) has a newer version, posted
        by any process, or `timeout` passes; returns each one's (version, value), as this process has
        them now."""
        self._watch(seen)
        with self.lock:
            self._condition(tuple(seen)).wait_for(
                lambda: any(self.memory.get(name, (0, None))[0] > version for name, version in seen.items()),
                timeout=timeout)
            return {name: self.memory.get(name, (0, default)) for name in seen}

    def current_version(self) -> int:
        """The version of the latest post on this board by any process: every later post's is
        greater (a job notes it when it starts, to know which posts came after)."""
        stored = self._last_version()
        with self.lock:
            return max(stored, self.newest)

    @abstractmethod
    def names(self, prefix: str) -> list[str]:
        """The names of the notices that start with `prefix`, posted by any process, sorted."""

    @abstractmethod
    def remove_older_than(self, prefix: str, seconds: float) -> None:
        """Delete notices named `prefix...` not posted for `seconds` (finished jobs' notices)."""

    @abstractmethod
    def changing(self, name: str) -> AbstractContextManager[None]:
        """Hold notice `name` for one read-change-post, against every thread and process: a store (the
        polls, the questions) reads it, changes it and posts it back inside `with board.changing(name):`,
        so two changes sent to different processes at the same moment are both kept."""

    # ---- what each kind provides

    @abstractmethod
    def _post(self, name: str, value) -> int | None:
        """Store the notice with the next version, for every process; returns that version (None: the
        board lives in this process's memory only, and the version is this process's count)."""

    @abstractmethod
    def _fetch(self, name: str) -> tuple[int, object] | None:
        """The notice's (version, value) as the store holds it; None if there is none."""

    @abstractmethod
    def _last_version(self) -> int:
        """The last version handed out by the store (0 where it cannot tell)."""

    @abstractmethod
    def _watch(self, names) -> None:
        """Notice other processes' posts of `names` from now on, and wake their waiters (`_refresh`)."""

    # ---- this process's view

    def _refresh(self, name: str) -> bool:
        """Fetch `name` from the store and keep it if it is newer than this process's; True if it was."""
        notice = self._fetch(name)
        if notice is None:
            return False
        with self.lock:
            return self._keep(name, *notice)

    def _keep(self, name: str, version: int, value) -> bool:
        """Keep (version, value) as this process's view of `name` if it is newer than the one it has,
        and wake who waits on it (call with the lock held); True if it was newer."""
        self.newest = max(self.newest, version)
        if version <= self.memory.get(name, (0, None))[0]:
            return False  # a newer post came first (another thread's, or another process's read meanwhile)
        self._show(name, version, value)
        return True

    def _show(self, name: str, version: int, value) -> None:
        """Make (version, value) this process's view of `name`, and wake who waits on it (call with the
        lock held)."""
        self.memory[name] = (version, value)
        for condition in self.waiting_on.get(name, ()):
            condition.notify_all()

    def _condition(self, names: tuple[str, ...]) -> threading.Condition:
        """The condition of waiting on `names` together (call with the lock held)."""
        if names not in self.conditions:
            self.conditions[names] = threading.Condition(self.lock)
            for name in names:
                self.waiting_on.setdefault(name, []).append(self.conditions[names])
        return self.conditions[names]


def open_board(cache_dir: Path | None, redis_url: str | None = None, redis_prefix: str | None = None) -> Board:
    """The board the settings ask for: on Redis at `redis_url` (its keys under `redis_prefix`), else
    in `cache_dir` (or, without one, this process's memory)."""
    if redis_url:
        from engine.redis_board import DEFAULT_PREFIX, RedisBoard  # only then is the Redis client needed

        return RedisBoard(redis_url, redis_prefix or DEFAULT_PREFIX)
    from engine.file_board import FileBoard

    return FileBoard(cache_dir)
