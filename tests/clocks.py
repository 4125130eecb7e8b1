"""The wall clock stepped back, as a time server's correction (or a clock set by hand) does to a
running server: for the tests that nothing on the board is ordered by it."""
import time


def step_the_clock_back(monkeypatch, seconds: float = 3600) -> None:
    real_time, real_time_ns = time.time, time.time_ns
    monkeypatch.setattr(time, "time", lambda: real_time() - seconds)
    monkeypatch.setattr(time, "time_ns", lambda: real_time_ns() - int(seconds * 1e9))
