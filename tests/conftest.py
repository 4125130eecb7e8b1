"""Shared fixtures: an app on a throw-away instance folder, and its test client."""
import pytest

from app import create_app
from demos import DEMOS

FAST_DEMOS = ("system_check", "line_fit")


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache")})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def deck(client):
    """The slide list as the API reports it."""
    return client.get("/api/slides").get_json()["slides"]


@pytest.fixture
def only_fast_demos(monkeypatch):
    """The registry with only the two quick demos, for tests that warm or list every demo."""
    for demo_id in list(DEMOS):
        if demo_id not in FAST_DEMOS:
            monkeypatch.delitem(DEMOS, demo_id)
