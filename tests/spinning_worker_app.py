"""The test app (tests/fixture_app.py) with `line_fit` training until its process is stopped: a long
run for a training worker (`flask --app tests.spinning_worker_app worker`) to be killed in."""
import time

from tests import line_fit
from tests.fixture_app import create_app  # noqa: F401  (Flask finds the factory here)


def spinning_run(params, progress, device):
    while True:
        progress(0.3, "training")
        time.sleep(0.005)


line_fit.run = spinning_run
