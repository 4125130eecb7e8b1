"""The Flask side of the demo engine, as flaskr does its database: `init_app` builds the one
Engine of this process from the app's settings, and `get_engine()` hands it to a request or a
command.

The speed test behind estimates (`engine/calibration.py`) starts with the first request a server
answers, in the background, never with the app: a command (`flask warm`, `flask export`, `--help`)
builds the app too, and a thread still running PyTorch when such a command ends aborts it.
"""
from pathlib import Path

from flask import Flask, current_app

from engine import Engine
from engine.liveness import LEASE_SECONDS


def get_engine() -> Engine:
    return current_app.extensions["engine"]


def calibrates(app: Flask) -> bool:
    """Whether this app runs the speed test (FLASK_CALIBRATE; off in unit tests)."""
    return bool(app.config.get("CALIBRATE", not app.testing))


def start_calibration() -> None:
    get_engine().calibration.start()  # once: later calls return at once


def init_app(app: Flask) -> None:
    cache_dir = app.config.get("CACHE_DIR") or str(Path(app.instance_path) / "cache")
    app.extensions["engine"] = Engine(Path(cache_dir), device=str(app.config.get("DEVICE", "auto")),
                                      max_queued=int(app.config.get("MAX_QUEUED_JOBS", 32)),
                                      torch_threads=app.config.get("TORCH_THREADS"),
                                      lease_seconds=float(app.config.get("PROCESS_LEASE_SECONDS", LEASE_SECONDS)),
                                      redis_url=app.config.get("REDIS_URL"), redis_prefix=app.config.get("REDIS_PREFIX"),
                                      training=app.config.get("TRAINING"))
    # A web server that trains nothing (FLASK_TRAINING=worker) runs no speed test either: the training
    # worker runs it (web/worker.py), into the cache folder they share, where the servers read it; and
    # under a gevent worker PyTorch timing for seconds would hold every stream of the process.
    if calibrates(app) and app.extensions["engine"].training_queue is None:
        app.before_request(start_calibration)
