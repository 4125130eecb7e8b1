"""Predict, then run, over HTTP: a slide's poll as the lecturer and the students use it, every
refusal, the answers kept on disk, who sees the counts while the poll is open, the CSV export, the
poll settled by its own run (whatever ran since), and joining."""
import csv
import io
import json

import pytest
import segno

from app import create_app
from demos.shared.seeds import over_seeds
from slides import SlideError, load_deck
from tests.deck import slide_number, slide_path

STUDENT = {"REMOTE_ADDR": "10.0.0.7"}
TOKEN = "s3cret"
URL = "/api/polls/recall_vs_length"  # a choice poll (number polls: tests/test_number_poll.py)


@pytest.fixture
def student(app):
    """A second browser (its own cookies), not on the server's machine."""
    return app.test_client()


def counts(client):
    return client.get(URL).get_json()["counts"]


def answer(client, choice, **kwargs):
    return client.post(URL + "/answer", json={"choice": choice}, environ_base=STUDENT, **kwargs)


def test_a_poll_is_asked_closed_until_the_lecturer_opens_it(client):
    body = client.get(URL).get_json()
    assert body["question"].startswith("Now with a fair fight") and body["kind"] == "choice"
    assert [c["outcome"] for c in body["choices"]] == ["transformer", "lstm", "tie"]
    assert body["open"] is False and body["counts"] == [0, 0, 0] and body["total"] == 0 and body["mine"] is None


def test_every_demo_slide_the_issue_names_has_a_question():
    with_poll = {slide.demo for slide in load_deck() if slide.poll}
    assert with_poll >= {"amnesia", "recall_vs_length", "index_lookup", "speed_race", "context_scaling",
                         "generation", "dyck"}


@pytest.mark.parametrize("url", ["/api/polls/nope", "/api/polls/system_check", "/api/polls/nope/answer"])
def test_a_poll_that_does_not_exist_is_a_404(client, url):
    response = client.get(url) if not url.endswith("answer") else client.post(url, json={"choice": 0})
    assert response.status_code == 404 and "no poll" in response.get_json()["error"]


def test_students_answer_an_open_poll_once_each_and_may_change_their_minds(client, student, app):
    assert client.post(URL, json={"action": "open"}).get_json()["open"] is True
    first = answer(student, 0)
    assert first.status_code == 200 and first.get_json()["mine"] == 0
    assert "greatshift_voter=" in first.headers["Set-Cookie"] and "HttpOnly" in first.headers["Set-Cookie"]
    assert answer(student, 1).get_json()["total"] == 1  # changed, not counted twice
    assert counts(client) == [0, 1, 0]
    other = app.test_client()
    assert answer(other, 1).get_json()["total"] == 2
    assert student.get(URL).get_json()["mine"] == 1
    assert client.get(URL).get_json()["mine"] is None  # the lecturer has not answered


def test_only_the_instructor_opens_closes_and_resets(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache"), "INSTRUCTOR_TOKEN": TOKEN})
    client = app.test_client()
    for headers in ({}, {"X-Instructor-Token": "wrong"}):
        response = client.post(URL, json={"action": "open"}, headers=headers)
        assert response.status_code == 403 and "instructor" in response.get_json()["error"]
    assert client.get(URL).get_json()["open"] is False
    assert client.post(URL, json={"action": "open"}, headers={"X-Instructor-Token": TOKEN}).get_json()["open"]
    assert client.get("/api/polls.csv").status_code == 403


@pytest.mark.parametrize("body", [{"action": "shut"}, {"action": "open", "extra": 1}, {}, {"action": ["open"]},
                                  {"action": "show_counts", "on": True}, {"action": {"show_counts": True}}])
def test_a_bad_action_is_a_400(client, body):
    response = client.post(URL, json=body)
    assert response.status_code == 400 and response.get_json()["param"] == "action"
    assert client.get(URL).get_json()["open"] is False


def test_a_closed_poll_refuses_answers(client, student):
    response = answer(student, 0)
    assert response.status_code == 409 and "not open" in response.get_json()["error"]
    client.post(URL, json={"action": "open"})
    answer(student, 2)
    client.post(URL, json={"action": "close"})
    assert answer(student, 0).status_code == 409
    assert counts(client) == [0, 0, 1]


@pytest.mark.parametrize("body", ['{"choice": 3}', '{"choice": -1}', '{"choice": "0"}', '{"choice": true}',
                                  '{"choice": 1.5}', '{"choice": 0, "name": "Ada"}', '[0]', '{"choice": 0', ''])
def test_a_bad_answer_is_a_400_and_counts_nothing(client, student, body):
    client.post(URL, json={"action": "open"})
    response = student.post(URL + "/answer", data=body, content_type="application/json", environ_base=STUDENT)
    assert response.status_code == 400, response.get_json()
    assert counts(client) == [0, 0, 0]


def test_an_oversize_answer_is_a_413(client, student):
    client.post(URL, json={"action": "open"})
    response = student.post(URL + "/answer", data=json.dumps({"choice": 0, "pad": "x" * 20_000}),
                            content_type="application/json", environ_base=STUDENT)
    assert response.status_code == 413 and "too large" in response.get_json()["error"]
    assert counts(client) == [0, 0, 0]


def test_a_flood_from_one_browser_is_refused_with_retry_after(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache"), "POLL_ANSWERS_PER_MINUTE": 3})
    lecturer, student = app.test_client(), app.test_client()
    lecturer.post(URL, json={"action": "open"})
    answer(student, 0)  # the first answer gives the browser its id; the next three use up its allowance
    statuses = [answer(student, 1).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = answer(student, 2)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert counts(lecturer) == [0, 1, 0]  # the refused answers changed nothing


def test_reset_clears_the_answers_and_closes(client, student):
    client.post(URL, json={"action": "open"})
    client.post(URL, json={"action": "show_counts"})
    answer(student, 0)
    body = client.post(URL, json={"action": "reset"}).get_json()
    assert body["open"] is False and body["counts"] == [0, 0, 0] and body["shows_counts"] is False


def first_poll_event(client, **kwargs) -> dict:
    stream = client.get(URL + "/events", buffered=False, **kwargs)
    event = next(iter(stream.response)).decode()
    stream.close()
    return json.loads(event.split("data: ", 1)[1])


def test_while_open_only_the_instructor_gets_the_counts_and_everyone_does_at_close(client, student):
    client.post(URL, json={"action": "open"})
    answer(student, 0)
    answer(client.application.test_client(), 2)
    for seen in (student.get(URL, environ_base=STUDENT).get_json(), first_poll_event(student, environ_base=STUDENT),
                 answer(student, 0).get_json()):
        assert seen["open"] is True and seen["total"] == 2 and seen["revealed"] is False
        assert "counts" not in seen  # a late voter cannot follow the crowd
    assert student.get(URL, environ_base=STUDENT).get_json()["mine"] == 0
    for seen in (client.get(URL).get_json(), first_poll_event(client)):  # the instructor's page and stream
        assert seen["revealed"] is True and seen["counts"] == [1, 0, 1]
    client.post(URL, json={"action": "close"})
    for seen in (student.get(URL, environ_base=STUDENT).get_json(), first_poll_event(student, environ_base=STUDENT)):
        assert seen["revealed"] is True and seen["counts"] == [1, 0, 1]


def test_showing_the_counts_on_the_projector_is_the_instructors_choice_and_never_reaches_a_phone(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache"), "INSTRUCTOR_TOKEN": TOKEN})
    lecturer, student = app.test_client(), app.test_client()
    as_lecturer = {"X-Instructor-Token": TOKEN}
    assert lecturer.post(URL, json={"action": "open"}, headers=as_lecturer).get_json()["shows_counts"] is False
    refused = student.post(URL, json={"action": "show_counts"}, environ_base=STUDENT)
    assert refused.status_code == 403
    answer(student, 1)
    shown = lecturer.post(URL, json={"action": "show_counts"}, headers=as_lecturer).get_json()
    assert shown["shows_counts"] is True and shown["open"] is True and shown["counts"] == [0, 1, 0]
    # Every browser knows the projector draws the counts; a student's still gets none of them.
    for seen in (student.get(URL, environ_base=STUDENT).get_json(), first_poll_event(student, environ_base=STUDENT)):
        assert seen["shows_counts"] is True and seen["total"] == 1 and "counts" not in seen
    # The lecturer's own stream cannot send the token: it says how many answered, and the page asks with GET.
    assert "counts" not in first_poll_event(lecturer) and lecturer.get(URL, headers=as_lecturer).get_json()["counts"]
    hidden = lecturer.post(URL, json={"action": "hide_counts"}, headers=as_lecturer).get_json()
    assert hidden["shows_counts"] is False and hidden["counts"] == [0, 1, 0]


def test_answers_are_kept_on_disk_for_a_restarted_server(app, client, student, tmp_path):
    client.post(URL, json={"action": "open"})
    answer(student, 1)
    board = tmp_path / "cache" / "board"
    assert json.loads((board / "poll-recall_vs_length.json").read_text())["value"]["open"] is True
    assert list(json.loads((board / "poll-answers-recall_vs_length.json").read_text())["value"].values()) == [1]
    restarted = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache")})
    assert restarted.test_client().get(URL).get_json()["counts"] == [0, 1, 0]


def test_answers_kept_inside_the_poll_by_an_older_server_still_count_until_a_reset(client, student, tmp_path):
    """Before the answers had a map of their own, the poll's notice held them: a cache folder from then
    shows them, a voter among them who answers again is counted once, and Reset clears them."""
    board = tmp_path / "cache" / "board"
    board.mkdir(parents=True, exist_ok=True)
    old = {"open": True, "hides_result": True, "shows_counts": False, "answers": {"ada": 0, "bob": 2}}
    (board / "poll-recall_vs_length.json").write_text(json.dumps({"version": 1, "value": old}))
    assert client.get(URL).get_json()["counts"] == [1, 0, 1]
    answer(student, 1)
    assert client.get(URL).get_json()["counts"] == [1, 1, 1]
    client.post(URL, json={"action": "close"})
    assert client.get(URL).get_json()["counts"] == [1, 1, 1]  # Close keeps them
    client.post(URL, json={"action": "reset"})
    assert client.get(URL).get_json()["total"] == 0


def test_the_event_stream_starts_with_the_counts(client, student):
    client.post(URL, json={"action": "open"})
    answer(student, 2)
    stream = client.get(URL + "/events", buffered=False)
    assert stream.mimetype == "text/event-stream"
    event = next(iter(stream.response)).decode()
    stream.close()
    assert event.startswith("retry: 1000\nevent: poll\n")
    data = json.loads(event.split("data: ", 1)[1])
    assert data["open"] is True and data["counts"] == [0, 0, 1] and "mine" not in data


def test_the_instructor_downloads_every_poll_as_csv(client, student):
    client.post(URL, json={"action": "open"})
    answer(student, 0)
    response = client.get("/api/polls.csv")
    assert response.mimetype == "text/csv" and "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    fair_fight = [row for row in rows if row["demo"] == "recall_vs_length"]
    assert [(row["choice"], row["answers"], row["share"]) for row in fair_fight] == [
        ("The Transformer", "1", "1.000"), ("The tuned LSTM", "0", "0.000"), ("Neither is ahead with every seed", "0", "0.000")]
    assert {row["demo"] for row in rows} >= {"dyck", "speed_race"}
    assert student.get("/api/polls.csv", environ_base=STUDENT).status_code == 403


def fair_fight(params: dict, transformer: list[float], lstm: list[float]) -> dict:
    """A fair-fight result at one length with these accuracies per seed (the plain LSTM at chance)."""
    return {"params": params, "lengths": [50], "seeds": list(range(len(lstm))), "points": [
        {"model": "transformer", "length": 50, "accuracy": over_seeds(transformer)},
        {"model": "lstm-tuned", "length": 50, "accuracy": over_seeds(lstm)},
        {"model": "lstm", "length": 50, "accuracy": over_seeds([0.04] * len(lstm))}]}


def cache_fair_fight(app, transformer: list[float], lstm: list[float], settings: dict | None = None) -> dict:
    """A stored fair-fight result with these accuracies per seed, as the engine would keep it, at these
    settings (None: the slide's own, the poll's run). Returns its parameters."""
    engine = app.extensions["engine"]
    demo, params, key = engine.resolve("recall_vs_length", settings)
    result = {**fair_fight(params, transformer, lstm), "device": "cpu", "train_seconds": 1.0}
    engine.cache.put(demo.ID, key, params, result)
    return params


def test_the_outcome_names_the_choice_the_measured_result_supports(app, client):
    params = cache_fair_fight(app, transformer=[1.0, 0.98], lstm=[0.05, 0.07])
    body = client.post(URL + "/outcome", json=params).get_json()
    assert body["status"] == "done" and body["same_run"] is True and body["params"] == params
    outcome = body["outcome"]
    assert outcome["winner"] == "transformer" and outcome["choice"] == 0
    assert "Transformer 99% (98%–100%), tuned LSTM 6% (5%–7%)" in outcome["detail"]
    tie = cache_fair_fight(app, transformer=[0.5, 0.9], lstm=[0.6, 0.7])
    assert client.post(URL + "/outcome", json=tie).get_json()["outcome"]["choice"] == 2


def test_a_poll_is_settled_by_its_own_run_whatever_runs_after_it(app, client, student):
    own = cache_fair_fight(app, transformer=[1.0, 0.98], lstm=[0.05, 0.07])
    client.post(URL, json={"action": "open"})
    answer(student, 0)
    client.post(URL, json={"action": "close"})
    # A Retrain at other settings (longer strings, more steps) where the LSTM wins: shown, but it asked nothing.
    other = cache_fair_fight(app, transformer=[0.04, 0.05], lstm=[0.9, 0.95], settings={"lengths": [100], "steps": 600})
    for shown in (other, {**own, "seed": own["seed"] + 1}):
        body = student.post(URL + "/outcome", json=shown, environ_base=STUDENT).get_json()
        assert body["status"] == "done" and body["same_run"] is False
        assert body["params"] == own and body["outcome"]["winner"] == "transformer" and body["outcome"]["choice"] == 0
    # The same run with its defaults left out, as a link to it may be written: the same cache key.
    assert client.post(URL + "/outcome", json={}).get_json()["same_run"] is True
    # The CSV and `flask export` count the class against that run too (the recap names its winner).
    rows = [row for row in csv.DictReader(io.StringIO(client.get("/api/polls.csv").get_data(as_text=True)))
            if row["demo"] == "recall_vs_length"]
    assert [row["answers"] for row in rows] == ["1", "0", "0"]
    recap = {row["demo"]: row for row in client.get("/api/recap").get_json()["rows"]}
    assert recap["recall_vs_length"]["winner"] == "transformer"


def test_the_outcome_before_the_polls_own_run_is_computed_is_missing_and_never_trains(app, client):
    cache_fair_fight(app, transformer=[1.0, 0.98], lstm=[0.05, 0.07], settings={"steps": 21})
    body = client.post(URL + "/outcome", json={"steps": 21}).get_json()
    assert body == {"status": "missing", "same_run": False}  # the run on show settles nothing
    assert client.post(URL + "/outcome", json={}).get_json() == {"status": "missing", "same_run": True}
    assert app.extensions["engine"].status()[0]["job"] is None
    bad = client.post(URL + "/outcome", json={"width": 1000})
    assert bad.status_code == 400 and bad.get_json()["param"] == "width"


def test_join_leads_to_the_lecturers_slide(client):
    assert client.get("/join").headers["Location"] == "/slides/1"
    client.post("/api/follow", json={"on": True, "n": slide_number("amnesia")})
    assert client.get("/join").headers["Location"] == slide_path("amnesia")
    assert client.get("/j").headers["Location"] == slide_path("amnesia")


def test_the_join_address_uses_the_host_reached_unless_set(client, tmp_path):
    body = client.get("/api/join", base_url="http://10.1.2.3:8000").get_json()
    assert body == {"url": "http://10.1.2.3:8000/j", "short": "10.1.2.3:8000/j", "local": False}
    assert client.get("/api/join", base_url="http://localhost:5000").get_json()["local"] is True
    qr = client.get("/join/qr.svg", base_url="http://10.1.2.3:8000")
    assert qr.mimetype == "image/svg+xml" and qr.headers["Cache-Control"] == "no-store"
    expected = io.BytesIO()
    segno.make("http://10.1.2.3:8000/j", error="m").save(expected, kind="svg", border=4, omitsize=True, xmldecl=False,
                                                       dark="#000", light="#fff", title="QR code: join the lecture")
    assert qr.data == expected.getvalue()  # the QR code encodes exactly that address
    public = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "c"), "PUBLIC_URL": "https://lecture.example.org/"})
    assert public.test_client().get("/api/join").get_json()["url"] == "https://lecture.example.org/j"
    with pytest.raises(ValueError, match="FLASK_PUBLIC_URL"):
        create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "d"), "PUBLIC_URL": "lecture.example.org"})


@pytest.mark.parametrize("poll, message", [
    ("poll:\n  question: Which?\n  choices:\n    lstm: LSTM", "2 to 5 choices"),
    ("poll:\n  question: Which?\n  choices:\n    lstm: LSTM\n    gru: GRU", "keyed by an outcome"),
    ("poll:\n  choices:\n    lstm: LSTM\n    tie: Tie", "needs a question"),
    ("poll:\n  question: Which?", "either choices"),
])
def test_a_badly_written_poll_is_refused_with_the_reason(tmp_path, poll, message):
    (tmp_path / "01-amnesia.md").write_text(f"---\ntitle: T\ndemo: amnesia\n{poll}\n---\nBody\n")
    with pytest.raises(SlideError, match=message):
        load_deck(tmp_path)


def test_flask_export_freezes_the_answers_beside_the_results(app, client, student, tmp_path):
    engine = app.extensions["engine"]
    demo, params, key = engine.resolve("recall_vs_length", None)
    result = {**fair_fight(params, [1.0, 1.0, 0.99], [0.05, 0.06, 0.07]), "device": "cpu", "train_seconds": 1.0}
    engine.cache.put(demo.ID, key, params, result)
    client.post(URL, json={"action": "open"})
    answer(student, 1)
    out = tmp_path / "export"
    run = app.test_cli_runner().invoke(args=["export", str(out)])
    assert run.exit_code == 0, run.output
    polls = sum(slide.poll is not None for slide in load_deck())
    assert f"froze the class's answers to {polls} polls; answered: recall_vs_length (1)" in run.output
    frozen = json.loads((out / "polls" / "recall_vs_length.json").read_text())
    assert frozen["counts"] == [0, 1, 0] and frozen["open"] is False
    assert frozen["outcome"]["winner"] == "transformer" and frozen["outcome"]["choice"] == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert {"demo": "recall_vs_length", "answers": 1} in manifest["polls"]
    html = (out / "index.html").read_text()
    assert 'id="frozen-polls"' in html and "/api/" not in html
