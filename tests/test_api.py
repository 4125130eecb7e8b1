"""The demo API over HTTP: every answer a user (or a script) can get, good and bad."""
import json
import threading
import time

import pytest

from app import create_app
from engine import calibration
from slides import demo_ids, load_deck
from tests import line_fit
from tests.held_jobs import FAST, Gate, Spinner

NOT_LOCAL = {"REMOTE_ADDR": "10.0.0.7"}


def run_to_completion(client, demo_id="line_fit", params=FAST, **kwargs):
    """POST run and, if a job started, read its event stream to the end; return (events, final state)."""
    response = client.post(f"/api/demos/{demo_id}/run", json=params, **kwargs)
    if response.status_code == 200:
        return [], response.get_json()
    assert response.status_code == 202, response.get_json()
    events = read_events(client, response.get_json()["events"])
    return events, events[-1][1]


def wait_for(condition, failure: str, deadline_seconds: float = 60) -> None:
    """Until `condition()` holds; the deadline only ends a hang."""
    deadline = time.monotonic() + deadline_seconds
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.02)


def read_events(client, url):
    """Parse a Server-Sent Events stream into [(event, data), ...]."""
    response = client.get(url)
    assert response.mimetype == "text/event-stream"
    events = []
    for block in response.get_data(as_text=True).split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        if "event" in lines:
            events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_the_demo_list_has_every_schema(client):
    body = client.get("/api/demos").get_json()
    assert body["device"] == "cpu"
    demos = {demo["id"]: demo for demo in body["demos"]}
    assert {"system_check", "line_fit"} <= set(demos)
    steps = next(p for p in demos["line_fit"]["params"] if p["name"] == "steps")
    assert steps == {"name": "steps", "type": "int", "default": 300, "min": 1, "max": 5000, "help": "Training steps"}
    assert all("help" in p and "default" in p for demo in demos.values() for p in demo["params"])


def test_one_demo_and_an_unknown_one(client):
    assert client.get("/api/demos/line_fit").get_json()["cached"] is False
    response = client.get("/api/demos/nope")
    assert response.status_code == 404 and "nope" in response.get_json()["error"]


def test_first_run_trains_in_a_job_then_answers_from_the_cache(client):
    events, final = run_to_completion(client)
    assert final["status"] == "done" and final["cached"] is False
    result = final["result"]
    assert {"device", "params", "seed", "train_seconds"} <= set(result)

    response = client.post("/api/demos/line_fit/run", json=FAST)
    assert response.status_code == 200
    assert response.get_json() == {"status": "done", "cached": True, "result": result}
    assert client.get("/api/demos/line_fit", json=FAST).get_json()["cached"] is False, "defaults differ from FAST"


def test_an_empty_body_runs_the_defaults(app, client):
    _, final = run_to_completion(client, params=None, data=b"", content_type="application/json")
    assert final["result"]["params"]["steps"] == 300
    assert client.get("/api/demos/line_fit").get_json()["cached"] is True


def test_the_event_stream_sends_progress_then_the_result(client, monkeypatch):
    gate = Gate(monkeypatch)
    job = client.post("/api/demos/line_fit/run", json=FAST).get_json()
    assert gate.entered.wait(timeout=30)
    # While the demo is held, its job shows the progress it reported.
    state = client.get(f"/api/jobs/{job['job']}").get_json()
    assert state["status"] == "running" and state["message"] == "halfway, held at the gate"
    stream = client.get(job["events"], buffered=False)
    chunks = stream.response  # the generator, read as the server writes
    first = next(iter(chunks)).decode()
    assert first.startswith("retry: 1000\nevent: progress") and "held at the gate" in first  # reconnect within 1 s
    gate.opened.set()
    rest = b"".join(chunks).decode()
    assert "event: done" in rest and '"result"' in rest
    assert rest.rstrip().endswith("}"), "the stream ends after the result"


def test_a_job_that_fails_says_why(client, monkeypatch):
    def broken(params, progress, device):
        raise ValueError("the loss became NaN at step 12")

    monkeypatch.setattr(line_fit, "run", broken)
    events, final = run_to_completion(client)
    assert events[-1][0] == "failed"
    assert final["status"] == "failed" and "NaN at step 12" in final["error"]
    assert client.get(f"/api/jobs/{final['job']}").get_json()["status"] == "failed"


@pytest.mark.parametrize("body, status, words", [
    (b"{", 400, "JSON object"),
    (b"[1, 2]", 400, "JSON object"),
    (b'"steps"', 400, "JSON object"),
    (b"[" * 5000 + b"]" * 5000, 400, "JSON object"),
    (b'{"steps": "many"}', 400, "steps: enter a whole number between 1 and 5,000"),
    (b'{"steps": 0}', 400, "steps: enter a whole number between 1 and 5,000; 0 is too small"),
    (b'{"steps": NaN}', 400, "steps: enter a whole number between 1 and 5,000 (a finite number)"),
    (b'{"lr": 1e999}', 400, "lr: enter a number between 0.0001 and 1 (a finite number)"),
    (b'{"seed": 1e30}', 400, "seed: enter a whole number between 0 and 2,147,483,647; that is too large"),
    (b'{"colour": "red"}', 400, "colour: is not a parameter"),
    (b'{"force": "yes"}', 400, "force: must be true or false"),
    (b'{"seed": ' + b"1" * 17000 + b"}", 413, "too large"),
])
def test_bad_input_gets_a_clear_json_error_and_starts_nothing(client, body, status, words):
    response = client.post("/api/demos/line_fit/run", data=body, content_type="application/json")
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert client.get("/api/demos/line_fit").get_json()["job"] is None


def test_a_bad_parameter_is_named_for_the_widget(client):
    body = client.post("/api/demos/line_fit/run", json={"lr": 5}).get_json()
    assert body["param"] == "lr" and "between 0.0001 and 1" in body["error"]


def test_an_unknown_demo_or_job_is_a_json_404(client):
    assert client.post("/api/demos/nope/run", json={}).status_code == 404
    for path in ["/api/jobs/abc", "/api/jobs/abc/events"]:
        response = client.get(path)
        assert response.status_code == 404 and response.is_json


def test_a_full_queue_answers_503_with_retry_after(tmp_path, monkeypatch):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "MAX_QUEUED_JOBS": 1})
    client = app.test_client()
    gate = Gate(monkeypatch)
    try:
        assert client.post("/api/demos/line_fit/run", json={"seed": 1, "steps": 5}).status_code == 202
        assert gate.entered.wait(timeout=30)
        assert client.post("/api/demos/line_fit/run", json={"seed": 2, "steps": 5}).status_code == 202
        response = client.post("/api/demos/line_fit/run", json={"seed": 3, "steps": 5})
        assert response.status_code == 503
        assert int(response.headers["Retry-After"]) > 0 and "busy" in response.get_json()["error"]
    finally:
        gate.opened.set()
    engine = app.extensions["engine"]
    for job in list(engine.jobs.values()):
        job.wait_for_change(-1, 0)
        while not job.finished:
            job.wait_for_change(job.version, 30)


def test_force_retrains_for_the_instructor_only(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "INSTRUCTOR_TOKEN": "s3cret"})
    client = app.test_client()
    run_to_completion(client)
    refused = client.post("/api/demos/line_fit/run", json={**FAST, "force": True})
    assert refused.status_code == 403 and "instructor" in refused.get_json()["error"]
    wrong = client.post("/api/demos/line_fit/run", json={**FAST, "force": True}, headers={"X-Instructor-Token": "guess"})
    assert wrong.status_code == 403
    # Students still get the cached result for free.
    assert client.post("/api/demos/line_fit/run", json=FAST, environ_base=NOT_LOCAL).status_code == 200
    events, final = run_to_completion(client, params={**FAST, "force": True}, headers={"X-Instructor-Token": "s3cret"})
    assert final["cached"] is False


def test_without_a_token_only_this_machine_may_force(client):
    run_to_completion(client)
    assert client.post("/api/demos/line_fit/run", json={**FAST, "force": True}, environ_base=NOT_LOCAL).status_code == 403
    _, final = run_to_completion(client, params={**FAST, "force": True})
    assert final["cached"] is False


def test_warm_all_is_for_the_instructor_and_queues_what_is_not_cached(client, only_fast_demos):
    assert client.post("/api/warm", environ_base=NOT_LOCAL).status_code == 403
    run_to_completion(client, params=None)  # line_fit's default is cached now
    response = client.post("/api/warm")
    assert response.status_code == 202
    queued = {job["demo"] for job in response.get_json()["jobs"]}
    assert "line_fit" not in queued and "system_check" in queued
    for job in response.get_json()["jobs"]:
        events = read_events(client, f"/api/jobs/{job['job']}/events")
        assert events[-1][0] == "done"
    assert all(demo["cached"] for demo in client.get("/api/demos").get_json()["demos"])


def test_warm_all_when_the_queue_fills_part_way_says_what_it_queued_and_a_retry_queues_the_rest(
        tmp_path, monkeypatch, only_fast_demos):
    """Room for one job: Warm all queues the first demo not cached and answers which demos still wait
    for a second press. The demo queued trains, and pressing again joins (never repeats) what is on its
    way and queues the rest once there is room. With no room at all, the answer is busy, try again."""
    from demos import DEMOS

    monkeypatch.setattr(DEMOS["system_check"], "run", lambda params, progress, device: {"summary": "stub"})
    gate = Gate(monkeypatch)  # holds every line_fit run until opened
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "MAX_QUEUED_JOBS": 1})
    client = app.test_client()
    try:
        held = client.post("/api/demos/line_fit/run", json={**FAST, "seed": 1}).get_json()  # the worker's: running
        assert gate.entered.wait(timeout=30)
        part_way = client.post("/api/warm")
        assert part_way.status_code == 202
        answer = part_way.get_json()
        assert [job["demo"] for job in answer["jobs"]] == ["system_check"] and answer["waiting"] == ["line_fit"]
        rows = {row["id"]: row for row in client.get("/api/demos").get_json()["demos"]}
        assert rows["system_check"]["job"]["status"] == "queued", "queued before the queue was full"
        assert rows["line_fit"]["job"] is None and not rows["line_fit"]["cached"], "refused: nothing of it started"
        queued = answer["jobs"][0]["job"]
        again = client.post("/api/warm").get_json()
        assert [job["job"] for job in again["jobs"]] == [queued] and again["waiting"] == ["line_fit"], \
            "still full: the same answer, and nothing queued twice"
        assert len(app.extensions["engine"].jobs) == 2
    finally:
        gate.opened.set()
    assert read_events(client, held["events"])[-1][0] == "done"
    assert read_events(client, f"/api/jobs/{queued}/events")[-1][0] == "done", "what was queued trained"
    retry = client.post("/api/warm")
    assert retry.status_code == 202 and [job["demo"] for job in retry.get_json()["jobs"]] == ["line_fit"]
    assert read_events(client, retry.get_json()["jobs"][0]["events"])[-1][0] == "done"
    assert all(demo["cached"] for demo in client.get("/api/demos").get_json()["demos"])
    assert client.post("/api/warm").get_json() == {"jobs": [], "waiting": []}, "nothing left to warm"


def test_warm_all_with_no_room_at_all_is_busy_and_queues_nothing(tmp_path, monkeypatch, only_fast_demos):
    gate = Gate(monkeypatch)
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "MAX_QUEUED_JOBS": 1})
    client = app.test_client()
    try:
        client.post("/api/demos/line_fit/run", json={**FAST, "seed": 1})  # running
        assert gate.entered.wait(timeout=30)
        assert client.post("/api/demos/line_fit/run", json={**FAST, "seed": 2}).status_code == 202  # queued: full
        busy = client.post("/api/warm")
        assert busy.status_code == 503 and int(busy.headers["Retry-After"]) > 0
        assert busy.get_json()["error"] == "The server is busy training other demos; try again in a few seconds."
        assert len(app.extensions["engine"].jobs) == 2, "nothing queued"
    finally:
        gate.opened.set()


def test_a_restarted_app_serves_the_cached_result_without_training(tmp_path, monkeypatch):
    config = {"TESTING": True, "CACHE_DIR": str(tmp_path / "cache")}
    _, first = run_to_completion(create_app(config).test_client())
    monkeypatch.setattr(line_fit, "run", lambda *args: pytest.fail("trained again after a restart"))
    response = create_app(config).test_client().post("/api/demos/line_fit/run", json=FAST)
    assert response.status_code == 200 and response.get_json()["result"] == first["result"]


def test_fifty_concurrent_http_requests_train_once(client, monkeypatch):
    calls = []
    real_run = line_fit.run
    monkeypatch.setattr(line_fit, "run", lambda *args: calls.append(1) or real_run(*args))
    barrier = threading.Barrier(50)
    answers = []

    def ask():
        barrier.wait()
        answers.append(client.post("/api/demos/line_fit/run", json=FAST).get_json())

    threads = [threading.Thread(target=ask) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 50
    jobs = {a["job"] for a in answers if "job" in a}
    assert len(jobs) <= 1
    for job in jobs:
        read_events(client, f"/api/jobs/{job}/events")
    assert len(calls) == 1


def test_students_are_rate_limited_on_new_training_runs_only(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "STUDENT_JOBS_PER_MINUTE": 2})
    client = app.test_client()
    for seed in (1, 2):
        _, final = run_to_completion(client, params={"steps": 5, "seed": seed}, environ_base=NOT_LOCAL)
        assert final["status"] == "done"
    refused = client.post("/api/demos/line_fit/run", json={"steps": 5, "seed": 3}, environ_base=NOT_LOCAL)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1 and "try again" in refused.get_json()["error"]
    # Cached results stay free, another student has their own budget, the instructor has none.
    assert client.post("/api/demos/line_fit/run", json={"steps": 5, "seed": 1}, environ_base=NOT_LOCAL).status_code == 200
    other = client.post("/api/demos/line_fit/run", json={"steps": 5, "seed": 4}, environ_base={"REMOTE_ADDR": "10.0.0.8"})
    assert other.status_code == 202
    read_events(client, other.get_json()["events"])
    _, final = run_to_completion(client, params={"steps": 5, "seed": 5})  # localhost, no token configured
    assert final["status"] == "done"


def test_the_lecturers_defaults_stay_in_memory_whatever_students_ask(tmp_path, monkeypatch):
    from engine import cache as cache_module
    monkeypatch.setattr(cache_module, "MEMORY_ENTRIES", 2)
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)})
    client = app.test_client()
    run_to_completion(client, params={})  # the default result
    for seed in range(1, 5):
        run_to_completion(client, params={"steps": 3, "seed": seed})
    engine = app.extensions["engine"]
    demo, params, key = engine.resolve("line_fit", None)
    assert key in engine.cache.memory
    assert len(engine.cache.memory) <= 2 + len(engine.cache.pinned)


def test_a_students_run_is_cut_off_at_the_time_limit_but_the_lecturers_is_not(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "STUDENT_JOB_SECONDS": 0})
    client = app.test_client()
    _, student = run_to_completion(client, environ_base=NOT_LOCAL)
    assert student["status"] == "cancelled" and student["stopped_by"] == "time_limit"
    assert "longest a student's run may take" in student["error"]
    _, lecturer = run_to_completion(client)  # localhost, no token configured: the instructor
    assert lecturer["status"] == "done"


def test_a_run_can_be_cancelled_by_whoever_started_it_or_the_instructor_only(tmp_path, monkeypatch):
    spinner = Spinner(monkeypatch)
    client = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)}).test_client()
    started = client.post("/api/demos/line_fit/run", json=FAST, environ_base=NOT_LOCAL).get_json()
    assert started["cancel"] == f"/api/jobs/{started['job']}/cancel" and started["cancel_token"]
    assert spinner.entered.wait(timeout=30)
    joined = client.post("/api/demos/line_fit/run", json=FAST, environ_base={"REMOTE_ADDR": "10.0.0.9"}).get_json()
    assert joined["job"] == started["job"] and "cancel_token" not in joined  # a second student may not cancel it
    refused = client.post(started["cancel"], json={"token": "guess"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert refused.status_code == 403 and "started this run" in refused.get_json()["error"]
    for token in ("é" * 32, 12, None):  # text in any script, or no text at all: refused, never a 500
        assert client.post(started["cancel"], json={"token": token}, environ_base=NOT_LOCAL).status_code == 403
    assert client.post(started["cancel"], json={"token": started["cancel_token"]}, environ_base=NOT_LOCAL).status_code == 202
    final = read_events(client, started["events"])[-1]
    assert final[0] == "cancelled" and "Nothing of this run was kept" in final[1]["error"]
    assert client.post("/api/demos/line_fit/lookup", json=FAST).get_json() == {"status": "missing"}

    again = client.post("/api/demos/line_fit/run", json=FAST, environ_base=NOT_LOCAL).get_json()
    assert again["job"] != started["job"]  # the slot was freed: a new run starts afresh
    assert client.post(again["cancel"], json={}).status_code == 202  # the lecturer (this machine) may cancel any run
    assert read_events(client, again["events"])[-1][0] == "cancelled"


def test_the_estimate_names_the_time_a_run_will_take_before_it_starts(client):
    first = client.post("/api/demos/line_fit/estimate", json=FAST).get_json()
    assert first["cached"] is False and first["estimate"] is None and first["device"] == "cpu"
    assert first["confirm_over_seconds"] == 20 and first["instructor"] is True
    _, done = run_to_completion(client)
    again = client.post("/api/demos/line_fit/estimate", json=FAST).get_json()
    assert again["cached"] is True
    assert again["estimate"]["seconds"] == pytest.approx(done["result"]["train_seconds"], abs=0.01)
    longer = client.post("/api/demos/line_fit/estimate", json={"steps": 200}).get_json()
    assert longer["estimate"]["seconds"] == pytest.approx(10 * done["result"]["train_seconds"], rel=0.05)
    student = client.post("/api/demos/line_fit/estimate", json=FAST, environ_base=NOT_LOCAL).get_json()
    assert student["time_limit_seconds"] == 60 and student["instructor"] is False
    bad = client.post("/api/demos/line_fit/estimate", json={"steps": "many"})
    assert bad.status_code == 400 and bad.get_json()["param"] == "steps"


def test_a_fresh_server_gives_every_slide_demo_an_estimate(tmp_path):
    # The speed test as a fresh server has just measured it (measuring it here would take seconds).
    (tmp_path / "calibration.json").write_text(json.dumps({"cpu": {"seconds": 0.5, "version": calibration.VERSION}}))
    client = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "CALIBRATE": True}).test_client()
    for demo_id in demo_ids(load_deck()):
        answer = client.post(f"/api/demos/{demo_id}/estimate", json={}).get_json()
        assert answer["cached"] is False, demo_id
        assert answer["estimate"]["seconds"] > 0 and "speed test" in answer["estimate"]["basis"], demo_id


def test_the_instructors_runs_have_a_time_limit_too(tmp_path):
    client = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "INSTRUCTOR_JOB_SECONDS": 0}).test_client()
    _, lecturer = run_to_completion(client)
    assert lecturer["status"] == "cancelled" and lecturer["stopped_by"] == "time_limit"
    assert "instructor's time limit" in lecturer["error"]


def test_every_job_answer_carries_its_addresses_and_a_stop_is_said_as_data(tmp_path, monkeypatch):
    """The pages never build a job's URL nor read its wording: the 202, the job's state, its events and
    the cancel answer all carry `url`, `events` and `cancel`; a stopped job keeps `stopped_by`."""
    spinner = Spinner(monkeypatch)
    client = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)}).test_client()
    started = client.post("/api/demos/line_fit/run", json=FAST, environ_base=NOT_LOCAL).get_json()
    job_id = started["job"]
    links = {"url": f"/api/jobs/{job_id}", "events": f"/api/jobs/{job_id}/events", "cancel": f"/api/jobs/{job_id}/cancel"}
    assert {name: started[name] for name in links} == links
    assert spinner.entered.wait(timeout=30)
    running = client.get(started["url"]).get_json()
    assert running["status"] == "running" and "stopped_by" not in running
    assert {name: running[name] for name in links} == links
    cancelled = client.post(started["cancel"], json={"token": started["cancel_token"]}, environ_base=NOT_LOCAL)
    assert {name: cancelled.get_json()[name] for name in links} == links
    event, final = read_events(client, started["events"])[-1]
    assert (event, final["status"], final["stopped_by"]) == ("cancelled", "cancelled", "cancel")
    assert {name: final[name] for name in links} == links
    later = client.get(started["url"]).get_json()  # a page reloaded after the end still learns it
    assert later["status"] == "cancelled" and later["stopped_by"] == "cancel"
    assert later["error"] == "Cancelled. Nothing of this run was kept."



# ---- cancelling what cannot be cancelled: a clear answer, and nothing changes

def test_cancelling_a_run_that_has_ended_answers_its_end_and_changes_nothing(tmp_path, monkeypatch):
    """Cancel pressed just after the run finished (or failed, or was cancelled already): the answer is the
    job as it ended, the result stays cached, and the first reason for a stop is the one kept."""
    from engine import notices

    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)})
    client = app.test_client()
    started = client.post("/api/demos/line_fit/run", json=FAST, environ_base=NOT_LOCAL).get_json()
    done = read_events(client, started["events"])[-1][1]
    assert done["status"] == "done"
    for who in ({"json": {"token": started["cancel_token"]}, "environ_base": NOT_LOCAL}, {"json": {}}):  # starter, lecturer
        answer = client.post(started["cancel"], **who)
        assert answer.status_code == 202 and answer.is_json
        assert answer.get_json()["status"] == "done" and answer.get_json()["result"] == done["result"]
    assert client.post(started["cancel"], json={"token": "guess"}, environ_base=NOT_LOCAL).status_code == 403
    assert client.get(started["url"]).get_json()["status"] == "done"
    assert client.post("/api/demos/line_fit/lookup", json=FAST).get_json()["result"] == done["result"], "still cached"
    assert app.extensions["engine"].board.names(notices.CANCEL) == [], "no request to stop was posted for anyone"

    monkeypatch.setattr(line_fit, "run", lambda params, progress, device: 1 / 0)
    failed = client.post("/api/demos/line_fit/run", json={**FAST, "seed": 2}).get_json()
    assert read_events(client, failed["events"])[-1][0] == "failed"
    answer = client.post(failed["cancel"], json={}).get_json()
    assert answer["status"] == "failed" and "ZeroDivisionError" in answer["error"] and "stopped_by" not in answer

    spinner = Spinner(monkeypatch)
    running = client.post("/api/demos/line_fit/run", json={**FAST, "seed": 3}).get_json()
    assert spinner.entered.wait(timeout=30)
    client.post(running["cancel"], json={})
    assert read_events(client, running["events"])[-1][0] == "cancelled"
    again = client.post(running["cancel"], json={}).get_json()
    assert (again["status"], again["stopped_by"], again["error"]) == ("cancelled", "cancel", "Cancelled. Nothing of this run was kept.")


def test_cancelling_a_run_another_server_process_finished_changes_nothing(tmp_path):
    """Two server processes share the cache folder: the cancel reaches the one that did not run the job."""
    from engine import notices

    runner, other = (create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)}).test_client() for _ in range(2))
    started = runner.post("/api/demos/line_fit/run", json=FAST).get_json()
    done = read_events(runner, started["events"])[-1][1]
    # The runner posts the job's end on the board just after its own listeners hear of it.
    wait_for(lambda: other.get(started["url"]).get_json()["status"] == "done", "the other process never saw the end")
    answer = other.post(started["cancel"], json={})
    assert answer.status_code == 202 and answer.get_json()["status"] == "done"
    assert other.application.extensions["engine"].board.names(notices.CANCEL) == []
    assert runner.get(started["url"]).get_json()["status"] == "done"
    assert other.post("/api/demos/line_fit/lookup", json=FAST).get_json()["result"] == done["result"]


@pytest.mark.parametrize("job_id", ["0123456789abcdef", "abc"], ids=["well-formed", "malformed"])
def test_cancelling_an_unknown_job_is_a_json_404_that_starts_and_stops_nothing(app, client, job_id):
    from engine import notices

    running = client.post("/api/demos/line_fit/run", json=FAST).get_json()
    for who in ({"json": {}}, {"json": {"token": "guess"}, "environ_base": NOT_LOCAL}):
        answer = client.post(f"/api/jobs/{job_id}/cancel", **who)
        assert answer.status_code == 404 and answer.is_json
        assert answer.get_json()["error"] == "There is no such job; it may have finished long ago. Run the demo again."
    assert app.extensions["engine"].board.names(notices.CANCEL) == []
    assert read_events(client, running["events"])[-1][0] == "done", "the job that was running was left alone"
