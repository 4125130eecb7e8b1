"""The test app (tests/fixture_app.py) with `line_fit` taking its time on a training worker
(`flask --app tests.paced_worker_app worker`): it reports "training" every 20 ms for steps / 100
seconds (20 steps: 0.2 s; 5000: 50 s), then fits its line, so that a job can be followed, cancelled
or its worker killed mid-run, and a short one still ends with a real result."""
import time

from tests import line_fit
from tests.fixture_app import create_app  # noqa: F401  (Flask finds the factory here)

PACE_SECONDS = 0.02  # between reports: a cancel is heard within a report or two
fit = line_fit.run


def paced_run(params, progress, device):
    seconds = params["steps"] / 100
    started = time.monotonic()
    while (elapsed := time.monotonic() - started) < seconds:
        progress(0.9 * elapsed / seconds, "training")
        time.sleep(PACE_SECONDS)
    return fit(params, progress, device)


line_fit.run = paced_run
