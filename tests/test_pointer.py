"""The lecturer's pointer over HTTP: the instructor moves and hides it, every bad body and every
student is refused and changes nothing, and the follow stream carries it to the class (a burst of
moves as the newest place alone)."""
import json

import pytest

from app import create_app
from engine import notices

URL = "/api/follow/pointer"
STUDENT = {"REMOTE_ADDR": "10.0.0.7"}  # the test client is on the server's machine: the instructor


def board(app):
    return app.extensions["engine"].board


def pointer_now(app):
    return board(app).read(notices.POINTER)


def next_event(chunks) -> tuple[str, dict]:
    """The stream's next event (a heartbeat in its place fails the test: nothing was sent)."""
    text = next(chunks).decode()
    lines = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line and not line.startswith(":"))
    assert "event" in lines, f"no event came, only {text!r}"
    return lines["event"], json.loads(lines["data"])


@pytest.fixture
def stream(client):
    """A student's follow stream, past its first event (the follow state): yields its chunks."""
    response = client.get("/api/follow/events", environ_base=STUDENT, buffered=False)
    chunks = iter(response.response)
    assert next_event(chunks)[0] == "follow"
    yield chunks
    response.close()


def test_the_instructor_shows_moves_and_hides_the_pointer_on_their_slide(client):
    client.post("/api/follow", json={"on": True, "n": 4})
    shown = client.post(URL, json={"x": 0.25, "y": 0.75})
    assert shown.status_code == 200
    pointer = shown.get_json()["pointer"]
    assert (pointer["x"], pointer["y"], pointer["n"]) == (0.25, 0.75, 4) and pointer["at"] > 0
    assert client.post(URL, json={"x": 0, "y": 1}).get_json()["pointer"]["x"] == 0  # the slide's edges are on it
    hidden = client.post(URL, json={"x": None, "y": None}).get_json()["pointer"]
    assert hidden["x"] is None and hidden["y"] is None and hidden["n"] == 4


@pytest.mark.parametrize("body,param", [
    ({}, "x"),
    ({"x": 0.5}, "y"),
    ({"y": 0.5}, "x"),
    ({"x": "0.5", "y": 0.5}, "x"),
    ({"x": 0.5, "y": True}, "y"),
    ({"x": [0.5], "y": 0.5}, "x"),
    ({"x": -0.01, "y": 0.5}, "x"),
    ({"x": 0.5, "y": 1.01}, "y"),
    ({"x": 10 ** 400, "y": 0.5}, "x"),
    ({"x": None, "y": 0.5}, "x"),  # half hidden is no place
    ({"x": 0.5, "y": None}, "y"),
    ({"x": 0.5, "y": 0.5, "n": 3}, "n"),  # the slide is the lecturer's, not the body's
    ({"x": 0.5, "y": 0.5, "page": "tab1"}, "seq"),  # a window's name and number come together
    ({"x": 0.5, "y": 0.5, "seq": 3}, "page"),
    ({"x": 0.5, "y": 0.5, "page": "", "seq": 3}, "page"),
    ({"x": 0.5, "y": 0.5, "page": "<b>tab</b>", "seq": 3}, "page"),
    ({"x": 0.5, "y": 0.5, "page": "t" * 65, "seq": 3}, "page"),
    ({"x": 0.5, "y": 0.5, "page": 7, "seq": 3}, "page"),
    ({"x": 0.5, "y": 0.5, "page": "tab1", "seq": -1}, "seq"),
    ({"x": 0.5, "y": 0.5, "page": "tab1", "seq": 1.5}, "seq"),
    ({"x": 0.5, "y": 0.5, "page": "tab1", "seq": True}, "seq"),
    ({"x": 0.5, "y": 0.5, "page": "tab1", "seq": "3"}, "seq"),
])
def test_a_bad_place_is_refused_naming_it_and_changes_nothing(client, body, param):
    before = client.post(URL, json={"x": 0.1, "y": 0.2}).get_json()["pointer"]
    refused = client.post(URL, json=body)
    assert refused.status_code == 400 and refused.get_json()["param"] == param, refused.get_json()
    assert pointer_now(client.application)[1] == before


@pytest.mark.parametrize("raw,param", [
    ('{"x": NaN, "y": 0.5}', "x"),
    ('{"x": 0.5, "y": Infinity}', "y"),
    ('{"x": 0.5, "y": -Infinity}', "y"),
    ("[0.5, 0.5]", None),
    ('{"x": 0.5', None),
])
def test_what_json_cannot_say_as_a_place_is_refused(client, raw, param):
    version = pointer_now(client.application)[0]
    refused = client.post(URL, data=raw, content_type="application/json")
    assert refused.status_code == 400 and refused.get_json().get("param") == param, refused.get_json()
    assert pointer_now(client.application)[0] == version


def test_a_move_overtaken_by_its_windows_hide_does_not_show_the_pointer_again(client):
    """A window closing mid-move: its keepalive hide (post 8) reaches the server before the move it
    sent just before (post 7). The late move is dropped; another window's post is not."""
    client.post(URL, json={"x": 0.5, "y": 0.5, "page": "slides1", "seq": 6})
    hidden = client.post(URL, json={"x": None, "y": None, "page": "slides1", "seq": 8}).get_json()["pointer"]
    version = pointer_now(client.application)[0]
    late = client.post(URL, json={"x": 0.6, "y": 0.6, "page": "slides1", "seq": 7})
    assert late.status_code == 200 and late.get_json()["pointer"] == hidden  # the place that stands
    assert pointer_now(client.application) == (version, hidden)  # not written: the followers see nothing
    again = client.post(URL, json={"x": 0.6, "y": 0.6, "page": "slides1", "seq": 8})  # not later either
    assert again.get_json()["pointer"] == hidden
    reloaded = client.post(URL, json={"x": 0.7, "y": 0.2, "page": "slides2", "seq": 1}).get_json()["pointer"]
    assert (reloaded["x"], reloaded["y"]) == (0.7, 0.2)  # a reloaded window counts afresh
    unnumbered = client.post(URL, json={"x": 0.1, "y": 0.1}).get_json()["pointer"]
    assert (unnumbered["x"], "page" in unnumbered) == (0.1, False)  # a post without a number always counts


def test_only_the_instructor_points(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "INSTRUCTOR_TOKEN": "s3cret"})
    client = app.test_client()
    for headers in ({}, {"X-Instructor-Token": "guess"}):  # on this machine too, once a token is set
        refused = client.post(URL, json={"x": 0.5, "y": 0.5}, headers=headers)
        assert refused.status_code == 403 and "instructor" in refused.get_json()["error"]
    assert pointer_now(app) == (0, None), "nothing was posted"
    assert client.post(URL, json={"x": 0.5, "y": 0.5}, headers={"X-Instructor-Token": "s3cret"}).status_code == 200


def test_a_student_is_refused_even_a_good_place(client):
    assert client.post(URL, json={"x": 0.5, "y": 0.5}, environ_base=STUDENT).status_code == 403


def test_the_follow_stream_carries_the_pointer_to_the_class(client, stream):
    client.post("/api/follow", json={"on": True, "n": 5})
    assert next_event(stream) == ("follow", client.get("/api/follow").get_json())
    at = client.post(URL, json={"x": 0.3, "y": 0.6}).get_json()["pointer"]["at"]
    assert next_event(stream) == ("pointer", {"x": 0.3, "y": 0.6, "n": 5, "at": at})
    client.post(URL, json={"x": None, "y": None})
    name, hidden = next_event(stream)
    assert name == "pointer" and hidden["x"] is None


def test_a_burst_of_moves_reaches_a_stream_as_the_newest_place_alone(client, stream):
    for step in range(10):  # faster than the stream sends: it was busy, or the phone's network slow
        client.post(URL, json={"x": step / 10, "y": 0.5})
    assert next_event(stream)[1]["x"] == 0.9
    client.post("/api/follow", json={"n": 2})  # the follow state is not held back by the pointer
    assert next_event(stream)[0] == "follow"


def test_a_student_who_joins_while_the_lecturer_points_sees_the_pointer_at_once(client):
    client.post(URL, json={"x": 0.4, "y": 0.4})
    response = client.get("/api/follow/events", environ_base=STUDENT, buffered=False)
    chunks = iter(response.response)
    assert next_event(chunks)[0] == "follow"
    assert next_event(chunks)[1]["x"] == 0.4
    response.close()
