"""The app as the tests serve it: the real app factory, with the test-only demo `line_fit` registered.

`flask --app tests.fixture_app run` is what tests/live_server.py starts, so a server in a child
process knows the same demos as the in-process test client (tests/conftest.py registers it there)."""
from app import create_app  # noqa: F401  (Flask finds the factory here)
from demos import DEMOS
from tests import line_fit

DEMOS.setdefault(line_fit.ID, line_fit)
