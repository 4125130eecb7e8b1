"""Every demo on settings small enough for a test, and what the demo tests share: a progress
recorder, the numbers in a result, a result less its wall-clock times, and the yardsticks a trained
model must pass (the slide's poll read from a result, a unigram baseline, reading only the past)."""
import functools
import json

import torch

from demos import DEMOS
from demos.core.corpus import load
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore
from demos.shared.language_models import SHARED, window_starts, windows
from slides import load_deck
from slides.measured import measured_value
from tests import line_fit
from tests.made_once import made_once

# Each demo's TINY settings, declared beside its PARAMS (and the tests' own demo line_fit's).
TINY = {demo_id: demo.TINY for demo_id, demo in {**DEMOS, line_fit.ID: line_fit}.items() if hasattr(demo, "TINY")}
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

    def __init__(self, reports=None):
        self.reports = reports or []

    def __call__(self, fraction, message, data=None):
        self.reports.append((fraction, message, data, json.dumps(data)))

    @property
    def data(self):
        return [(data, text) for _, _, data, text in self.reports if data is not None]


CPU = torch.device("cpu")


def _save_tiny_run(demo_id: str, folder) -> None:
    progress = Recorder()
    result = run_demo(DEMOS[demo_id], TINY[demo_id], progress, device=CPU, store=ModelStore())
    (folder / "result.json").write_text(json.dumps(result))
    # Each partial result twice: as it is now, and as it was sent (whether it changed after is a test).
    reports = [(fraction, message, json.dumps(data) if data is not None else None, text)
               for fraction, message, data, text in progress.reports]
    (folder / "progress.json").write_text(json.dumps(reports))


def _tiny_folder(demo_id: str, wait: bool = True):
    return made_once(f"tiny-{demo_id}", functools.partial(_save_tiny_run, demo_id), wait)


@functools.cache
def _tiny_run(demo_id: str) -> tuple[str, Recorder]:
    folder = _tiny_folder(demo_id)
    reports = [(fraction, message, json.loads(now) if now is not None else None, sent)
               for fraction, message, now, sent in json.loads((folder / "progress.json").read_text())]
    return (folder / "result.json").read_text(), Recorder(reports)


def make_tiny_runs(demo_ids) -> None:
    """Every one of these demos' tiny runs made (or made already), sharing the work with the other test
    processes: each first makes those no other process is making, then waits for the rest."""
    busy = [demo_id for demo_id in demo_ids if _tiny_folder(demo_id, wait=False) is None]
    for demo_id in busy:
        _tiny_folder(demo_id)


def tiny_result(demo_id: str) -> tuple[dict, Recorder]:
    """The demo's run on its TINY settings on the CPU, and the progress it reported: made once per test
    run, by whichever test process needs it first (tests/made_once.py), and shared by the tests that
    only read it (each caller gets its own copy of the result)."""
    text, progress = _tiny_run(demo_id)
    return json.loads(text), progress


def cache_as_default(engine, demo_id: str, change=lambda result: None):
    """The demo's shared tiny run (`change`d in place, if given) cached as if it were its default run,
    at no cost: a result already there, or the one the recap reads. Returns the cache entry."""
    _, params, key = engine.resolve(demo_id, None)
    result = tiny_result(demo_id)[0]
    change(result)
    return engine.cache.put(demo_id, key, params, result)


SHARED_MODELS = ModelStore()  # the attention slides' language models: each (seed, steps) trains once per session
FEW_STEPS = {"steps": 40}  # a language model trained this briefly already attends unevenly


def run_on_shared_model(demo, **params) -> dict:
    """An attention demo's run on a briefly trained shared language model."""
    return run_demo(demo, {**FEW_STEPS, **params}, device=CPU, store=SHARED_MODELS)


def as_tensor(rows) -> torch.Tensor:
    """Rows of weights as sent to the browser (None above the diagonal) as a tensor."""
    return torch.tensor([[0.0 if x is None else x for x in row] for row in rows], dtype=torch.float64)


def poll_reading(demo_id: str, result: dict) -> dict:
    """What the number poll of the slide that runs `demo_id` reads from `result`: the measured mean and
    range of the quantity it names, in the poll's unit (slides/measured.py)."""
    [poll] = [slide.poll for slide in load_deck() if slide.demo == demo_id]
    return measured_value(demo_id, poll.measured, result, poll.scale)


def unigram_nats(train_ids: torch.Tensor, eval_ids: torch.Tensor, vocab_size: int) -> float:
    """Cross-entropy (nats per token) on `eval_ids` of token frequencies counted on `train_ids` (add-one
    smoothed): the baseline a language model beats once it has learned anything beyond them."""
    counts = torch.bincount(train_ids, minlength=vocab_size).double() + 1
    return -(counts / counts.sum()).log()[eval_ids].mean().item()


@torch.no_grad()
def reads_only_the_past(model, inputs: torch.Tensor, vocab_size: int) -> bool:
    """Whether a language model's predictions at each position ignore every later token: changing the
    second half of `inputs` (B, T) leaves the first half's logits as they were (and changes the second's)."""
    was_training = model.training
    model.eval()
    half = inputs.size(1) // 2
    changed = inputs.clone()
    changed[:, half:] = (changed[:, half:] + 1) % vocab_size
    before, after = model(inputs), model(changed)
    model.train(was_training)
    return (torch.allclose(before[:, :half], after[:, :half], atol=1e-5)
            and not torch.allclose(before[:, half:], after[:, half:], atol=1e-5))


def held_out_sentences(n: int = 8) -> torch.Tensor:
    """The first `n` windows of the word language models' held-out abstracts, each from a sentence start:
    (n, context) token ids."""
    corpus = load()
    starts = window_starts(corpus.held_out_ids, corpus.held_out_starts, SHARED.context)[:n]
    return windows(corpus.held_out_ids, starts, SHARED.context)[0]
