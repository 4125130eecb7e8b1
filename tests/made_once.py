"""Work that the test processes of one run share (`pytest -n` starts several): made by whichever process
needs it first, under a file lock, and read from disk by the others, which wait for it instead of making
it again. The folder is made fresh for each run (tests/conftest.py) and removed at its end."""
import fcntl
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

SHARED = "GREAT_SHIFT_TEST_SHARED"  # the run's folder, set before the worker processes start so they inherit it


def shared_folder() -> Path:
    if not os.environ.get(SHARED):  # a helper script importing the tests' code outside pytest
        os.environ[SHARED] = tempfile.mkdtemp(prefix="great-shift-tests-")
    return Path(os.environ[SHARED])


def made_once(name: str, make: Callable[[Path], None], wait: bool = True) -> Path | None:
    """The folder `name` in the run's shared folder, filled by `make(folder)` the first time any process asks.
    With `wait=False`, None at once if another process is making it now (to make something else meanwhile)."""
    done = shared_folder() / name
    with open(shared_folder() / f"{name}.lock", "w") as lock:
        try:  # released when the file closes, or when its process dies
            fcntl.flock(lock, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return None
        if not done.exists():
            work = done.with_name(f"{name}.part")
            shutil.rmtree(work, ignore_errors=True)  # left by a process that died while making it
            work.mkdir()
            make(work)
            work.rename(done)
    return done
