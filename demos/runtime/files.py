"""Files that several processes share (results, models, notices): written whole or not at all,
and tidied when they are left behind."""
import os
import tempfile
import time
from pathlib import Path


def atomic_write_bytes(path: Path, data: bytes, durable: bool = True) -> None:
    """Write `data` to `path` so that no reader, and no crash, ever sees half of it.

    `durable` also waits until the bytes are on disk before the rename (results and models);
    passing notices that are soon out of date skip that wait.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def remove_older_than(folder: Path, pattern: str, seconds: float) -> None:
    """Delete the files in `folder` matching `pattern` (a glob) not written for `seconds`."""
    cutoff = time.time() - seconds
    for path in folder.glob(pattern):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
        except OSError:
            pass  # gone already, or not ours to delete
