"""A lecture hall's worth of trouble: several server processes, crashes mid-training and
mid-write, and thousands of dropped connections; nothing lost, nothing corrupt served."""
import itertools
import json
import os
import random
import signal
import socket
import time
import urllib.request

import pytest

from app import create_app
from engine import Engine
from engine.cache import ResultCache
from tests.live_server import LiveServer
from tests.held_jobs import FAST, Gate, Spinner, wait_done


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def post_json(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def test_healthz_says_the_server_is_up_and_what_it_is_doing(client):
    body = client.get("/healthz").get_json()
    assert body["status"] == "ok" and body["device"] == "cpu" and body["cache"] == "disk"
    assert body["jobs_queued"] == 0 and body["jobs_running"] == [] and body["event_streams"] == 0


def test_a_job_is_visible_from_every_server_process(tmp_path, monkeypatch):
    gate = Gate(monkeypatch)
    one = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)}).test_client()
    other = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)}).test_client()  # another worker
    job = one.post("/api/demos/line_fit/run", json=FAST).get_json()
    assert gate.entered.wait(timeout=30)
    deadline = time.monotonic() + 60  # only ends a hang: reports reach other processes within 0.1 s
    while (seen := other.get(f"/api/jobs/{job['job']}").get_json())["message"] != "halfway, held at the gate":
        assert time.monotonic() < deadline, seen
        time.sleep(0.02)
    assert seen["status"] == "running" and seen["progress"] == 0.5
    stream = other.get(job["events"], buffered=False).response
    assert "held at the gate" in next(iter(stream)).decode()
    gate.opened.set()
    rest = b"".join(stream).decode()
    assert "event: done" in rest and '"result"' in rest
    assert other.get("/api/jobs/0123456789abcdef").status_code == 404


def test_whoever_started_a_job_can_cancel_it_through_another_server_process(tmp_path, monkeypatch):
    spinner = Spinner(monkeypatch)  # a run that goes on until it is stopped
    one = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)}).test_client()
    other = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)}).test_client()  # another worker
    student = {"REMOTE_ADDR": "10.0.0.7"}  # not the instructor: only the job's own token may cancel it
    job = one.post("/api/demos/line_fit/run", json=FAST, environ_base=student).get_json()
    assert spinner.entered.wait(timeout=30)
    assert other.post(job["cancel"], json={"token": "guess"}, environ_base=student).status_code == 403
    assert other.post(job["cancel"], json={"token": job["cancel_token"]}, environ_base=student).status_code == 202
    deadline = time.monotonic() + 60  # only ends a hang
    while (seen := other.get(job["url"]).get_json())["status"] != "cancelled":
        assert time.monotonic() < deadline and seen["status"] in ("queued", "running"), seen
        time.sleep(0.05)  # the job's own process reads the request from the board and posts its end there
    assert seen["stopped_by"] == "cancel"


def test_one_training_at_a_time_on_a_device_across_processes(tmp_path, monkeypatch):
    gate = Gate(monkeypatch)
    first, second = Engine(tmp_path), Engine(tmp_path)  # two server processes, as far as locks go
    holder = first.submit("line_fit", {**FAST, "seed": 1}).job
    assert gate.entered.wait(timeout=30)
    waiter = second.submit("line_fit", {**FAST, "seed": 2}).job
    version, deadline = -1, time.monotonic() + 60  # only ends a hang
    while "waiting for the cpu" not in waiter.message:
        assert time.monotonic() < deadline, waiter.snapshot()
        version = waiter.wait_for_change(version, timeout=1)
    assert waiter.status == "running" and waiter.progress == 0.0
    gate.opened.set()
    assert wait_done(holder)["status"] == "done" and wait_done(waiter)["status"] == "done"


def test_event_streams_are_capped_and_free_their_place_when_closed(tmp_path):
    client = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "MAX_EVENT_STREAMS": 1}).test_client()
    first = client.get("/api/follow/events", buffered=False)
    assert next(iter(first.response)).startswith(b"retry: 1000\nevent: follow")
    refused = client.get("/api/follow/events")
    assert refused.status_code == 503 and refused.headers["Retry-After"]
    assert client.get("/healthz").get_json()["event_streams"] == 1
    first.close()  # what the server does when the listener goes away
    again = client.get("/api/follow/events", buffered=False)
    assert again.status_code == 200
    again.close()


def start_writer(folder, first: int):
    """A process that writes big entries (about 2 MB: a wide window to be killed in) to the cache
    until it is killed, naming each key on the pipe once its write has finished. Forked, so that
    it starts at once, without importing PyTorch again."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer
        try:
            os.close(read_end)
            cache = ResultCache(folder)
            big = {"rows": [[i * 0.5] * 200 for i in range(2000)]}
            for n in itertools.count(first + 1):
                cache.put("line_fit", f"key{n:05d}", {}, {**big, "n": n})
                os.write(write_end, f"key{n:05d}\n".encode())
        finally:
            os._exit(1)  # never back into pytest
    os.close(write_end)
    return pid, os.fdopen(read_end)


def test_killing_a_writer_mid_write_never_leaves_a_corrupt_entry(tmp_path):
    completed = []
    rng = random.Random(0)
    for round_number in range(12):
        pid, written = start_writer(tmp_path, round_number * 1000)
        completed.append(written.readline().strip())  # at least one write finished
        time.sleep(rng.uniform(0, 0.3))  # then die at a random moment, often mid-write
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        completed += written.read().split()
        written.close()
    cache = ResultCache(tmp_path)
    stored = sorted(p.stem for p in (tmp_path / "results" / "line_fit").glob("*.json"))
    assert set(completed) <= set(stored), "every write that finished survived the kill"
    for key in stored:
        entry = cache.get("line_fit", key)
        assert entry is not None and len(entry.result["rows"]) == 2000, f"{key} is not whole"
    folder = tmp_path / "results" / "line_fit"
    (folder / ".key99999.json.abandoned.tmp").write_text('{"half of an en')  # a write cut short
    for leftover in folder.glob(".*.tmp"):
        os.utime(leftover, (0, 0))  # as if the crash was long ago
    ResultCache(tmp_path)  # a restart tidies abandoned temporary files once they are old
    assert not list(folder.glob(".*.tmp"))


def test_killing_the_server_mid_training_loses_nothing_that_finished(tmp_path):
    cache = tmp_path / "cache"
    # A short lease: the restarted server takes the killed one for gone a second after it first looks.
    lease = {"FLASK_PROCESS_LEASE_SECONDS": "1"}
    server = LiveServer(cache, env=lease).start()
    try:
        finished = post_json(server.url + "/api/demos/line_fit/run", {"steps": 5, "seed": 1})
        urllib.request.urlopen(server.url + finished["events"], timeout=60).read()  # heartbeats every second
        for attempt in range(2):  # the server restarted after the first kill is killed in turn
            slow = post_json(server.url + "/api/demos/line_fit/run", {"steps": 5000, "points": 4096, "seed": 100 + attempt})
            deadline = time.monotonic() + 120  # only ends a hang
            while (state := get_json(server.url + f"/api/jobs/{slow['job']}"))["progress"] < 0.1:
                assert state["status"] in ("queued", "running") and time.monotonic() < deadline, state
                time.sleep(0.05)  # until it is well into training
            server.process.send_signal(signal.SIGKILL)
            server.process.wait()
            server = LiveServer(cache, env=lease).start()
            again = post_json(server.url + "/api/demos/line_fit/run", {"steps": 5, "seed": 1})
            assert again["status"] == "done" and again["cached"] is True, "served from disk, not trained again"
            assert get_json(server.url + "/api/demos/line_fit")["job"] is None
            # A page that follows the killed job hears that it failed, once its process's heartbeat has
            # stayed unchanged for a lease (the read's timeout only ends a hang).
            followed = urllib.request.urlopen(server.url + slow["events"], timeout=60).read().decode()
            assert "event: failed" in followed and "stopped before it finished" in followed
            orphan = get_json(server.url + f"/api/jobs/{slow['job']}")
            assert orphan["status"] == "failed" and "stopped" in orphan["error"], "a killed job does not hang forever"
            half = post_json(server.url + "/api/demos/line_fit/run", {"steps": 5000, "points": 4096, "seed": 100 + attempt})
            assert half["status"] != "done", "a half-trained result was never stored"
            post_json(server.url + half["cancel"], {"token": half["cancel_token"]})  # no need to train it all
            urllib.request.urlopen(server.url + half["events"], timeout=60).read()
    finally:
        server.stop()


def test_a_thousand_dropped_event_streams_leak_nothing(tmp_path):
    # Above the cap's default, since dropped streams linger until their next heartbeat.
    server = LiveServer(tmp_path / "cache", env={"FLASK_MAX_EVENT_STREAMS": "5000"}).start()
    try:
        baseline = get_json(server.url + "/healthz")
        rss_before = rss_kib(server.process.pid)
        for _ in range(1000):
            with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
                connection.sendall(b"GET /api/follow/events HTTP/1.1\r\nHost: x\r\n\r\n")
                received = b""
                while b"event: follow" not in received:
                    received += connection.recv(4096)
        deadline = time.monotonic() + 60
        while True:  # each stream notices its listener left at its next heartbeat, then ends
            health = get_json(server.url + "/healthz")
            if health["event_streams"] == 0 and health["threads"] <= baseline["threads"] + 3:
                break
            assert time.monotonic() < deadline, f"streams still open: {health}"
            time.sleep(0.5)
        assert rss_kib(server.process.pid) - rss_before < 50 * 1024, "memory grew by more than 50 MB"
    finally:
        server.stop()


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def test_security_headers_on_every_kind_of_answer(client):
    for path in ["/slides/1", "/api/demos", "/nowhere", "/api/nowhere", "/healthz", "/presenter"]:
        headers = client.get(path).headers
        assert "frame-ancestors 'self'" in headers["Content-Security-Policy"]
        assert "'unsafe-inline'" not in headers["Content-Security-Policy"].split("script-src")[1].split(";")[0]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("method, path, body", [
    ("post", "/api/demos/line_fit/run", {"force": True}),
    ("post", "/api/warm", {}),
    ("post", "/api/follow", {"on": True}),
])
def test_every_change_to_shared_state_needs_the_instructor(tmp_path, method, path, body):
    client = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "INSTRUCTOR_TOKEN": "t0ken"}).test_client()
    response = getattr(client, method)(path, json=body)
    assert response.status_code == 403 and response.is_json
    assert getattr(client, method)(path, json=body, headers={"X-Instructor-Token": "t0ken!"}).status_code == 403
