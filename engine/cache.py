"""The result cache: in memory for speed, on disk so a restarted server trains nothing twice.

An entry is one JSON file, `<dir>/results/<demo>/<key>.json`, written to a temporary file
and renamed into place, so a reader sees the whole entry or none of it. An entry that
cannot be read (truncated, edited, from another program) is logged, removed and treated
as missing. If the folder cannot be written (read-only, disk full), the cache keeps
working in memory and says so once in the log.
"""
import hashlib
import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from filelock import FileLock, Timeout

from demos.runtime.files import atomic_write_bytes, remove_older_than

log = logging.getLogger(__name__)
MEMORY_ENTRIES = 256  # most recently used results kept in memory; the rest are read from disk


def cache_key(demo_id: str, params: dict, code_version: str) -> str:
    """The key of a result: the demo, its effective parameters, and the version of its code."""
    canonical = json.dumps({"demo": demo_id, "params": params, "code": code_version}, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Entry:
    result: dict
    body: bytes  # the result as JSON, serialised once and sent as is
    created: str | None = None  # when it was computed (ISO 8601, UTC); None for an entry written before it was kept


class ThreadLock:
    """FileLock's acquire/release over a threading.Lock, for a cache kept in memory only."""

    def __init__(self, lock: threading.Lock):
        self.lock = lock

    def acquire(self, timeout: float = -1) -> None:
        acquired = self.lock.acquire(blocking=False) if timeout == 0 else self.lock.acquire(timeout=timeout)
        if not acquired:
            raise Timeout(str(self.lock))

    def release(self) -> None:
        self.lock.release()


class ResultCache:
    def __init__(self, directory: Path | None):
        self.directory = Path(directory) if directory else None
        self.memory: OrderedDict[str, Entry] = OrderedDict()
        self.lock = threading.Lock()
        self.disk_ok = self.directory is not None
        self.thread_locks: dict[str, threading.Lock] = {}
        self.pinned: set[str] = set()
        self.remove_abandoned_writes()

    def remove_abandoned_writes(self, older_than: float = 600) -> None:
        """Delete temporary files left by writers that were killed mid-write (never read as entries).
        Only old ones: a younger one may belong to a write in progress in another process."""
        if self.directory is not None:
            remove_older_than(self.directory, "*/**/.*.tmp", older_than)

    def path(self, demo_id: str, key: str) -> Path:
        return self.directory / "results" / demo_id / f"{key}.json"

    def get(self, demo_id: str, key: str) -> Entry | None:
        with self.lock:
            entry = self.memory.get(key)
            if entry is not None:
                self.memory.move_to_end(key)
                return entry
        entry = self._read(demo_id, key)
        if entry is not None:
            self._remember(key, entry)
        return entry

    def put(self, demo_id: str, key: str, params: dict, result: dict, created: str | None = None) -> Entry:
        """Keep `result`, computed now (or at `created`: a result carried in from elsewhere)."""
        body = json.dumps(result, separators=(",", ":"), allow_nan=False).encode()
        entry = Entry(result, body, created or datetime.now(timezone.utc).isoformat(timespec="seconds"))
        self._remember(key, entry)
        if self.disk_ok:
            record = {
                "key": key,
                "demo": demo_id,
                "params": params,
                "created": entry.created,
                "result": result,
            }
            try:
                atomic_write_bytes(self.path(demo_id, key), json.dumps(record, allow_nan=False).encode())
            except OSError as error:
                self.disk_ok = False
                log.warning("cannot write the cache folder %s (%s): caching in memory only", self.directory, error)
        return entry

    def keys(self, demo_id: str) -> list[str]:
        """The keys of `demo_id`'s results kept on disk (any settings)."""
        if self.directory is None:
            return []
        return sorted(path.stem for path in (self.directory / "results" / demo_id).glob("*.json"))

    def lock_for(self, key: str):
        """A lock shared by every process using this folder: one trains, the others wait.
        (Only threads of this process share it when the folder cannot be written.)"""
        if self.disk_ok:
            locks = self.directory / "locks"
            try:
                locks.mkdir(parents=True, exist_ok=True)
                return FileLock(locks / f"{key}.lock")
            except OSError as error:
                self.disk_ok = False
                log.warning("cannot write the cache folder %s (%s): caching in memory only", self.directory, error)
        with self.lock:
            return ThreadLock(self.thread_locks.setdefault(key, threading.Lock()))

    def pin(self, key: str) -> None:
        """Never drop `key` from memory (the lecturer's default results), whatever students ask for."""
        self.pinned.add(key)

    def _remember(self, key: str, entry: Entry) -> None:
        with self.lock:
            self.memory[key] = entry
            self.memory.move_to_end(key)
            for old_key in list(self.memory):
                if len(self.memory) <= MEMORY_ENTRIES + len(self.pinned):
                    break
                if old_key not in self.pinned:
                    del self.memory[old_key]

    def _read(self, demo_id: str, key: str) -> Entry | None:
        if self.directory is None:
            return None
        path = self.path(demo_id, key)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            log.warning("cannot read cache entry %s: %s", path, error)
            return None
        try:
            record = json.loads(raw)
            if record["key"] != key or not isinstance(record["result"], dict):
                raise ValueError("the entry does not belong to this key")
            result = record["result"]
        except (ValueError, KeyError, TypeError) as error:
            log.warning("removing corrupt cache entry %s: %s", path, error)
            path.unlink(missing_ok=True)
            return None
        return Entry(result, json.dumps(result, separators=(",", ":")).encode(), record.get("created"))
