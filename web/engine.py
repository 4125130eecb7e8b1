"""The Flask side of the demo engine, as flaskr does its database: `init_app` builds the one
Engine of this process from the app's settings, and `get_engine()` hands it to a request or a
command."""
from pathlib import Path

from flask import Flask, current_app

from engine import Engine


def get_engine() -> Engine:
    return current_app.extensions["engine"]


def init_app(app: Flask) -> None:
    cache_dir = app.config.get("CACHE_DIR") or str(Path(app.instance_path) / "cache")
    app.extensions["engine"] = Engine(Path(cache_dir), device=str(app.config.get("DEVICE", "auto")),
                                      max_queued=int(app.config.get("MAX_QUEUED_JOBS", 32)),
                                      torch_threads=app.config.get("TORCH_THREADS"),
                                      # the speed test behind estimates before a first run; off in unit tests (FLASK_CALIBRATE=0 too)
                                      calibrate=bool(app.config.get("CALIBRATE", not app.testing)))
