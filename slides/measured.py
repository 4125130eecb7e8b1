"""Where a number poll's answer is in a demo's result: a path the slide names, read here.

A path is dotted keys, each optionally followed by `[field=value,...]`, which picks the one item of
a list whose fields have those values (compared as text), or by `[i]`, the list's item i (-1: the
last): `models.lstm-tuned.accuracy`, `models[model=lstm-tuned,width=16].digits_held`,
`transformer_speedup[-1]`.

It must end at a value measured over seeds or timings, as demos/shared/seeds.py keeps one: an
object with `min`, `max` and `mean` (the seeds' mean), or `median` (a timing's), so that the slide
shows the measured value with its honest range, never one seed's number.
"""
import math
import re

SEGMENT = re.compile(r"^(?P<key>[A-Za-z0-9_-]+)(?:\[(?:(?P<index>-?\d+)|(?P<where>[A-Za-z0-9_-]+=[A-Za-z0-9_.-]+"
                     r"(?:,[A-Za-z0-9_-]+=[A-Za-z0-9_.-]+)*))\])?$")


class PathError(ValueError):
    """A path that cannot be read."""


def parse_path(path: str) -> list[tuple[str, dict[str, str] | int]]:
    """`a.b[k=v].c[-1]` → [("a", {}), ("b", {"k": "v"}), ("c", -1)]."""
    steps = []
    for segment in path.split("."):
        match = SEGMENT.match(segment)
        if not match:
            raise PathError(f"{path!r}: each part is a key, optionally with [field=value,...], not {segment!r}")
        if match["index"] is not None:
            steps.append((match["key"], int(match["index"])))
            continue
        where = dict(pair.split("=", 1) for pair in match["where"].split(",")) if match["where"] else {}
        steps.append((match["key"], where))
    return steps


def follow(result, path: str):
    """The value at `path` in `result`, or None where the result has no such value."""
    value = result
    for key, where in parse_path(path):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
        if isinstance(where, int):
            if not isinstance(value, list) or not -len(value) <= where < len(value):
                return None
            value = value[where]
        elif where:
            if not isinstance(value, list):
                return None
            found = [item for item in value if isinstance(item, dict)
                     and all(str(item.get(field)) == wanted for field, wanted in where.items())]
            if len(found) != 1:
                return None
            value = found[0]
    return value


def measured_value(result, path: str, scale: float = 1.0) -> dict | None:
    """{"mean", "low", "high", "centre", "noisy"} of the value at `path`, times `scale`; `centre` says
    whether the middle is the seeds' "mean" or the timings' "median"; `noisy` whether the demo marked
    the value noisy (a timing that stayed noisy). None if the result holds no such value."""
    stats = follow(result, path)
    if not isinstance(stats, dict):
        return None
    centre = "mean" if "mean" in stats else "median"
    numbers = [stats.get(centre), stats.get("min"), stats.get("max")]
    if not all(isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n) for n in numbers):
        return None
    mean, low, high = (n * scale for n in numbers)
    return {"mean": mean, "low": low, "high": high, "centre": centre, "noisy": stats.get("noisy") is True}
