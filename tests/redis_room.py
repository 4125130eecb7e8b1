"""One room past one machine, on loopback: a Redis, two web servers (two ports) on it with one cache
folder, one instructor token and FLASK_TRAINING=worker, and one training worker; each part can be
killed and started again. Also what a phone does with them: JSON requests, and an event stream read
in a thread, each event with the moment it arrived (tests/test_two_servers.py,
tests/browser/test_two_servers.py)."""
import http.cookiejar
import json
import os
import queue
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.forked_servers import start_server
from tests.live_server import LiveServer
from tests.redis_server import REDIS_SERVER, RedisServer

LEASE = 2.0  # seconds: a killed process is noticed this long after its last beat
READY_SECONDS = 60  # only bounds a hang: a forked server answers within a second


class Room:
    """Redis, web servers A and B, and the worker, sharing one folder (`start`, then `stop`)."""

    def __init__(self, folder: Path, token: str, worker_app: str = "tests.paced_worker_app"):
        if not Path(REDIS_SERVER).exists():
            pytest.skip(f"{REDIS_SERVER} is not installed (apt-get install redis-server; .ci/run does)")
        self.folder = folder
        self.token = token
        self.redis = RedisServer(folder)
        self.env = {"FLASK_REDIS_URL": self.redis.url, "FLASK_TRAINING": "worker", "FLASK_INSTRUCTOR_TOKEN": token,
                    "FLASK_PROCESS_LEASE_SECONDS": str(LEASE), "FLASK_DEVICE": "cpu"}
        self.servers = [LiveServer(folder / "cache", env=self.env) for _ in "AB"]
        self.worker_app = worker_app
        self.worker = None

    def start(self, worker: bool = True) -> "Room":
        self.redis.start()
        for server in self.servers:
            server.start()
        if worker:
            self.start_worker()
        return self

    def start_worker(self) -> None:
        """A training worker, forked like the servers; returns once the web servers see it beat."""
        env = {**os.environ, "FLASK_CACHE_DIR": str(self.folder / "cache"), "PYTHONUNBUFFERED": "1", **self.env}
        self.worker = start_server(["--app", self.worker_app, "worker"], env, self.folder / "worker.log")
        deadline = time.monotonic() + READY_SECONDS
        while not (get(self.servers[0], "/healthz")[1]["training_queue"] or {}).get("worker_alive"):
            assert self.worker.poll() is None, (self.folder / "worker.log").read_text()
            assert time.monotonic() < deadline, "the web servers never saw the worker"
            time.sleep(0.05)

    def stop(self) -> None:
        for process in (self.worker, *(server.process for server in self.servers)):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        self.redis.stop()


def request(server, path: str, body: dict | None = None, token: str | None = None,
            opener: urllib.request.OpenerDirector | None = None) -> tuple[int, dict]:
    """(status, JSON body) of a GET, or a POST of `body`; with `token`, as the lecturer."""
    headers = {"Content-Type": "application/json", **({"X-Instructor-Token": token} if token else {})}
    data = None if body is None else json.dumps(body).encode()
    try:
        with (opener or urllib.request.build_opener()).open(
                urllib.request.Request(server.url + path, data=data, headers=headers), timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def get(server, path: str) -> tuple[int, dict]:
    return request(server, path)


def phone() -> urllib.request.OpenerDirector:
    """A phone's browser: its own cookies (the voter's id), sent to both servers (same host)."""
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


class EventStream:
    """An event stream read in a thread, as a phone's EventSource reads it: (event, data, moment
    arrived) in `events`; `close` hangs up, so that the server notices at its next heartbeat."""

    def __init__(self, server, path: str):
        host, port = urlsplit(server.url).hostname, urlsplit(server.url).port
        self.socket = socket.create_connection((host, port), timeout=30)
        # HTTP/1.0: the answer comes unchunked, line by line, until the server ends it.
        self.socket.sendall(f"GET {path} HTTP/1.0\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.events: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name = data = None
        try:
            for raw in self.socket.makefile("rb"):
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event: "):
                    name = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    data = json.loads(line.removeprefix("data: "))
                elif not line and name:
                    self.events.put((name, data, time.monotonic()))
                    name = data = None
        except OSError:
            pass
        self.events.put(None)  # the stream ended

    def next(self, event: str, where=lambda data: True, timeout: float = 60) -> tuple[dict, float]:
        """The next `event` whose data passes `where`, and when it arrived; the timeout only ends a hang."""
        deadline = time.monotonic() + timeout
        while True:
            item = self.events.get(timeout=max(deadline - time.monotonic(), 0.01))
            assert item is not None, f"the stream ended before a {event!r} event"
            if item[0] == event and where(item[1]):
                return item[1], item[2]

    def close(self) -> None:
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.socket.close()
