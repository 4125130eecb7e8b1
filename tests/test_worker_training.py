"""Training on a separate worker (FLASK_TRAINING=worker): a web-side Engine enqueues on RQ, a worker's
Engine trains, and the web side follows the job on the board: its progress and result, the lecturer's
jobs first, a cancel, a worker killed mid-run or after taking a job, a job lost with a restarted Redis,
a job nobody follows any more, and a job waiting while no worker runs."""
import os
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest
from rq import Queue

from app import create_app
from engine import Engine, notices
from engine.board import BoardUnavailable
from engine.jobs import UNWATCHED_GRACE
from engine.training_queue import TrainingWorker, connect, queue_names, serve
from tests import line_fit
from tests.held_jobs import FAST, Gate, Spinner, wait_done
from tests.live_server import ROOT

LEASE = 2.0  # seconds: a killed worker is noticed this long after its last beat (a busy machine beats late)


@pytest.fixture
def room(redis_server, tmp_path):
    """A web server's Engine that hands its jobs to a worker, and the worker's Engine: one Redis, one cache folder."""
    cache = tmp_path / "cache"
    web = Engine(cache, redis_url=redis_server.url, training="worker", lease_seconds=LEASE)
    worker = Engine(cache, redis_url=redis_server.url, lease_seconds=LEASE)
    yield web, worker
    for engine in (web, worker):
        engine.board.close()


def start_worker(engine: Engine, redis_url: str) -> threading.Thread:
    """The worker of `flask worker`, in a thread, in burst mode: it quits once no job waits."""
    thread = threading.Thread(target=serve, args=(engine, redis_url, None, True), daemon=True)
    thread.start()
    return thread


@pytest.fixture
def runs(monkeypatch):
    """The seeds line_fit trains with, in order (the worker runs in this process)."""
    seeds = []
    real_run = line_fit.run

    def counting_run(params, progress, device):
        seeds.append(params["seed"])
        return real_run(params, progress, device)

    monkeypatch.setattr(line_fit, "run", counting_run)
    return seeds


def wait_until(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never came true"
        time.sleep(0.02)


def test_the_worker_trains_and_the_web_side_follows_its_progress_and_result(room, redis_server, monkeypatch):
    web, worker = room
    gate = Gate(monkeypatch)
    submission = web.submit("line_fit", FAST)
    job = submission.job
    assert submission.new and job.snapshot()["status"] == "queued"
    assert web.jobs == {} and web.worker is None, "nothing trains in the web process"
    thread = start_worker(worker, redis_server.url)
    try:
        assert gate.entered.wait(timeout=30)
        wait_until(lambda: job.snapshot()["message"] == "halfway, held at the gate", timeout=60)
        state = job.snapshot()
        assert state["status"] == "running" and state["progress"] == 0.5 and state["data"] == {"partial": [1, 2, 3]}
        assert web.submit("line_fit", FAST).job.id == job.id, "a second request joins the running job"
    finally:
        gate.opened.set()
    state = wait_done(job)
    assert state["status"] == "done" and state["cached"] is False and "slope" in state["result"]
    thread.join(timeout=30)
    assert web.submit("line_fit", FAST).entry.result == state["result"]  # cached for both
    assert worker.cached("line_fit", FAST).result == state["result"]


def test_the_lecturers_jobs_go_before_students_jobs(room, redis_server, runs):
    web, worker = room
    student = web.submit("line_fit", {**FAST, "seed": 1}, student=True).job
    lecturer = web.submit("line_fit", {**FAST, "seed": 2}).job
    start_worker(worker, redis_server.url).join(timeout=120)
    assert runs == [2, 1]
    assert wait_done(lecturer)["status"] == "done" and wait_done(student)["status"] == "done"


def test_a_running_job_cancelled_from_the_web_side_ends_within_a_second(room, redis_server, monkeypatch):
    web, worker = room
    spinner = Spinner(monkeypatch)
    job = web.submit("line_fit", FAST).job
    thread = start_worker(worker, redis_server.url)
    assert spinner.entered.wait(timeout=30)
    wait_until(lambda: job.snapshot()["message"] == "training", timeout=60)
    asked = time.monotonic()
    web.cancel(job.id, "Cancelled by the test.")
    state = wait_done(job, timeout=30)
    took = time.monotonic() - asked
    assert state["status"] == "cancelled" and state["stopped_by"] == "cancel" and state["error"] == "Cancelled by the test."
    assert took < 1.0, f"the cancel took {took:.2f} s"
    thread.join(timeout=30)
    assert web.cached("line_fit", FAST) is None


def test_a_lecturers_new_run_stops_a_students_job_on_the_worker(room, redis_server, monkeypatch):
    web, worker = room
    spinner = Spinner(monkeypatch)
    student = web.submit("line_fit", {**FAST, "seed": 1}, student=True, time_limit=600).job
    thread = start_worker(worker, redis_server.url)
    assert spinner.entered.wait(timeout=30)
    monkeypatch.undo()  # the lecturer's run is a real (short) one
    lecturer = web.submit("line_fit", {**FAST, "seed": 2}).job
    assert wait_done(student)["stopped_by"] == "lecturer"
    assert wait_done(lecturer)["status"] == "done"
    thread.join(timeout=30)


def test_a_job_waits_queued_saying_so_while_no_worker_runs_and_is_cancelled_at_once(room):
    web, _ = room
    job = web.submit("line_fit", FAST).job
    time.sleep(LEASE * 1.5)  # longer than a lease: a job nobody holds yet is not taken for one whose process died
    state = job.snapshot()
    assert state["status"] == "queued" and "flask --app app worker" in state["message"]
    assert web.submit("line_fit", FAST).job.id == job.id, "a second request joins the waiting job"
    web.cancel(job.id, "Cancelled by the test.")
    assert job.snapshot()["status"] == "cancelled"
    assert web.training_queue.waiting() == 0, "taken off the worker's queue"


def test_a_worker_killed_mid_run_leaves_no_job_stuck(room, redis_server, tmp_path):
    web, _ = room
    job = web.submit("line_fit", {"steps": 5000}).job  # 50 s on the paced worker
    env = {**os.environ, "FLASK_REDIS_URL": redis_server.url, "FLASK_CACHE_DIR": str(tmp_path / "cache"),
           "FLASK_PROCESS_LEASE_SECONDS": str(LEASE), "FLASK_DEVICE": "cpu"}
    worker = subprocess.Popen([sys.executable, "-m", "flask", "--app", "tests.paced_worker_app", "worker"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: job.snapshot()["message"] == "training", timeout=120)  # only ends a hang
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
        killed = time.monotonic()
        wait_until(lambda: job.snapshot()["status"] == "failed", timeout=LEASE + 3)
        assert "stopped before it finished" in job.snapshot()["error"]
        assert time.monotonic() - killed < LEASE + 3
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()


def test_training_on_a_worker_without_redis_is_refused_at_start(tmp_path):
    with pytest.raises(ValueError, match="FLASK_REDIS_URL"):
        create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "TRAINING": "worker"})
    result = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)}).test_cli_runner().invoke(args=["worker"])
    assert result.exit_code == 2 and "FLASK_REDIS_URL" in result.output


def test_the_api_answers_for_a_job_waiting_on_the_worker(redis_server, tmp_path):
    client = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "REDIS_URL": redis_server.url,
                         "TRAINING": "worker"}).test_client()
    started = client.post("/api/demos/line_fit/run", json=FAST)
    assert started.status_code == 202 and started.get_json()["status"] == "queued"
    assert "flask --app app worker" in client.get(started.get_json()["url"]).get_json()["message"]
    assert client.get("/healthz").get_json()["jobs_running"] == []
    cancelled = client.post(started.get_json()["cancel"], json={"token": started.get_json()["cancel_token"]})
    assert cancelled.get_json()["status"] == "cancelled"


def test_a_job_taken_by_a_worker_that_died_before_starting_it_fails_saying_so(room, redis_server):
    web, _ = room
    job = web.submit("line_fit", FAST).job
    # A worker takes the job off its queue, as RQ does, and dies before its Engine posts it running.
    connection = connect(redis_server.url)
    dead = TrainingWorker([Queue(name, connection=connection) for name in queue_names(None)],
                          connection=connection, name=uuid.uuid4().hex)  # no heartbeat ever posted under it
    taken, _ = dead.dequeue_job_and_maintain_ttl(None)
    dead.prepare_job_execution(taken)
    assert web.training_queue.waiting() == 0 and job.snapshot()["status"] == "queued"
    wait_until(lambda: job.snapshot()["status"] == "failed", timeout=LEASE + 3)
    assert "stopped before it finished" in job.snapshot()["error"]
    assert web.submit("line_fit", FAST).job.id != job.id, "a new request starts a new job, not the lost one"


def test_a_waiting_job_lost_with_a_restarted_redis_fails_instead_of_waiting_forever(room, redis_server):
    web, _ = room
    job = web.submit("line_fit", FAST).job
    redis_server.stop()
    redis_server.start()  # without the data it had: the queue and the job's notice are gone
    assert job.snapshot()["status"] == "failed"
    assert web.submit("line_fit", FAST).job.id != job.id


def test_a_job_followed_from_a_slide_is_cancelled_once_nobody_follows_it(room, redis_server, monkeypatch):
    web, worker = room
    spinner = Spinner(monkeypatch)
    job = web.submit("line_fit", FAST, watched=True).job
    with job.watched():  # a page's stream on a web server, counted on the board
        thread = start_worker(worker, redis_server.url)
        assert spinner.entered.wait(timeout=30)
    state = wait_done(job, timeout=2 * UNWATCHED_GRACE + 3)
    assert state["status"] == "cancelled" and state["stopped_by"] == "unwatched"
    thread.join(timeout=30)


def test_a_lecturers_job_is_not_put_on_the_queue_when_redis_goes_away_midway(room, monkeypatch):
    web, _ = room
    real_write = web.board.write

    def write_until_the_lecturers_run(name, value):
        if name == notices.LECTURER_RUN:
            raise BoardUnavailable("Redis went away")
        return real_write(name, value)

    monkeypatch.setattr(web.board, "write", write_until_the_lecturers_run)
    with pytest.raises(BoardUnavailable):  # a 503 for the request
        web.submit("line_fit", FAST)
    assert web.training_queue.waiting() == 0, "nothing left on the queue for the worker to train unasked"
    assert web.in_flight == {}


def test_a_web_server_that_trains_nothing_runs_no_speed_test(redis_server, tmp_path):
    # Its worker runs it (web/worker.py); under gevent a speed test here would hold every stream.
    app = create_app({"TESTING": True, "CALIBRATE": True, "CACHE_DIR": str(tmp_path), "REDIS_URL": redis_server.url,
                      "TRAINING": "worker"})
    assert app.test_client().get("/slides/1").status_code == 200
    assert app.extensions["engine"].calibration._thread is None
