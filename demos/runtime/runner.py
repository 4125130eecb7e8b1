"""Running one demo: validate its parameters, seed, time it, and label the result."""
import time
from types import ModuleType
from typing import Callable

import torch

from demos.core.training import seed_everything
from demos.runtime.budgets import budget_label, overrides
from demos.runtime.device import device_label, pick_device, precision, use_fast_math
from demos.runtime.params import validate
from demos.runtime.progress import stopping_with
from demos.runtime.storage import ModelStore, current_store, using_store

# progress(fraction in [0, 1], message, data): `data` is the whole partial result so far
# (the loss curve up to now, the grid cells finished so far), never just the latest piece,
# so a listener that misses a report loses nothing.
Progress = Callable[..., None]


def no_progress(fraction: float, message: str, data: dict | None = None) -> None:
    pass


def effective_params(demo: ModuleType, raw_params: dict | None, device: torch.device | str = "cpu") -> dict:
    """The parameters a run will use: checked against the schema (a parameter may check more
    than its type and bounds, e.g. a sentence made only of unknown words), defaults filled in:
    those of `device`'s class (`demos.runtime.budgets`). Raises ParamError before any work is done."""
    if raw_params is None or isinstance(raw_params, dict):
        raw_params = {**overrides(demo, device), **(raw_params or {})}
    return validate(demo.PARAMS, raw_params)


def run_demo(demo: ModuleType, raw_params: dict | None, progress: Progress = no_progress,
             device: torch.device | None = None, store: ModelStore | None = None,
             stop_check: Callable[[], None] | None = None) -> dict:
    """Run `demo` with `raw_params` (validated here) and return its JSON-safe result.

    Every result says what produced it: `device`, `precision` (of its float arithmetic, unless
    the demo names its own), `params` (the effective parameters), `seed` and `train_seconds`
    (wall-clock time of the run). Models the demo keeps for
    later go to `store` (the engine's, on its cache folder). `stop_check()`, called by the training
    loops at every step, raises to stop the run (a cancelled job).
    """
    device = device or pick_device()
    params = effective_params(demo, raw_params, device)
    use_fast_math(device)
    seed_everything(params["seed"])
    started = time.perf_counter()
    with using_store(store or current_store()), stopping_with(stop_check):
        result = demo.run(params, progress, device)
    train_seconds = time.perf_counter() - started
    return {
        **result,
        "demo": demo.ID,
        "device": device_label(device),
        "precision": result.get("precision", precision(device)),
        "budget_run": budget_label(demo, params, device),  # which budget: "the GPU default", ...
        "params": params,
        "seed": params["seed"],
        "train_seconds": round(train_seconds, 3),
    }
