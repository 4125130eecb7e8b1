"""The project's commands end as a newcomer expects: `flask export`, `warm` and `--help` exit 0 with no
thread left running PyTorch, `warm` says how long it expects and how long it took, and a GPU machine
without the browser-test packages still collects the GPU tests."""
import json
import os
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from app import create_app
from engine import calibration
from web import cli
from tests.live_server import ROOT

RUNS = 4  # each in a fresh process and cache; before the fix about half of them aborted (exit 134)


def command(args: list[str], env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def test_export_on_a_fresh_cache_exits_cleanly_every_time(tmp_path):
    def export(n: int) -> subprocess.CompletedProcess:
        # The speed test is on, as for a lecturer: the command must neither start it nor die under it.
        return command(["-m", "flask", "--app", "app", "export", str(tmp_path / f"out{n}")],
                       env={"FLASK_CACHE_DIR": str(tmp_path / f"cache{n}"), "FLASK_CALIBRATE": "1"})

    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(export, range(RUNS)))
    for n, run in enumerate(runs):
        assert run.returncode == 0, f"run {n + 1} exited {run.returncode}: {run.stderr[-2000:]}"
        assert "Traceback" not in run.stderr and "terminate called" not in run.stderr
        assert "Exported the lecture to" in run.stdout
        assert (tmp_path / f"out{n}" / "index.html").is_file()


def test_warm_help_exits_cleanly():
    run = command(["-m", "flask", "--app", "app", "warm", "--help"], env={"FLASK_CALIBRATE": "1"})
    assert run.returncode == 0 and "Usage:" in run.stdout
    assert run.stderr == ""


def calibration_threads() -> list[str]:
    return [thread.name for thread in threading.enumerate() if thread.name == "calibration" and thread.is_alive()]


def test_the_speed_test_starts_with_the_first_request_not_with_the_app(tmp_path):
    app = create_app({"CACHE_DIR": str(tmp_path), "CALIBRATE": True})
    calibration = app.extensions["engine"].calibration
    gate, measured = threading.Event(), []

    def stand_in(device) -> float:  # the speed test, held until the test lets it finish
        assert gate.wait(30)
        measured.append(device)
        return 0.5
    calibration._measure = stand_in
    app.test_cli_runner().invoke(args=["export", str(tmp_path / "out")])
    assert calibration_threads() == [], "a command started the speed test"
    assert app.test_client().get("/api/slides").status_code == 200
    assert calibration_threads() == ["calibration"]
    gate.set()
    assert calibration.seconds() == 0.5 and len(measured) == 1


def test_a_failing_demo_makes_warm_exit_1_after_warming_the_rest(app, monkeypatch):
    from web.engine import get_engine

    with app.app_context():
        engine = get_engine()

    def compute(self, demo, params, key, progress=None):
        if demo.ID == "line_fit":
            raise RuntimeError("out of memory")
        return None, True
    monkeypatch.setattr(type(engine), "compute", compute)
    result = app.test_cli_runner().invoke(args=["warm", "line_fit", "system_check"])
    assert result.exit_code == 1
    assert "FAILED: out of memory" in result.output
    assert "system_check  trained" in result.output  # the others were still warmed
    assert "1 of 2 runs failed: line_fit" in result.output
    assert "Traceback" not in result.output


def test_the_gpu_tests_collect_on_a_machine_without_the_browser_test_packages(tmp_path):
    # A GPU server often has PyTorch and pytest but not Playwright: there `pytest -m gpu` must collect.
    for package in ("playwright", "axe_playwright_python"):
        (tmp_path / f"{package}.py").write_text(
            f"raise ModuleNotFoundError(\"No module named '{package}'\", name={package!r})\n")
    run = command(["-m", "pytest", "-m", "gpu", "--collect-only", "-q", "-rs", "-p", "no:cacheprovider"],
                  env={"PYTHONPATH": str(tmp_path)})
    assert run.returncode == 0, run.stdout[-3000:]
    assert "tests/gpu/test_cuda.py::" in run.stdout
    assert "the browser tests need playwright" in run.stdout


def test_warm_says_what_to_expect_and_that_a_busy_machine_will_take_longer(tmp_path, monkeypatch):
    # The speed test as this machine measured it earlier (kept in the cache folder): nothing is timed again.
    (tmp_path / "calibration.json").write_text(json.dumps({"cpu": {"seconds": 0.5, "version": calibration.VERSION}}))
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "CALIBRATE": True})
    monkeypatch.setattr(type(app.extensions["engine"]), "compute", lambda self, demo, params, key, progress=None: (None, True))
    busy = 4.0 * (os.cpu_count() or 1)  # four processes waiting for each core
    monkeypatch.setattr(cli.os, "getloadavg", lambda: (busy, busy, busy))
    result = app.test_cli_runner().invoke(args=["warm", "system_check"])
    assert result.exit_code == 0, result.output
    assert "Timing this machine" not in result.output
    assert re.search(r"Expect up to about \d+ s on cpu, from this machine's speed test", result.output)
    assert f"This machine is busy (load average {busy:.1f} on {os.cpu_count()} cores)" in result.output
    assert re.search(r"Warmed in \d+ s \(expected up to about \d+ s at the start\)\.", result.output)
