"""Logs: one JSON line per training job on stderr (demo, params, device, seconds, outcome),
beside the server's own access log."""
import logging
import sys

from flask import Flask

JOB_LOGGER = "greatshift.jobs"


def init_app(app: Flask) -> None:
    logger = logging.getLogger(JOB_LOGGER)
    if not logger.handlers:  # several apps in one process (the tests) share one handler
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
