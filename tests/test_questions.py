"""Anonymous questions over HTTP: asking, upvoting once per browser, the lecturer's marks, every
refusal (each changing nothing), hidden questions kept from the class, the CSV, the list kept on
disk, questions and votes counted once under concurrency, and none of it in `flask export`."""
import csv
import io
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("hypothesis", reason="the property tests need hypothesis: pip install -e '.[test]'")
from hypothesis import given, settings
from hypothesis import strategies as st

from app import create_app
from engine import questions as engine_questions
from tests.deck import SLIDES
from tests.test_fuzz import JSON
from web.voters import VOTER_COOKIE

STUDENT = {"REMOTE_ADDR": "10.0.0.7"}
TOKEN = "s3cret"
INSTRUCTOR = {"X-Instructor-Token": TOKEN}
URL = "/api/questions"


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache"), "INSTRUCTOR_TOKEN": TOKEN, **config})


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


@pytest.fixture
def lecturer(app):
    return app.test_client()


@pytest.fixture
def phones(app):
    """Three students' browsers, each with its own cookies."""
    return [app.test_client() for _ in range(3)]


def ask(client, text="Why does the LSTM forget?", slide=3, **kwargs):
    return client.post(URL, json={"text": text, "slide": slide}, environ_base=STUDENT, **kwargs)


def upvote(client, question_id, up=True):
    return client.post(f"{URL}/{question_id}/vote", json={"up": up}, environ_base=STUDENT)


def listed(client, **kwargs):
    return client.get(URL, environ_base=STUDENT, **kwargs).get_json()


def mark(client, question_id, action):
    return client.post(f"{URL}/{question_id}", json={"action": action}, headers=INSTRUCTOR)


def test_a_question_is_listed_for_the_class_without_any_voter_id(phones):
    asker, other, _ = phones
    response = ask(asker, "  What does a gate do?\nIn words.  ", 5)
    assert response.status_code == 201
    question = response.get_json()["question"]
    assert question["text"] == "What does a gate do?\nIn words." and question["slide"] == 5
    assert question["votes"] == 0 and question["mine"] is True and question["answered"] is False
    voter_id = response.headers["Set-Cookie"].split("greatshift_voter=", 1)[1].split(";", 1)[0]
    seen = listed(other)
    assert seen["count"] == 1 and seen["questions"][0]["mine"] is False and "hidden" not in seen["questions"][0]
    assert voter_id not in json.dumps(seen) and voter_id not in json.dumps(listed(asker))
    assert listed(asker)["questions"][0]["mine"] is True


@pytest.mark.parametrize("body, param", [
    ({}, "text"), ({"slide": 3}, "text"), ({"text": "", "slide": 3}, "text"), ({"text": " \n\t ", "slide": 3}, "text"),
    ({"text": "x" * 281, "slide": 3}, "text"), ({"text": "tab\there", "slide": 3}, "text"),
    ({"text": "nul\x00", "slide": 3}, "text"), ({"text": "bell\x07", "slide": 3}, "text"), ({"text": 42, "slide": 3}, "text"),
    ({"text": ["why?"], "slide": 3}, "text"), ({"text": "Why?"}, "slide"), ({"text": "Why?", "slide": 0}, "slide"),
    ({"text": "Why?", "slide": SLIDES + 1}, "slide"), ({"text": "Why?", "slide": "3"}, "slide"), ({"text": "Why?", "slide": True}, "slide"),
    ({"text": "Why?", "slide": 2.5}, "slide"), ({"text": "Why?", "slide": 3, "name": "Ada"}, "name"),
])
def test_a_bad_question_is_a_400_naming_the_field_and_stores_nothing(lecturer, phones, body, param):
    response = phones[0].post(URL, json=body, environ_base=STUDENT)
    assert response.status_code == 400 and response.get_json()["param"] == param and response.get_json()["error"]
    assert lecturer.get(URL, headers=INSTRUCTOR).get_json()["count"] == 0


@pytest.mark.parametrize("raw", ["not json", "[1, 2]", '"why?"'])
def test_a_body_that_is_not_a_json_object_is_a_400(lecturer, phones, raw):
    response = phones[0].post(URL, data=raw, content_type="application/json", environ_base=STUDENT)
    assert response.status_code == 400 and "JSON object" in response.get_json()["error"]
    assert lecturer.get(URL, headers=INSTRUCTOR).get_json()["count"] == 0


def test_the_longest_question_and_the_last_slide_are_taken(phones):
    assert ask(phones[0], "y" * 280, SLIDES).status_code == 201


def test_the_list_is_ordered_by_votes_then_by_age(phones):
    first, second, third = (ask(phone, f"Question {i}").get_json()["question"]["id"] for i, phone in enumerate(phones))
    upvote(phones[0], third)
    upvote(phones[1], third)
    upvote(phones[2], second)
    assert [(q["id"], q["votes"]) for q in listed(phones[0])["questions"]] == [(third, 2), (second, 1), (first, 0)]


def test_a_browser_counts_once_and_can_take_its_vote_back(phones):
    question_id = ask(phones[0]).get_json()["question"]["id"]
    voter = phones[1]
    assert upvote(voter, question_id).get_json()["question"]["votes"] == 1
    again = upvote(voter, question_id).get_json()["question"]
    assert again["votes"] == 1 and again["voted"] is True
    assert listed(phones[2])["questions"][0]["voted"] is False
    assert upvote(voter, question_id, up=False).get_json()["question"]["votes"] == 0
    assert upvote(voter, question_id, up=False).get_json()["question"] == {**again, "votes": 0, "voted": False}


@pytest.mark.parametrize("body", [{}, {"up": 1}, {"up": "true"}, {"up": None}, {"up": True, "weight": 5}])
def test_a_bad_vote_is_a_400_and_counts_nothing(phones, body):
    question_id = ask(phones[0]).get_json()["question"]["id"]
    response = phones[1].post(f"{URL}/{question_id}/vote", json=body, environ_base=STUDENT)
    assert response.status_code == 400 and response.get_json()["param"] == "up"
    assert listed(phones[1])["questions"][0]["votes"] == 0


@pytest.mark.parametrize("url", [f"{URL}/99/vote", f"{URL}/abc/vote", f"{URL}/-1/vote"])
def test_a_vote_on_a_question_that_does_not_exist_is_a_404(phones, url):
    ask(phones[0])
    response = phones[1].post(url, json={"up": True}, environ_base=STUDENT)
    assert response.status_code == 404 and response.get_json()["error"]
    assert listed(phones[1])["questions"][0]["votes"] == 0


def test_only_the_instructor_marks_questions(lecturer, phones):
    question_id = ask(phones[0]).get_json()["question"]["id"]
    for headers in ({}, {"X-Instructor-Token": "wrong"}):
        refused = phones[1].post(f"{URL}/{question_id}", json={"action": "hide"}, headers=headers, environ_base=STUDENT)
        assert refused.status_code == 403 and "instructor" in refused.get_json()["error"]
    assert listed(phones[1])["count"] == 1
    answered = mark(lecturer, question_id, "answered")
    assert answered.status_code == 200 and answered.get_json()["question"]["answered"] is True
    assert listed(phones[1])["questions"][0]["answered"] is True
    assert mark(lecturer, question_id, "restore").get_json()["question"]["answered"] is False


@pytest.mark.parametrize("body", [{}, {"action": "delete"}, {"action": "hide", "also": 1}, {"action": ["hide"]}])
def test_a_bad_mark_is_a_400_and_changes_nothing(lecturer, phones, body):
    question_id = ask(phones[0]).get_json()["question"]["id"]
    response = lecturer.post(f"{URL}/{question_id}", json=body, headers=INSTRUCTOR)
    assert response.status_code == 400 and response.get_json()["param"] == "action"
    question = lecturer.get(URL, headers=INSTRUCTOR).get_json()["questions"][0]
    assert question["answered"] is False and question["hidden"] is False
    assert mark(lecturer, 99, "hide").status_code == 404


def test_a_hidden_question_is_kept_from_the_class_and_takes_no_votes(lecturer, phones):
    kept, hidden = (ask(phone, text).get_json()["question"]["id"] for phone, text in zip(phones, ["Fine", "Rude"]))
    upvote(phones[2], hidden)
    assert mark(lecturer, hidden, "hide").get_json()["question"]["hidden"] is True
    for phone in phones:  # the asker too
        assert [q["id"] for q in listed(phone)["questions"]] == [kept]
    assert "Rude" not in first_event(phones[2]).decode()
    refused = upvote(phones[2], hidden, up=False)
    assert refused.status_code == 409 and "hidden" in refused.get_json()["error"]
    everything = lecturer.get(URL, headers=INSTRUCTOR).get_json()["questions"]
    assert [(q["id"], q["hidden"], q["votes"]) for q in everything] == [(hidden, True, 1), (kept, False, 0)]
    mark(lecturer, hidden, "restore")
    assert len(listed(phones[0])["questions"]) == 2


def first_event(client, **kwargs) -> bytes:
    stream = client.get(URL + "/events", buffered=False, environ_base=STUDENT, **kwargs)
    assert stream.mimetype == "text/event-stream"
    event = next(iter(stream.response))
    stream.close()
    return event


def test_the_event_stream_starts_with_the_list_as_this_browser_sees_it(phones):
    ask(phones[0], "Mine")
    event = first_event(phones[0]).decode()
    assert event.startswith("retry: 1000\nevent: questions\n")
    data = json.loads(event.split("data: ", 1)[1])
    assert data["count"] == 1 and data["questions"][0]["mine"] is True and data["questions"][0]["text"] == "Mine"
    other = json.loads(first_event(phones[1]).decode().split("data: ", 1)[1])
    assert other["questions"][0]["mine"] is False


def test_a_flood_of_questions_from_one_browser_is_refused_with_retry_after(tmp_path):
    app = make_app(tmp_path, QUESTIONS_PER_MINUTE=2)
    phone = app.test_client()
    ask(phone, "Q0")  # the first question gives the browser its id; the next two use up its allowance
    assert [ask(phone, f"Q{i}").status_code for i in (1, 2, 3)] == [201, 201, 429]
    refused = ask(phone, "Q4")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1 and "questions" in refused.get_json()["error"]
    assert listed(app.test_client())["count"] == 3


def test_a_flood_of_votes_from_one_browser_is_refused(tmp_path):
    app = make_app(tmp_path, QUESTION_VOTES_PER_MINUTE=2)
    question_id = ask(app.test_client()).get_json()["question"]["id"]
    voter = app.test_client()
    statuses = [upvote(voter, question_id, up).status_code for up in (True, False, True, True)]
    assert statuses == [200, 200, 200, 429]  # the first vote gave the browser its id, limited by address
    assert listed(voter)["questions"][0]["votes"] == 1


def test_new_browsers_from_one_address_are_limited_but_a_hall_is_not(tmp_path):
    app = make_app(tmp_path, POLL_NEW_VOTERS_PER_MINUTE=3)
    assert [ask(app.test_client(), "Hi").status_code for _ in range(4)] == [201, 201, 201, 429]  # cookies dropped
    elsewhere = app.test_client().post(URL, json={"text": "Hi", "slide": 1}, environ_base={"REMOTE_ADDR": "10.0.0.8"})
    assert elsewhere.status_code == 201
    default = make_app(tmp_path / "hall")  # the defaults take a class of 50 sharing one address
    assert all(ask(default.test_client(), f"Q{i}").status_code == 201 for i in range(50))


def test_a_full_list_refuses_more_with_a_409(phones, monkeypatch):
    monkeypatch.setattr(engine_questions, "MAX_QUESTIONS", 2)
    ask(phones[0])
    ask(phones[1])
    refused = ask(phones[2])
    assert refused.status_code == 409 and "full" in refused.get_json()["error"]
    assert listed(phones[2])["count"] == 2


def test_the_instructor_downloads_every_question_as_csv(lecturer, phones):
    formula = ask(phones[0], "=HYPERLINK(\"http://x\")", 2).get_json()["question"]["id"]
    rude = ask(phones[1], "Rude", 4).get_json()["question"]["id"]
    upvote(phones[2], formula)
    mark(lecturer, rude, "hide")
    assert phones[0].get(URL + ".csv", environ_base=STUDENT).status_code == 403
    response = lecturer.get(URL + ".csv", headers=INSTRUCTOR)
    assert response.mimetype == "text/csv" and "questions.csv" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["slide", "text", "votes", "answered", "hidden", "asked at"]
    assert [row[:5] for row in rows[1:]] == [["2", "'=HYPERLINK(\"http://x\")", "1", "False", "False"],
                                            ["4", "Rude", "0", "False", "True"]]
    assert rows[1][5].startswith("20")


def test_questions_are_kept_on_disk_for_a_restarted_server(tmp_path, phones):
    ask(phones[0], "Still there?")
    restarted = make_app(tmp_path)
    assert listed(restarted.test_client())["questions"][0]["text"] == "Still there?"



def test_an_upvote_writes_one_field_of_the_votes_and_leaves_the_questions_unwritten(tmp_path, phones):
    ask(phones[0], "Which?")
    board = tmp_path / "cache" / "board"
    posted = (board / "questions.json").read_bytes()
    upvote(phones[1], 1)
    upvote(phones[2], 1)
    upvote(phones[2], 1, up=False)
    assert (board / "questions.json").read_bytes() == posted
    votes = json.loads((board / "question-votes.json").read_text())["value"]
    assert list(votes.values()) == [True] and list(votes)[0].startswith("1:")
    assert listed(phones[1])["questions"][0]["votes"] == 1


def test_votes_kept_inside_the_questions_by_an_older_server_still_count_and_can_be_taken_back(tmp_path, phones):
    """Before the votes had a map of their own, each question held its voters."""
    board = tmp_path / "cache" / "board"
    board.mkdir(parents=True, exist_ok=True)
    question = {"id": 1, "text": "Old?", "slide": 3, "asker": "someone", "answered": False, "hidden": False,
                "asked_at": "2026-11-01T09:00:00+00:00", "voters": ["another-voter", "a-voter-from-before-0001"]}
    (board / "questions.json").write_text(json.dumps({"version": 1, "value": {"next_id": 2, "questions": [question]}}))
    phones[1].set_cookie(VOTER_COOKIE, "a-voter-from-before-0001")
    assert listed(phones[1])["questions"][0]["votes"] == 2 and listed(phones[1])["questions"][0]["voted"]
    assert upvote(phones[1], 1).get_json()["question"]["votes"] == 2  # counted once
    assert upvote(phones[1], 1, up=False).get_json()["question"]["votes"] == 1
    assert upvote(phones[2], 1).get_json()["question"]["votes"] == 2


def test_every_question_and_vote_from_two_processes_at_once_is_counted_once(tmp_path):
    """Two apps on one cache folder stand for two gunicorn workers; 24 phones ask and vote at once."""
    workers = [make_app(tmp_path), make_app(tmp_path)]
    phones = [workers[i % 2].test_client() for i in range(24)]
    with ThreadPoolExecutor(8) as pool:
        asked = list(pool.map(lambda phone: ask(phone, "Same time").status_code, phones))
        ids = [q["id"] for q in listed(phones[0])["questions"]]
        targets = ids[:2]
        votes = list(pool.map(lambda pair: upvote(pair[0], pair[1]).status_code,
                              [(phone, target) for phone in phones for target in targets + targets]))  # each twice
    assert asked == [201] * 24 and votes == [200] * 96
    for worker in workers:
        seen = listed(worker.test_client())
        assert seen["count"] == 24 and sorted(q["id"] for q in seen["questions"]) == list(range(1, 25))
        assert [q["votes"] for q in seen["questions"]][:3] == [24, 24, 0]


def test_flask_export_leaves_the_questions_out(app, phones, tmp_path):
    ask(phones[0], "A secret worry about gradients")
    out = tmp_path / "export"
    run = app.test_cli_runner().invoke(args=["export", str(out)])
    assert run.exit_code == 0, run.output
    for path in out.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".json", ".js", ".csv"):
            text = path.read_text(errors="replace")
            assert "secret worry" not in text and "/api/questions" not in text, path


def test_a_lone_surrogate_is_refused_not_stored(lecturer, phones):
    response = phones[0].post(URL, data='{"text": "why \\ud800", "slide": 1}', content_type="application/json",
                              environ_base=STUDENT)
    assert response.status_code == 400 and response.get_json()["param"] == "text"
    assert lecturer.get(URL, headers=INSTRUCTOR).get_json()["count"] == 0


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("fuzz"), QUESTIONS_PER_MINUTE=10**6, QUESTION_VOTES_PER_MINUTE=10**6)
    client = app.test_client()
    ask(client)
    return client


@settings(max_examples=80, deadline=None)
@given(body=st.dictionaries(st.sampled_from(["text", "slide", "up", "action"]) | st.text(max_size=8), JSON, max_size=3),
       path=st.sampled_from([URL, f"{URL}/1/vote", f"{URL}/1", f"{URL}/2/vote"]))
def test_random_bodies_get_a_clear_4xx_or_are_taken(fuzzed, body, path):
    response = fuzzed.post(path, data=json.dumps(body, allow_nan=True), content_type="application/json",
                           headers=INSTRUCTOR, environ_base=STUDENT)
    assert response.status_code < 500 and response.is_json, response.get_data(as_text=True)[:300]
    if response.status_code == 400:
        assert "param" in response.get_json() and response.get_json()["error"]  # the field at fault, named
