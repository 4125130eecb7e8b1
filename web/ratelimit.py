"""A per-client limit on starting training jobs: a small token bucket per address.

Cached results and jobs already running cost nothing and are never limited; only a request
that would start a new training job takes a token. The instructor is not limited. Each
server process keeps its own buckets (with several workers the limit is per worker).
"""
import math
import threading
import time

from flask import current_app, request


class RateLimiter:
    def __init__(self, jobs: int, per_seconds: float):
        self.capacity = jobs
        self.refill_per_second = jobs / per_seconds
        self.buckets: dict[str, tuple[float, float]] = {}  # client → (tokens, last time)
        self.lock = threading.Lock()

    def take(self, client: str) -> float:
        """Take a token for `client`: 0 if allowed, else the seconds until one is free."""
        now = time.monotonic()
        with self.lock:
            tokens, last = self.buckets.get(client, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.refill_per_second)
            if tokens >= 1:
                self.buckets[client] = (tokens - 1, now)
                return 0.0
            self.buckets[client] = (tokens, now)
            if len(self.buckets) > 10_000:  # forget clients gone quiet: a full bucket is the default anyway
                self.buckets = {c: b for c, b in self.buckets.items() if now - b[1] < self.capacity / self.refill_per_second}
            return (1 - tokens) / self.refill_per_second


def client_id() -> str:
    return request.remote_addr or "unknown"


def limiter() -> RateLimiter:
    return current_app.extensions["job_rate_limiter"]


def retry_after(seconds: float) -> int:
    return max(1, math.ceil(seconds))


def init_app(app) -> None:
    app.extensions["job_rate_limiter"] = RateLimiter(int(app.config.get("STUDENT_JOBS_PER_MINUTE", 6)), 60.0)
