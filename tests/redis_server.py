"""A throw-away Redis for the tests: Debian's `redis-server` on a free localhost port, keeping nothing on
disk, started and stopped by the test that needs it (the `redis_server` fixture, tests/conftest.py;
none runs otherwise). `.ci/run` installs it; where it is missing, those tests are skipped and say why."""
import shutil
import subprocess
import time
from pathlib import Path

import redis

from tests.live_server import free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_SECONDS = 30  # only bounds a hang: the server answers within a few milliseconds


class RedisServer:
    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> "RedisServer":
        """Start it (again, on the same port) and return once it answers PING."""
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + START_SECONDS
        try:
            while True:
                try:
                    if client.ping():
                        return self
                except redis.ConnectionError:
                    if self.process.poll() is not None:
                        raise RuntimeError(f"redis-server on port {self.port} exited with {self.process.returncode}")
                    assert time.monotonic() < deadline, f"redis-server on port {self.port} never answered"
                    time.sleep(0.005)  # asking again: it answers as soon as it listens
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=START_SECONDS)
        self.process = None

