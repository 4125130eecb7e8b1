"""The demo engine: runs demos in the background, one at a time, and caches what they return.
Plain Python (no Flask): the web app, `flask warm`, the benchmarks and the tests all drive the
same `Engine` (engine/engine.py); `cache.py` keeps results, `jobs.py` follows one training job,
and `board.py` lets several server processes share jobs, follow mode, polls and questions."""
from engine.engine import Engine, QueueFull, Submission

__all__ = ["Engine", "QueueFull", "Submission"]
