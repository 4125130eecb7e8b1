"""A poll keeps its secret: while the Amnesia Test's poll is open, or reset and not closed again, a
student gets its result by no route (run, lookup, the demo's listing, its jobs, the poll's verdict,
follow mode's state and stream, the recap, the presenter's numbers); the lecturer still does. Close
shows it to everyone."""
import json

import pytest

from app import create_app
from demos.shared.seeds import over_seeds
from engine.jobs import Job

STUDENT = {"REMOTE_ADDR": "10.0.0.7"}  # the lecturer's test client is on this machine: the instructor
POLL = "/api/polls/amnesia"
SLIDE = 3  # the Amnesia Test's slide


@pytest.fixture
def student(app):
    return app.test_client()


@pytest.fixture
def rehearsed(app) -> dict:
    """The lecturer rehearsed the slide: its default result is cached. Returns its parameters."""
    engine = app.extensions["engine"]
    demo, params, key = engine.resolve("amnesia", None)
    result = {"params": params, "chance": 1 / 26, "seeds": [0, 1], "device": "cpu", "train_seconds": 1.0,
              "summary": "The Transformer recalled the letter; the LSTM forgot it.",
              "models": {"transformer": {"accuracy": over_seeds([1.0, 0.98])},
                         "lstm-tuned": {"accuracy": over_seeds([0.05, 0.07])}}}
    engine.cache.put(demo.ID, key, params, result)
    return params


def first_event(client, url, **kwargs):
    stream = client.get(url, buffered=False, **kwargs)
    assert stream.mimetype == "text/event-stream", stream.get_json()
    chunks = iter(stream.response)
    event = next(chunks).decode()
    return stream, chunks, event_of(event)


def event_of(text: str) -> tuple[str, dict]:
    lines = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line and not line.startswith(":"))
    return lines["event"], json.loads(lines["data"])


def what_a_student_sees(student, params: dict) -> dict:
    """Every route by which a result (or who won) could reach a student's page, as that page asks it."""
    run = student.post("/api/demos/amnesia/run", json=params, environ_base=STUDENT)
    lookup = student.post("/api/demos/amnesia/lookup", json=params, environ_base=STUDENT)
    prepared = student.get("/api/demos/amnesia/prepared", environ_base=STUDENT)
    outcome = student.post(POLL + "/outcome", json=params, environ_base=STUDENT)
    listed = {row["id"]: row for row in student.get("/api/demos", environ_base=STUDENT).get_json()["demos"]}
    recap = {row["demo"]: row for row in student.get("/api/recap", environ_base=STUDENT).get_json()["rows"]}
    measured = student.get("/api/measured", environ_base=STUDENT).get_json()["slides"]
    stream, _, (name, streamed) = first_event(student, "/api/follow/events", environ_base=STUDENT)
    stream.close()
    return {"run": run, "lookup": lookup, "prepared": prepared, "outcome": outcome, "listed": listed["amnesia"],
            "shown": student.get("/api/demos/amnesia", environ_base=STUDENT).get_json(),
            "recap": recap["amnesia"], "measured": measured.get(str(SLIDE)),
            "follow": student.get("/api/follow", environ_base=STUDENT).get_json()["demo"], "streamed": streamed["demo"]}


def assert_refused(response):
    assert response.status_code == 409, response.get_json()
    body = response.get_json()
    assert body["reason"] == "poll_open" and body["poll"] == POLL and body["demo"] == "amnesia"
    assert body["withheld"] is True  # the field the page shows as a note, not an error (error_note.js)
    assert "closes the poll" in body["error"]
    assert "result" not in body


def assert_kept_secret(seen: dict):
    for route in ("run", "lookup", "prepared", "outcome"):
        assert_refused(seen[route])
    assert seen["listed"]["reason"] == seen["shown"]["reason"] == "poll_open"
    assert seen["recap"] == {"n": SLIDE, "slide": "The Amnesia Test", "demo": "amnesia", "contest": True,
                             "measured": False, "reason": "poll_open"}
    assert seen["measured"] is None
    assert seen["follow"] == seen["streamed"] == {"id": "amnesia", "reason": "poll_open"}


def assert_shown(seen: dict, params: dict):
    assert seen["run"].status_code == seen["lookup"].status_code == seen["prepared"].status_code == 200
    assert seen["run"].get_json()["result"]["params"] == params == seen["lookup"].get_json()["result"]["params"]
    assert seen["outcome"].get_json()["outcome"]["mean"] == pytest.approx(6)  # the tuned LSTM's accuracy, in %
    assert "reason" not in seen["listed"] and seen["recap"]["winner"] == "transformer"
    assert seen["measured"][0]["summary"].startswith("The Transformer recalled")
    assert seen["follow"]["params"] == params == seen["streamed"]["params"]


def lead(client, params):
    """The lecturer leads the class to the slide and shows the rehearsed result there."""
    body = client.post("/api/follow", json={"on": True, "n": SLIDE, "demo": {"id": "amnesia", "params": params}})
    assert body.status_code == 200


def test_an_open_poll_keeps_the_result_from_students_by_every_route_and_close_shows_it(app, client, student, rehearsed):
    lead(client, rehearsed)
    assert_shown(what_a_student_sees(student, rehearsed), rehearsed)  # no poll asked yet: nothing to keep

    assert client.post(POLL, json={"action": "open"}).get_json()["hides_result"] is True
    assert_kept_secret(what_a_student_sees(student, rehearsed))
    other = {**rehearsed, "seeds": 1}  # other settings, not computed: a student cannot train them either
    assert_refused(student.post("/api/demos/amnesia/run", json=other, environ_base=STUDENT))
    assert app.extensions["engine"].status()[0]["job"] is None and not app.extensions["engine"].jobs

    body = client.post(POLL, json={"action": "close"}).get_json()
    assert body["open"] is False and body["hides_result"] is False
    assert_shown(what_a_student_sees(student, rehearsed), rehearsed)


def test_reset_hides_the_result_again_until_the_poll_closes(client, student, rehearsed):
    lead(client, rehearsed)
    client.post(POLL, json={"action": "open"})
    client.post(POLL, json={"action": "close"})
    assert_shown(what_a_student_sees(student, rehearsed), rehearsed)

    body = client.post(POLL, json={"action": "reset"}).get_json()
    assert body["open"] is False and body["hides_result"] is True and body["total"] == 0
    assert_kept_secret(what_a_student_sees(student, rehearsed))
    client.post(POLL, json={"action": "open"})
    assert_kept_secret(what_a_student_sees(student, rehearsed))
    client.post(POLL, json={"action": "close"})
    assert_shown(what_a_student_sees(student, rehearsed), rehearsed)


def test_close_after_reset_shows_the_result_without_asking_again(client, student, rehearsed):
    client.post(POLL, json={"action": "reset"})
    assert_refused(student.post("/api/demos/amnesia/lookup", json=rehearsed, environ_base=STUDENT))
    assert client.post(POLL, json={"action": "close"}).get_json()["hides_result"] is False
    assert student.post("/api/demos/amnesia/lookup", json=rehearsed, environ_base=STUDENT).status_code == 200


def test_the_lecturer_still_runs_and_looks_up_while_the_poll_is_open(client, rehearsed):
    lead(client, rehearsed)
    client.post(POLL, json={"action": "open"})
    assert client.post("/api/demos/amnesia/run", json=rehearsed).get_json()["result"]["params"] == rehearsed
    assert client.post("/api/demos/amnesia/lookup", json=rehearsed).get_json()["status"] == "done"
    assert client.get("/api/follow").get_json()["demo"]["params"] == rehearsed
    recap = {row["demo"]: row for row in client.get("/api/recap").get_json()["rows"]}
    assert recap["amnesia"]["winner"] == "transformer"


def test_other_demos_are_not_kept_back(client, student):
    client.post(POLL, json={"action": "open"})
    response = student.post("/api/demos/system_check/lookup", json={}, environ_base=STUDENT)
    assert response.status_code == 200 and response.get_json() == {"status": "missing"}


def test_the_follow_stream_sends_again_when_the_lecturers_demos_poll_changes(client, student, rehearsed):
    lead(client, rehearsed)
    stream, chunks, (_, state) = first_event(student, "/api/follow/events", environ_base=STUDENT)
    assert state["demo"]["params"] == rehearsed
    client.post(POLL, json={"action": "open"})
    assert event_of(next(chunks).decode())[1]["demo"] == {"id": "amnesia", "reason": "poll_open"}
    client.post(POLL, json={"action": "close"})
    assert event_of(next(chunks).decode())[1]["demo"]["params"] == rehearsed
    stream.close()


def a_job(app, status: str = "running") -> Job:
    """A job of the Amnesia Test in the engine's list, as a run would leave it (no training here)."""
    engine = app.extensions["engine"]
    _, params, key = engine.resolve("amnesia", {"seeds": 1})
    job = Job("amnesia", params, key)
    job.start()
    job.report(0.5, "training", {"accuracy": [0.9]})
    while "data" not in job.snapshot():  # a report right after the start is published a moment later
        job.wait_for_change(job.version, timeout=5)
    engine.jobs[job.id] = job
    return job


def test_a_students_job_of_the_demo_is_refused_while_the_poll_is_open(app, client, student):
    job = a_job(app)
    assert student.get(f"/api/jobs/{job.id}", environ_base=STUDENT).status_code == 200
    client.post(POLL, json={"action": "open"})
    assert_refused(student.get(f"/api/jobs/{job.id}", environ_base=STUDENT))
    assert_refused(student.get(f"/api/jobs/{job.id}/events", environ_base=STUDENT))
    assert client.get(f"/api/jobs/{job.id}").get_json()["status"] == "running"  # the lecturer follows it


def test_a_student_following_a_job_when_the_poll_opens_gets_no_result(app, client, student):
    job = a_job(app)
    stream, chunks, (name, _) = first_event(student, f"/api/jobs/{job.id}/events", environ_base=STUDENT)
    assert name == "progress"
    client.post(POLL, json={"action": "open"})
    job.finish({"params": job.params, "models": {}}, cached=False)
    name, data = event_of(next(chunks).decode())
    stream.close()
    assert name == "failed" and data["reason"] == "poll_open" and "result" not in data
    assert "closes the poll" in data["error"]


def test_the_lecturers_page_follows_its_own_run_through_the_open_poll_and_no_one_else_can(tmp_path):
    """An event stream cannot send the token's header: the instructor's URL of it carries a key instead."""
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache"), "INSTRUCTOR_TOKEN": "s3cret"})
    lecturer, student = app.test_client(), app.test_client()
    token = {"X-Instructor-Token": "s3cret"}
    job = a_job(app)
    lecturer.post(POLL, json={"action": "open"}, headers=token)
    lecturers_demo = {"id": "amnesia", "params": job.params, "job": job.id}  # the run the lecturer's slide shows
    lecturer.post("/api/follow", json={"on": True, "n": SLIDE, "demo": lecturers_demo}, headers=token)
    events = lecturer.get("/api/follow", headers=token).get_json()["demo"]["events"]
    assert events.startswith(f"/api/jobs/{job.id}/events?key=")
    stream, _, (name, state) = first_event(student, events)  # as the lecturer's EventSource asks it: no header
    stream.close()
    assert name == "progress" and state["data"] == {"accuracy": [0.9]}
    for url in (f"/api/jobs/{job.id}/events", f"/api/jobs/{job.id}/events?key=" + "0" * 32):
        assert_refused(student.get(url))
    assert student.get("/api/follow").get_json()["demo"] == {"id": "amnesia", "reason": "poll_open"}
