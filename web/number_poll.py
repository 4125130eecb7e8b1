"""A poll answered with a number (slides.NumberPoll): what the class's answers are, who may see
them, and how they compare with the measured value.

A guess counts as within the measured range when it lies in [low, high] widened by half the
slider's step on each side: the precision a student can answer with, so that a range of zero width
(one seed, or seeds that agree) still counts the guesses that hit the measured value.

A "how many times" poll (a log axis) whose measured range is too wide is not scored: the outcome
says `too_noisy`, and the slide and the recap say so with the range instead of counting hits.
"""
import math
import statistics

from engine.polls import standing
from slides import NumberPoll
from slides.measured import measured_value


def answers(record: dict) -> list[float]:
    """The class's numbers, sorted (a record kept from a choice poll's answers counts as numbers too)."""
    return sorted(float(v) for v in record["answers"].values()
                  if isinstance(v, (int, float)) and not isinstance(v, bool))


def tally(record: dict, reveal: bool) -> dict:
    """What a browser may see: where the poll stands, how many answered and, where `reveal`, the
    class's numbers and median. The numbers go to the instructor at once and to the class only once
    the poll is closed."""
    values = answers(record)
    shown = {**standing(record), "total": len(values), "revealed": reveal}
    if reveal:
        shown.update(values=values, median=statistics.median(values) if values else None)
    return shown


# A log-axis poll's measured range whose high end is more than this many times its low end is too
# noisy to score a guess: a range spanning an order of magnitude holds nearly any plausible guess,
# and its middle is one noisy timing's ratio. Two timings the demos call quiet (each one's spread
# within half its median, demos/shared/step_timing.py: at most 2× from fastest to slowest) give a
# ratio whose range spans at most 4×.
TOO_NOISY_RATIO = 10.0


def too_noisy(poll: NumberPoll, measured: dict) -> bool:
    """Whether a measurement is too noisy to score a guess against: the demo marked it noisy (a timing
    that stayed noisy), or a "how many times" measurement's range is too wide."""
    if measured.get("noisy"):
        return True
    if poll.axis != "log":
        return False  # a linear quantity's range (accuracies over seeds) is scored as it is
    return measured["low"] <= 0 or measured["high"] / measured["low"] > TOO_NOISY_RATIO


def read_value(body: dict, poll: NumberPoll) -> float | None:
    """The number in `{"value": x}` if it is a finite number within the poll's range, else None."""
    value = body.get("value")
    if set(body) != {"value"} or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not math.isfinite(value) or not poll.min <= value <= poll.max:
        return None
    return float(value)


def settle(values: list[float], measured: dict, step: float) -> dict:
    """The measured value beside the class's guesses: how many fell within its range (to half a
    step), and the median of how far each guess was from the measured middle."""
    low, high = measured["low"] - step / 2, measured["high"] + step / 2
    return {**measured, "total": len(values), "within": sum(low <= v <= high for v in values),
            "median": statistics.median(values) if values else None,
            "median_error": statistics.median(abs(v - measured["mean"]) for v in values) if values else None}


def outcome(demo_id: str, poll: NumberPoll, result: dict, record: dict) -> dict | None:
    """What a result of `demo_id` says about the class's guesses; None where the result holds no such value."""
    measured = measured_value(demo_id, poll.measured, result, poll.scale)
    if measured is None:
        return None
    return {"kind": "number", **settle(answers(record), measured, poll.step), "too_noisy": too_noisy(poll, measured)}


def csv_cells(row: dict, settled: dict | None) -> list:
    """A number poll's cells in the CSV after the shared ones: median, unit, then the measurement's."""
    def cell(value):
        return "" if value is None else f"{value:.4g}"
    measured = [cell(settled[k]) for k in ("mean", "low", "high")] + [settled["within"], cell(settled["median_error"])] \
        if settled else [""] * 5
    return [cell(row.get("median")), row["unit"], *measured]
