"""Every page, picture and data answer crosses the hall's Wi-Fi gzipped, and reads the same unzipped."""
import gzip

import pytest

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.parametrize("path, mimetype", [
    ("/slides/1", "text/html"),
    ("/presenter", "text/html"),
    ("/slides/99", "text/html"),  # the 404 page
    ("/no-such-page", "text/html"),
    ("/join/qr.svg", "image/svg+xml"),
    ("/api/demos", "application/json"),
    ("/api/slides", "application/json"),
    ("/api/recap", "application/json"),
    ("/api/notes", "application/json"),
    ("/api/polls.csv", "text/csv"),
])
def test_answers_are_gzipped_for_a_browser_that_accepts_it(client, path, mimetype):
    plain = client.get(path)
    zipped = client.get(path, headers=GZIP)
    assert zipped.mimetype == plain.mimetype == mimetype
    assert zipped.status_code == plain.status_code
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < len(plain.data) / 1.5
    assert "Content-Encoding" not in plain.headers  # a client that cannot unzip gets it as it is


def test_a_tiny_answer_is_not_made_bigger(client):
    """{"instructor": true} gzipped would be longer than it is: it goes as it is."""
    answer = client.get("/api/instructor", headers=GZIP)
    assert "Content-Encoding" not in answer.headers
    assert answer.get_json()["instructor"] is True


def test_event_streams_are_not_buffered_for_compression(client):
    with client.get("/api/follow/events", headers=GZIP, buffered=False) as stream:
        assert stream.mimetype == "text/event-stream"
        assert "Content-Encoding" not in stream.headers
