"""An unexpected exception (a bug, a full disk) gives the audience a plain 500: JSON under /api/,
the friendly error page elsewhere, and never the traceback or the exception's own words, which
go to the server's log instead (web/errors.py)."""
import logging

import pytest

from app import create_app

SECRET = "disk full at /home/lecturer/.cache/results, token=s3cret"  # what must never reach a browser


@pytest.fixture
def failing_app(tmp_path):
    """The real app with two throwaway routes that fail as a bug would: one under /api/, one page."""
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache")})

    @app.get("/api/explodes")
    def api_explodes():
        raise RuntimeError(SECRET)

    @app.get("/explodes")
    def page_explodes():
        raise KeyError(SECRET)

    return app


def leaks(text: str) -> list[str]:
    return [word for word in (SECRET, "s3cret", "Traceback", "RuntimeError", "KeyError", 'File "') if word in text]


def test_an_api_route_that_raises_answers_a_plain_500_in_json(failing_app, caplog):
    with caplog.at_level(logging.ERROR):
        response = failing_app.test_client().get("/api/explodes")
    assert response.status_code == 500 and response.is_json
    body = response.get_json()
    assert body["status"] == 500 and body["error"], "the JSON error the pages read (web/jsonio.py)"
    assert leaks(response.get_data(as_text=True)) == []
    assert SECRET in caplog.text and "Traceback" in caplog.text, "the server's log keeps what went wrong"


def test_a_page_that_raises_shows_the_friendly_error_page(failing_app, caplog):
    with caplog.at_level(logging.ERROR):
        response = failing_app.test_client().get("/explodes")
    page = response.get_data(as_text=True)
    assert response.status_code == 500 and response.mimetype == "text/html"
    assert "Something went wrong on the server. The lecture itself is fine" in page
    assert 'href="/slides/1"' in page, "a way back to the lecture"
    assert leaks(page) == []
    assert SECRET in caplog.text


def test_a_real_route_whose_engine_fails_answers_the_same_way(client, app, monkeypatch):
    """Not only a route made to fail: the demo list, a lookup and a slide's print view (which asks the
    engine what is measured), when the engine underneath raises."""
    engine = app.extensions["engine"]
    monkeypatch.setattr(engine, "status", lambda: (_ for _ in ()).throw(OSError(SECRET)))
    monkeypatch.setattr(engine, "cached", lambda *args, **kwargs: (_ for _ in ()).throw(OSError(SECRET)))
    api = client.get("/api/demos")
    assert api.status_code == 500 and api.is_json and leaks(api.get_data(as_text=True)) == []
    lookup = client.post("/api/demos/line_fit/lookup", json={"steps": 3})
    assert lookup.status_code == 500 and lookup.is_json and leaks(lookup.get_data(as_text=True)) == []
    printed = client.get("/slides/1?print")
    assert printed.status_code == 500 and printed.mimetype == "text/html"
    assert "The lecture itself is fine" in printed.get_data(as_text=True) and leaks(printed.get_data(as_text=True)) == []
    monkeypatch.undo()
    assert client.get("/api/demos").status_code == 200, "the next request is served as usual"
