"""The board in the cache folder (engine/board.py has the interface): notices as files under
`<cache>/board/`, which every server process sharing the folder reads. The default: nothing to install.

Writes are atomic files. Each process runs one watcher thread that looks at the modification stamps
of the notices someone waits on, ten times a second, and wakes its own waiters, so a thousand waiting
event streams cost one `stat` loop. Without a folder (or if it cannot be written) the board lives in
this process's memory.

Every post takes one more than the last version handed out on the folder by any process
(`<cache>/board/.last-version`, under a file lock). Without a folder, the count is this process's own.
A read-change-post holds the notice's lock (`changing`): a thread lock in this process and a file lock
beside the board for the others.

A map notice (`write_field`) is a notice like the others here: each field's change rewrites the map's
file under its lock (engine/board.py). That is fine on one machine: the file is local, and a class's
thousand answers make a file of tens of kilobytes, read and written in a millisecond or so.
"""
import json
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock

from demos.runtime.files import atomic_write_bytes, remove_older_than
from engine.board import Board

log = logging.getLogger(__name__)
POLL_SECONDS = 0.1
LAST_VERSION = ".last-version"  # the last version handed out on the folder; not a notice (not .json)
# Each lock is held for a small write or two (a millisecond or two), so ask again soon, not at filelock's
# default 50 ms: a class answering a poll at once would otherwise queue for tenths of a second.
LOCK_POLL_SECONDS = 0.001
CHANGE_LOCK_POLL_SECONDS = 0.002
_process_locks: dict[str, threading.Lock] = {}  # one per folder lock, for this process's threads and boards
_process_locks_guard = threading.Lock()


def _process_lock(key: str) -> threading.Lock:
    """This process's side of a file lock: its threads, and its boards on one folder (tests), queue
    here rather than on the file lock, which refuses a second holder in one process."""
    with _process_locks_guard:
        return _process_locks.setdefault(key, threading.Lock())


class FileBoard(Board):
    def __init__(self, directory: Path | None):
        super().__init__()
        self.directory = Path(directory) / "board" if directory else None
        self.watcher: threading.Thread | None = None

    def path(self, name: str) -> Path:
        return self.directory / f"{name}.json"

    def _post(self, name: str, value) -> int | None:
        """Write the notice to the folder with the next version. Both files are written while the
        folder's version lock is held, so the notice on disk is always the one with the greater version."""
        if self.directory is None:
            return None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with _process_lock(f"{self.directory}/{LAST_VERSION}"), \
                    FileLock(self.directory / f"{LAST_VERSION}.lock").acquire(poll_interval=LOCK_POLL_SECONDS):
                version = self._stored_version() + 1
                atomic_write_bytes(self.directory / LAST_VERSION, str(version).encode(), durable=False)
                data = json.dumps({"version": version, "value": value}, separators=(",", ":")).encode()
                atomic_write_bytes(self.path(name), data, durable=False)
            return version
        except OSError as error:
            log.warning("cannot write the board %s (%s): sharing in this process only", self.directory, error)
            self.directory = None
            return None

    def _last_version(self) -> int:
        if self.directory is None:
            return 0
        try:
            return self._stored_version()
        except OSError:
            return 0  # unreadable: what this process has seen is all it knows

    def _stored_version(self) -> int:
        """The last version handed out on the folder. Without a counter yet (a new folder, or notices
        posted before there was one, which held times), the newest notice's, so that no later post
        is taken for older than them."""
        try:
            return int((self.directory / LAST_VERSION).read_bytes())
        except (FileNotFoundError, ValueError):
            loaded = (self._load(path) for path in self.directory.glob("*.json"))
            return max((notice[0] for notice in loaded if notice is not None), default=0)

    def _fetch(self, name: str) -> tuple[int, object] | None:
        return None if self.directory is None else self._load(self.path(name))

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

    def _watch(self, names) -> None:
        with self.lock:
            self.watched.update(names)
            if self.watcher is not None or self.directory is None:
                return
            self.watcher = threading.Thread(target=self._look, name="board-watcher", daemon=True)
            self.watcher.start()

    def _look(self) -> None:
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
        if self.directory is not None:
            return sorted(path.stem for path in self.directory.glob(f"{prefix}*.json"))
        with self.lock:
            return sorted(name for name in self.memory if name.startswith(prefix))

    def remove_older_than(self, prefix: str, seconds: float) -> None:
        if self.directory is not None:
            remove_older_than(self.directory, f"{prefix}*.json", seconds)

    @contextmanager
    def changing(self, name: str) -> Iterator[None]:
        with _process_lock(f"{self.directory}/{name}"):  # boards on other folders (tests) do not wait for this one
            if self.directory is None:  # the board lives in this process's memory only
                yield
                return
            self.directory.mkdir(parents=True, exist_ok=True)
            with FileLock(self.directory / f".{name}.lock").acquire(poll_interval=CHANGE_LOCK_POLL_SECONDS):
                yield
