"""Every demo on CUDA: it runs on tiny settings, names the GPU and its precision, and where the
computation does not depend on training batches (which a GPU draws from its own random stream)
it agrees with the CPU. The training core captures its steps as CUDA graphs, replays them
deterministically, and falls back to eager steps when a model cannot be captured."""
import json
import math
import time

import pytest
import torch
from torch import nn

from demos import DEMOS
from demos.core.tasks import IndexLookup
from demos.core.training import Run, TrainConfig, classification_loss, train_together
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore
from demos.shared.classifier import Entry, TaskBatches, build, classifier_config
from engine import Engine
from tests.demos.tiny import TINY, numbers_in

CUDA, CPU = torch.device("cuda"), torch.device("cpu")


def tiny(demo_id: str, device: torch.device, **params) -> dict:
    return run_demo(DEMOS[demo_id], {**TINY[demo_id], **params}, device=device, store=ModelStore())


@pytest.mark.parametrize("demo_id", sorted(TINY))
def test_every_demo_runs_on_cuda_and_names_the_gpu_and_precision(demo_id):
    result = tiny(demo_id, CUDA)
    json.dumps(result, allow_nan=False)
    assert all(math.isfinite(x) for x in numbers_in(result))
    assert result["device"].startswith("cuda: ")
    assert result["precision"] in ("tf32", "float32", "float64", "bfloat16")


def test_signal_decay_at_initialisation_agrees_with_the_cpu():
    """Untrained models, the same weights and test strings on both: the float64 gradients must agree."""
    gpu, cpu = tiny("signal_decay", CUDA), tiny("signal_decay", CPU)
    for name, model in cpu["models"].items():
        assert model["gradient"] == pytest.approx(gpu["models"][name]["gradient"], rel=1e-6)


def test_an_untrained_models_attention_agrees_with_the_cpu():
    gpu, cpu = tiny("attention_matrix", CUDA, steps=0), tiny("attention_matrix", CPU, steps=0)
    for row_gpu, row_cpu in zip(gpu["weights"], cpu["weights"]):
        assert [x or 0.0 for x in row_gpu] == pytest.approx([x or 0.0 for x in row_cpu], abs=5e-3)  # TF32


def lookup_run(seed: int, loss_fn=classification_loss, cfg: TrainConfig | None = None) -> Run:
    task = IndexLookup(16)
    entry = Entry(("lstm-tuned", seed), classifier_config("lstm-tuned", task, 32), task, cfg or TrainConfig(steps=60), seed)
    return Run(build(entry, CUDA), TaskBatches(task, 32, seed, CUDA), loss_fn, entry.train_cfg)


def test_graph_captured_training_repeats_under_a_seed_and_matches_eager_steps():
    first, again = train_together([lookup_run(0)]), train_together([lookup_run(0)])
    assert first[0].captured and first[0].losses == again[0].losses
    eager = train_together([lookup_run(0)], graphs=False)[0]
    assert not eager.captured
    assert eager.losses == pytest.approx(first[0].losses, rel=1e-4, abs=1e-4)


def test_a_captured_graph_follows_the_learning_rate_schedule_as_eager_steps_do():
    for schedule in ("cosine", "cooldown"):
        cfg = TrainConfig(steps=60, warmup=10, schedule=schedule)
        captured = train_together([lookup_run(0, cfg=cfg)])[0]
        eager = train_together([lookup_run(0, cfg=cfg)], graphs=False)[0]
        assert captured.captured and not eager.captured
        assert eager.losses == pytest.approx(captured.losses, rel=1e-4, abs=1e-4)


def test_a_model_that_cannot_be_captured_trains_eagerly():
    def loss_that_syncs(model: nn.Module, batch: tuple) -> torch.Tensor:
        loss = classification_loss(model, batch)
        if loss.item() > 1e9:  # reading a value waits for the GPU: not allowed while capturing a graph
            raise AssertionError
        return loss

    run = train_together([lookup_run(0, loss_that_syncs)])[0]
    assert not run.captured and len(run.losses) == 60 and all(math.isfinite(x) for x in run.losses)


def test_several_models_train_together_on_streams_as_they_would_alone():
    together = train_together([lookup_run(0), lookup_run(1)])
    alone = [train_together([lookup_run(seed)])[0] for seed in (0, 1)]
    for one, other in zip(together, alone):
        assert one.losses == pytest.approx(other.losses, rel=1e-5, abs=1e-5)


def test_a_cancelled_run_on_the_gpu_stops_mid_run(tmp_path):
    """The training core asks whether to stop at every step, without waiting for the GPU: the run ends
    cancelled, part-way through (the deadline below only bounds a hang)."""
    engine = Engine(tmp_path / "cache", device="cuda")
    long_run = {"seeds": 5, "lengths": [100, 200], "steps": 3000, "width": 64}  # minutes, even on a GPU
    job = engine.submit("dyck", long_run).job
    while job.snapshot()["progress"] <= 0:
        job.wait_for_change(job.version, 1.0)
    engine.cancel(job.id, "Cancelled on the GPU.")
    deadline = time.monotonic() + 120
    while not job.finished and time.monotonic() < deadline:
        job.wait_for_change(job.version, 0.1)
    assert job.snapshot()["status"] == "cancelled" and job.snapshot()["progress"] < 1
    assert engine.cached("dyck", long_run) is None


def test_dycks_strings_are_drawn_on_the_gpu_labelled_as_the_reference_reads_them_and_repeat_under_a_seed():
    from demos.core.tasks import BoundedDyck, near_miss_kind
    task = BoundedDyck(20)
    texts, kinds = task.strings(512, torch.Generator(device=CUDA).manual_seed(3))
    again, _ = task.strings(512, torch.Generator(device=CUDA).manual_seed(3))
    assert texts == again and sum(kind is None for kind in kinds) == 256
    assert all(near_miss_kind(text) == kind for text, kind in zip(texts, kinds))
    inputs, labels = task.sample(64, torch.Generator(device=CUDA).manual_seed(3))
    assert inputs.is_cuda and labels.is_cuda and inputs.shape == (64, 21)
