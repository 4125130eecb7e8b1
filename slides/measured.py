"""A number poll's answer: the quantity its slide names, as the slide's demo declares and reads it
(`QUANTITIES`, demos/shared/quantities.py), in the poll's unit."""
from demos import DEMOS
from demos.shared import quantities


def measured_value(demo_id: str, name: str, result, scale: float = 1.0) -> dict | None:
    """{"mean", "low", "high", "centre", "noisy"} of `demo_id`'s quantity `name` in `result`, times
    `scale`; `centre` says whether the middle is the seeds' "mean" or the timings' "median"; `noisy`
    whether the demo marked the value noisy (a timing that stayed noisy). None if the result holds no
    such value."""
    value = quantities.read(DEMOS[demo_id], name, result)
    if value is None:
        return None
    centre = "mean" if "mean" in value else "median"
    mean, low, high = (value[key] * scale for key in (centre, "min", "max"))
    return {"mean": mean, "low": low, "high": high, "centre": centre, "noisy": value.get("noisy") is True}
