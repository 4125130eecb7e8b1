"""What a demo's result offers a slide to quote: its named quantities, declared once, by the demo.

A demo module declares `QUANTITIES = declared(reader, ...)`: each reader is a small function of the
demo's result, named for the quantity it reads, whose one-line docstring says what that is; the
demo's headline may call it too. A slide's number poll names one (`measured: lstm_accuracy`),
checked against the declaration when the deck loads, and is settled by what it reads.

A quantity is a value measured over seeds or timings, as demos/shared/seeds.py keeps one: an
object with `min`, `max` and `mean` (the seeds' mean), or `median` (a timing's), and `noisy` where
the demo marked it so, so that a slide shows the measured value with its honest range, never one
seed's number.
"""
import math
from types import ModuleType
from typing import Callable

Reader = Callable[[dict], dict]


def declared(*readers: Reader) -> dict[str, Reader]:
    """A demo's `QUANTITIES`: {name: reader}, each named as its function is."""
    return {reader.__name__: reader for reader in readers}


def names(demo: ModuleType) -> dict[str, str]:
    """{name: what it is} of the quantities `demo` declares (none: {})."""
    return {name: reader.__doc__.strip() for name, reader in getattr(demo, "QUANTITIES", {}).items()}


def is_measured(value) -> bool:
    """Whether `value` is a measured value with a finite middle (`mean` or `median`) and range."""
    if not isinstance(value, dict):
        return False
    numbers = [value.get("mean", value.get("median")), value.get("min"), value.get("max")]
    return all(isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n) for n in numbers)


def read(demo: ModuleType, name: str, result: dict) -> dict | None:
    """`demo`'s quantity `name` in `result`; None where the result holds no such measured value (a
    result of an older shape, or settings without it). A name `demo` does not declare is a KeyError."""
    reader = getattr(demo, "QUANTITIES", {})[name]
    try:
        value = reader(result)
    except (KeyError, IndexError, TypeError, ValueError, StopIteration):
        return None
    return value if is_measured(value) else None
