"""Every demo on settings small enough for a test, and what the demo tests share: a progress
recorder, the numbers in a result, and a result less its wall-clock times."""
import functools
import json

import torch

from demos import DEMOS
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore

TINY = {
    "system_check": {"size": 64, "repeats": 3},
    "line_fit": {"steps": 20},
    "signal_decay": {"length": 20, "sequences": 4, "width": 8},
    "amnesia": {"length": 5, "steps": 20, "width": 8},
    "recall_vs_length": {"lengths": [5, 10], "steps": 10, "width": 8},
    "index_lookup": {"length": 8, "widths": [4, 16], "steps": 100, "seeds": 2},
    "attention_web": {"steps": 10},
    "attention_matrix": {"steps": 10},
    "training_progression": {"epochs": 1},
    "speed_race": {"lengths": [64, 128], "width": 64, "batch": 1, "repeats": 2, "loop_max_length": 64},
    "context_scaling": {"steps": 20, "text_steps": 20, "seeds": 1},
    "generation": {"steps": 20, "characters": 10, "seeds": 1},
    "dyck": {"lengths": [20], "steps": 50, "width": 8, "seeds": 2},
}
TIMED = ("system_check", "speed_race")  # they measure wall-clock time: no two runs agree


def without_timings(value):
    """The result less its wall-clock times, which differ between two runs of the same thing."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in ("seconds", "train_seconds")}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def numbers_in(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from numbers_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from numbers_in(v)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


class Recorder:
    """A progress callback that keeps every report, and each partial result as it was when reported."""

    def __init__(self):
        self.reports = []

    def __call__(self, fraction, message, data=None):
        self.reports.append((fraction, message, data, json.dumps(data)))

    @property
    def data(self):
        return [(data, text) for _, _, data, text in self.reports if data is not None]


CPU = torch.device("cpu")


@functools.cache
def _tiny_run(demo_id: str) -> tuple[str, Recorder]:
    progress = Recorder()
    result = run_demo(DEMOS[demo_id], TINY[demo_id], progress, device=CPU, store=ModelStore())
    return json.dumps(result), progress


def tiny_result(demo_id: str) -> tuple[dict, Recorder]:
    """The demo's run on its TINY settings on the CPU, and the progress it reported: made once per test
    process and shared by the tests that only read it (each caller gets its own copy of the result)."""
    text, progress = _tiny_run(demo_id)
    return json.loads(text), progress


SHARED_MODELS = ModelStore()  # the attention slides' language models: each (seed, steps) trains once per session
FEW_STEPS = {"steps": 40}  # a language model trained this briefly already attends unevenly


def run_on_shared_model(demo, **params) -> dict:
    """An attention demo's run on a briefly trained shared language model."""
    return run_demo(demo, {**FEW_STEPS, **params}, device=CPU, store=SHARED_MODELS)


def as_tensor(rows) -> torch.Tensor:
    """Rows of weights as sent to the browser (None above the diagonal) as a tensor."""
    return torch.tensor([[0.0 if x is None else x for x in row] for row in rows], dtype=torch.float64)
