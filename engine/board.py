"""A notice board: small JSON documents that every server process sharing the cache folder
can write and read, and wait on for the next change.

Writes are atomic files under `<cache>/board/`. Each process runs one watcher thread that
looks at the modification stamps of the notices someone waits on, ten times a second, and
wakes its own waiters, so a thousand waiting event streams cost one `stat` loop. Without a folder
(or if it cannot be written) the board lives in this process's memory.
"""
import json
import logging
import threading
import time
from pathlib import Path

from demos.runtime.files import atomic_write_bytes, remove_older_than

log = logging.getLogger(__name__)
POLL_SECONDS = 0.1


class Board:
    def __init__(self, directory: Path | None):
        self.directory = Path(directory) / "board" if directory else None
        self.memory: dict[str, tuple[int, object]] = {}  # name → (version, value), this process's view
        self.lock = threading.Lock()
        # One condition per set of notices waited on together (most waits are on one), all over the same
        # lock: a change wakes only those waiting on that notice (a class's poll answers do not wake
        # every follow-mode stream, which waits on the follow state and the lecturer's pointer).
        self.conditions: dict[tuple[str, ...], threading.Condition] = {}
        self.waiting_on: dict[str, list[threading.Condition]] = {}  # name → the conditions that include it
        self.watched: set[str] = set()  # the names someone in this process has waited on
        self.watcher: threading.Thread | None = None

    def path(self, name: str) -> Path:
        return self.directory / f"{name}.json"

    def write(self, name: str, value) -> int:
        """Post `value` under `name` for every process; returns its version."""
        version = time.time_ns()
        data = json.dumps({"version": version, "value": value}, separators=(",", ":")).encode()
        if self.directory is not None:
            try:
                atomic_write_bytes(self.path(name), data, durable=False)
            except OSError as error:
                log.warning("cannot write the board %s (%s): sharing in this process only", self.directory, error)
                self.directory = None
        with self.lock:
            self.memory[name] = (version, value)
            self._notify(name)
        return version

    def read(self, name: str, default=None) -> tuple[int, object]:
        """(version, value); version 0 and `default` if nothing was ever posted."""
        self._refresh(name)
        with self.lock:
            return self.memory.get(name, (0, default))

    def wait(self, name: str, seen_version: int, timeout: float, default=None) -> tuple[int, object]:
        """Block until `name` has a version newer than `seen_version`, or `timeout` passes."""
        return self.wait_any({name: seen_version}, timeout, default)[name]

    def wait_any(self, seen: dict[str, int], timeout: float, default=None) -> dict[str, tuple[int, object]]:
        """Block until any notice of `seen` (name → the version seen last) has a newer version, or
        `timeout` passes; returns each one's (version, value), as this process has them now."""
        self.watched.update(seen)
        self._start_watcher()
        with self.lock:
            self._condition(tuple(seen)).wait_for(
                lambda: any(self.memory.get(name, (0, None))[0] > version for name, version in seen.items()),
                timeout=timeout)
            return {name: self.memory.get(name, (0, default)) for name in seen}

    def _condition(self, names: tuple[str, ...]) -> threading.Condition:
        """The condition of waiting on `names` together (call with the lock held)."""
        if names not in self.conditions:
            self.conditions[names] = threading.Condition(self.lock)
            for name in names:
                self.waiting_on.setdefault(name, []).append(self.conditions[names])
        return self.conditions[names]

    def _notify(self, name: str) -> None:
        """Wake whoever waits on `name`, alone or with others (call with the lock held)."""
        for condition in self.waiting_on.get(name, ()):
            condition.notify_all()

    def _refresh(self, name: str) -> bool:
        """Read `name` from disk if another process has posted a newer version; True if it changed."""
        if self.directory is None:
            return False
        try:
            record = json.loads(self.path(name).read_bytes())
            version, value = int(record["version"]), record["value"]
        except FileNotFoundError:
            return False
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("ignoring unreadable board entry %s: %s", self.path(name), error)
            return False
        with self.lock:
            if version <= self.memory.get(name, (0, None))[0]:
                return False
            self.memory[name] = (version, value)
            self._notify(name)
            return True

    def _start_watcher(self) -> None:
        with self.lock:
            if self.watcher is not None or self.directory is None:
                return
            self.watcher = threading.Thread(target=self._watch, name="board-watcher", daemon=True)
            self.watcher.start()

    def _watch(self) -> None:
        stamps: dict[str, tuple[int, int]] = {}
        while self.directory is not None:
            for name in list(self.watched):
                try:
                    # The file's inode too: each post is a new file (written, then renamed), and two
                    # posts within the file system's clock tick (a pointer's move, then its hiding)
                    # can share a modification time.
                    status = self.path(name).stat()
                    stamp = (status.st_mtime_ns, status.st_ino)
                except OSError:
                    continue  # not posted yet
                if stamps.get(name) != stamp:
                    stamps[name] = stamp
                    self._refresh(name)
            time.sleep(POLL_SECONDS)

    def names(self, prefix: str) -> list[str]:
        """The names of the notices that start with `prefix`, posted by any process."""
        if self.directory is not None:
            return sorted(path.stem for path in self.directory.glob(f"{prefix}*.json"))
        with self.lock:
            return sorted(name for name in self.memory if name.startswith(prefix))

    def remove_older_than(self, prefix: str, seconds: float) -> None:
        """Delete notices named `prefix...` not written for `seconds` (finished jobs' notices)."""
        if self.directory is not None:
            remove_older_than(self.directory, f"{prefix}*.json", seconds)
