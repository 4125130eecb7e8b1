"""What every demo promises, checked on tiny settings: a JSON-safe result with finite numbers that
names its device, parameters and seed and says what it measured; the same seed gives the same
result and another seed a different one; progress only moves forward and its partial results
are never changed after they are sent; and a text version for the terminal."""
import json
import math

import pytest
import torch

from demos import DEMOS
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore
from tests.demos.tiny import TIMED, TINY, Recorder, numbers_in, tiny_result, without_timings

CPU = torch.device("cpu")


def tiny_run(demo_id: str, progress=None, **params) -> dict:
    kwargs = {"progress": progress} if progress else {}
    return run_demo(DEMOS[demo_id], {**TINY[demo_id], **params}, device=CPU, store=ModelStore(), **kwargs)


@pytest.fixture
def results():
    """The demos' tiny runs, each made once for the whole test process (tests/demos/tiny.py)."""
    return tiny_result


def result_of(demo_id: str, results) -> tuple[dict, Recorder]:
    """The demo's tiny run and the progress it reported."""
    return results(demo_id)


def test_every_demo_declares_its_tiny_settings():
    missing = sorted(set(DEMOS) - set(TINY))
    assert not missing, f"each demo declares TINY, its settings for a test, beside its PARAMS: {missing}"


@pytest.mark.parametrize("demo_id", sorted(TINY))
def test_a_tiny_run_is_json_safe_and_says_what_it_measured(demo_id, results):
    result, _ = result_of(demo_id, results)
    json.dumps(result, allow_nan=False)  # raises on NaN or infinity
    assert all(math.isfinite(x) for x in numbers_in(result))
    assert result["device"] == "cpu" and result["demo"] == demo_id
    assert result["params"]["seed"] == result["seed"] == 0
    assert len(result["summary"]) > 30
    assert DEMOS[demo_id].format_text(result).strip()


@pytest.mark.parametrize("demo_id", sorted(set(TINY) - set(TIMED)))
def test_the_same_seed_repeats_and_another_seed_differs(demo_id, results):
    first, _ = result_of(demo_id, results)  # reported its progress: watching a run does not change it
    assert without_timings(tiny_run(demo_id)) == without_timings(first)
    other = tiny_run(demo_id, seed=1)
    assert without_timings({**other, "seed": 0, "params": first["params"]}) != without_timings(first)


@pytest.mark.parametrize("demo_id", sorted(TINY))
def test_progress_moves_forward_and_never_changes_what_it_sent(demo_id, results):
    _, progress = result_of(demo_id, results)
    fractions = [report[0] for report in progress.reports]
    assert fractions, "no progress reported"
    assert fractions == sorted(fractions) and 0 <= fractions[0] and fractions[-1] <= 1
    assert all(json.dumps(data) == text for data, text in progress.data), "a partial result was changed after it was sent"
