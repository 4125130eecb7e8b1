"""Runs each test file alone, in a fresh pytest process: a test that passes only after another file
prepared something for it (a cached result, a server's state) fails here. The suite itself shuffles
the tests outside tests/browser/ (tests/conftest.py); the browser tests keep their order there, so
this script is how their files are checked.

    python -m benchmarks.each_file_alone                  # every file under tests/browser/
    python -m benchmarks.each_file_alone tests/test_api.py tests/browser/test_polls.py

Prints one line per file (passed or failed, its counts and seconds) and exits 1 if any file failed.
"""
import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|error)")


def run_alone(path: Path) -> tuple[bool, str, float]:
    """(passed, pytest's counts, seconds) for `path` run in a process of its own."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", str(path)],
                          cwd=ROOT, capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    counts = ", ".join(f"{n} {word}" for n, word in SUMMARY.findall(lines[-1] if lines else ""))
    return done.returncode == 0, counts or f"exit {done.returncode}", time.monotonic() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="test files (default: every one under tests/browser/)")
    args = parser.parse_args(argv)
    files = args.files or sorted((ROOT / "tests" / "browser").rglob("test_*.py"))
    failed = []
    for path in files:
        passed, counts, seconds = run_alone(path)
        name = path.resolve().relative_to(ROOT)
        print(f"{'passed' if passed else 'FAILED'}  {seconds:6.1f} s  {name}  ({counts})", flush=True)
        if not passed:
            failed.append(name)
    print(f"{len(files) - len(failed)} of {len(files)} files pass alone" + (f"; failed: {', '.join(map(str, failed))}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
