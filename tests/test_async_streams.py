"""Web servers that do not train (FLASK_TRAINING=worker) run gunicorn's gevent workers (gunicorn.conf.py): one
worker holds far more follow streams than a gthread worker has threads, every one of them gets the lecturer's
slide change (posted through it, or through another server on the same Redis), pages and the API answer
meanwhile, the heartbeat comes, and the cap still refuses with a 503."""
import asyncio
import json
import os
import runpy
import signal
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmarks.load_client import Connection, open_stream
from engine import notices
from engine.redis_board import RedisBoard
from tests.forked_servers import ROOT
from tests.live_server import free_port

TOKEN = "lecturer-of-the-test"
STREAMS = 50  # a gthread worker of this test's size would have 4 threads
START_SECONDS = 60  # only bounds a hang: the worker imports PyTorch and renders the deck first


@pytest.fixture
def gevent_server(redis_server, tmp_path):
    port = free_port()
    env = {**os.environ, "FLASK_REDIS_URL": redis_server.url, "FLASK_TRAINING": "worker",
           "FLASK_INSTRUCTOR_TOKEN": TOKEN, "FLASK_CACHE_DIR": str(tmp_path / "cache"), "FLASK_CALIBRATE": "0",
           "FLASK_SSE_HEARTBEAT_SECONDS": "1", "FLASK_MAX_EVENT_STREAMS": str(STREAMS),
           "WEB_CONCURRENCY": "1", "GREATSHIFT_THREADS": "4"}
    env.pop("GREATSHIFT_WORKER_CLASS", None)  # the configuration's own choice
    log = tmp_path / "gunicorn.log"
    with log.open("w") as output:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--bind",
                                    f"127.0.0.1:{port}", "app:create_app()"], cwd=ROOT, env=env,
                                   stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        yield port, log, redis_server.url
    finally:
        process.send_signal(signal.SIGINT)  # gunicorn's quick shutdown: no waiting out the streams' grace
        process.wait(timeout=30)


async def next_event(reader, name: str) -> dict:
    """The data of the stream's next event called `name` (heartbeats and other events passed over)."""
    buffer = b""
    while True:
        while b"\n\n" in buffer:
            event, _, buffer = buffer.partition(b"\n\n")
            if f"event: {name}".encode() in event:
                return json.loads(event.rpartition(b"data: ")[2])
        chunk = await asyncio.wait_for(reader.read(4096), 10)
        assert chunk, "the server ended the stream"
        buffer += chunk


async def a_class_following(port: int, redis_url: str) -> None:
    lecturer = Connection("127.0.0.1", port, {"X-Instructor-Token": TOKEN})
    assert (await lecturer.request("POST", "/api/follow", b'{"on": true, "n": 1}'))[0] == 200
    streams = [await open_stream("127.0.0.1", port, "/api/follow/events") for _ in range(STREAMS)]
    first = await asyncio.gather(*(next_event(reader, "follow") for reader, _ in streams))
    assert [state["n"] for state in first] == [1] * STREAMS

    refused = Connection("127.0.0.1", port)  # one stream over the cap: a 503, which the browser retries
    status, body = await refused.request("GET", "/api/follow/events")
    assert status == 503 and "try again" in json.loads(body)["error"]
    student = Connection("127.0.0.1", port)  # pages and the API answer while every stream is open
    assert (await student.request("GET", "/slides/2"))[0] == 200
    assert json.loads((await student.request("GET", "/api/follow"))[1])["n"] == 1

    assert (await lecturer.request("POST", "/api/follow", b'{"n": 2}'))[0] == 200
    moved = await asyncio.gather(*(next_event(reader, "follow") for reader, _ in streams))
    assert [state["n"] for state in moved] == [2] * STREAMS
    # A change posted through another server reaches them too: the board's subscriber, a greenlet on
    # gevent's sockets, hears it on Redis and wakes them.
    other_server = RedisBoard(redis_url)
    other_server.write(notices.FOLLOW, {"on": True, "n": 3, "demo": None})
    other_server.close()
    moved = await asyncio.gather(*(next_event(reader, "follow") for reader, _ in streams))
    assert [state["n"] for state in moved] == [3] * STREAMS
    reader, _ = streams[0]
    assert b": still here" in await asyncio.wait_for(reader.read(4096), 5)  # the heartbeat (every second here)
    for connection in (lecturer, refused, student):
        connection.close()
    for _, writer in streams:
        writer.close()


def test_a_gevent_worker_holds_more_follow_streams_than_threads_and_each_gets_the_slide_change(gevent_server):
    port, log, redis_url = gevent_server
    # On a thread of its own: in a test process that ran a browser test, Playwright's loop is this thread's.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, a_class_following(port, redis_url)).result()
    assert "Using worker: gevent" in log.read_text()


def test_gevent_is_refused_where_the_web_processes_train(monkeypatch):
    monkeypatch.setenv("GREATSHIFT_WORKER_CLASS", "gevent")
    monkeypatch.delenv("FLASK_TRAINING", raising=False)
    with pytest.raises(SystemExit, match="FLASK_TRAINING=worker"):
        runpy.run_path(str(ROOT / "gunicorn.conf.py"))
