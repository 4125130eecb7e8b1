"""A notice board: small JSON documents that every server process sharing the cache folder
can write and read, and wait on for the next change.

Writes are atomic files under `<cache>/board/`. Each process runs one watcher thread that
looks at the modification stamps of the notices someone waits on, ten times a second, and
wakes its own waiters, so a thousand waiting event streams cost one `stat` loop. Without a folder
(or if it cannot be written) the board lives in this process's memory.

A notice's version is a count, not a time: every post takes one more than the last version handed
out on the folder by any process (`<cache>/board/.last-version`, under a file lock), so a later post
always has the greater version, and readers, who keep only what is newer than what they have, never
take a clock stepped back for an old notice. Without a folder, the count is this process's own.
"""
import json
import logging
import threading
import time
from pathlib import Path

from filelock import FileLock

from demos.runtime.files import atomic_write_bytes, remove_older_than

log = logging.getLogger(__name__)
POLL_SECONDS = 0.1
LAST_VERSION = ".last-version"  # the last version handed out on the folder; not a notice (not .json)
VERSION_LOCK_POLL_SECONDS = 0.001  # the lock is held for one small write or two: ask again soon
_folder_locks: dict[Path, threading.Lock] = {}  # one per folder, for this process's threads and boards
_folder_locks_guard = threading.Lock()


def _folder_lock(directory: Path) -> threading.Lock:
    """This process's lock of `directory`'s version counter: its threads, and its boards on one folder
    (tests), queue here rather than on the file lock, which refuses a second holder in one process."""
    with _folder_locks_guard:
        return _folder_locks.setdefault(directory, threading.Lock())


class Board:
    def __init__(self, directory: Path | None):
        self.directory = Path(directory) / "board" if directory else None
        self.memory: dict[str, tuple[int, object]] = {}  # name → (version, value), this process's view
        self.newest = 0  # the greatest version this process has posted or read
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
        """Post `value` under `name` for every process; returns its version, greater than that of
        every earlier post on this board, by any process."""
        version = None
        if self.directory is not None:
            try:
                version = self._post(name, value)
            except OSError as error:
                log.warning("cannot write the board %s (%s): sharing in this process only", self.directory, error)
                self.directory = None
        with self.lock:
            if version is None:  # the board lives in this process's memory
                version = self.newest + 1
            self._keep(name, version, value)
        return version

    def current_version(self) -> int:
        """The version of the latest post on this board by any process: every later post's is
        greater (a job notes it when it starts, to know which posts came after)."""
        on_disk = 0
        if self.directory is not None:
            try:
                on_disk = self._last_version()
            except OSError:
                pass  # unreadable: what this process has seen is all it knows
        with self.lock:
            return max(on_disk, self.newest)

    def _post(self, name: str, value) -> int:
        """Write the notice to the folder with the next version. Both files are written while the
        folder's version lock is held, so the notice on disk is always the one with the greater version."""
        self.directory.mkdir(parents=True, exist_ok=True)
        with _folder_lock(self.directory), \
                FileLock(self.directory / f"{LAST_VERSION}.lock").acquire(poll_interval=VERSION_LOCK_POLL_SECONDS):
            version = self._last_version() + 1
            atomic_write_bytes(self.directory / LAST_VERSION, str(version).encode(), durable=False)
            data = json.dumps({"version": version, "value": value}, separators=(",", ":")).encode()
            atomic_write_bytes(self.path(name), data, durable=False)
        return version

    def _last_version(self) -> int:
        """The last version handed out on the folder. Without a counter yet (a new folder, or notices
        posted before there was one, which held times), the newest notice's, so that no later post
        is taken for older than them."""
        try:
            return int((self.directory / LAST_VERSION).read_bytes())
        except (FileNotFoundError, ValueError):
            loaded = (self._load(path) for path in self.directory.glob("*.json"))
            return max((notice[0] for notice in loaded if notice is not None), default=0)

    def _keep(self, name: str, version: int, value) -> bool:
        """Keep (version, value) as this process's view of `name` if it is newer than the one it has,
        and wake who waits on it (call with the lock held); True if it was newer."""
        self.newest = max(self.newest, version)
        if version <= self.memory.get(name, (0, None))[0]:
            return False  # a newer post came first (another thread's, or another process's read meanwhile)
        self.memory[name] = (version, value)
        self._notify(name)
        return True

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
        notice = self._load(self.path(name))
        if notice is None:
            return False
        with self.lock:
            return self._keep(name, *notice)

    @staticmethod
    def _load(path: Path) -> tuple[int, object] | None:
        """A notice's (version, value) as its file holds it; None if there is none, or it is unreadable."""
        try:
            record = json.loads(path.read_bytes())
            return int(record["version"]), record["value"]
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("ignoring unreadable board entry %s: %s", path, error)
            return None

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
