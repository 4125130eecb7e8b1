"""Shared fixtures: an app on a throw-away instance folder, and its test client. Importing
`tests.fixture_app` registers the test-only demo `line_fit`, as the tests' live servers do."""
import pytest
import torch

from demos import DEMOS
from tests.fixture_app import create_app

FAST_DEMOS = ("system_check", "line_fit")


@pytest.fixture(autouse=True, scope="session")
def one_torch_thread():
    """Train on one CPU thread, as the engine does: on a busy 2-core machine two threads that
    each wait for a core run several times slower (measured: 40 steps, 3.7 s against 26 s)."""
    torch.set_num_threads(1)


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
