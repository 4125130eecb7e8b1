"""Shared fixtures: an app on a throw-away instance folder, and its test client."""
import pytest

from app import create_app


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
