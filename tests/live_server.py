"""Runs the real server (`flask --app tests.fixture_app run`) in a process of its own on a free localhost
port, forked from one that imported the app once (tests/forked_servers.py)."""
import os
import socket
import time
import urllib.request
from pathlib import Path

from tests.forked_servers import ROOT, start_server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, cache_dir: Path, env: dict | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.cache_dir = cache_dir
        self.log_path = cache_dir.parent / f"server-{self.port}.log"
        self.extra_env = env or {}
        self.process = None

    def start(self, timeout: float = 60) -> "LiveServer":
        # No "this run takes a while, run anyway?" question unless a test asks for it: whether a run is
        # long depends on the earlier runs this server timed (tests/browser/test_run_control.py tests it).
        # A heartbeat every second, so that a page that left is noticed within a second, not five (and
        # the presenter view counts the class twice a second, not every three).
        # No speed test (seconds of CPU at each start) unless a test asks for it: a demo not run yet
        # then has no estimate (tests/browser/test_estimates.py tests it with the speed test).
        env = {**os.environ, "FLASK_CACHE_DIR": str(self.cache_dir), "PYTHONUNBUFFERED": "1",
               "FLASK_CONFIRM_JOB_SECONDS": "1000000", "FLASK_SSE_HEARTBEAT_SECONDS": "1",
               "FLASK_AUDIENCE_REFRESH_SECONDS": "0.5",
               "FLASK_CALIBRATE": "0", **self.extra_env}
        self.log_path.write_text("")  # this server's own log (its port's file), which the server appends to
        self.process = start_server(["--app", "tests.fixture_app", "run", "--port", str(self.port)], env, self.log_path)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_path.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/api/slides", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)  # not listening yet
        raise RuntimeError(f"the server did not answer within {timeout} s: {self.log_path.read_text()}")

    def __enter__(self) -> "LiveServer":
        return self if self.process else self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
