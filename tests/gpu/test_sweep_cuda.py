"""The size sweep and the per-device budgets on a CUDA GPU: a GPU server gets the GPU's defaults, and
the sweep's models (all sizes and shapes trained together, on CUDA streams) give both panels."""
import math
import shutil

import pytest
import torch

from demos import dyck, generation
from demos.runtime.runner import effective_params, run_demo
from demos.runtime.storage import ModelStore
from demos.shared import scaling, tuning

TINY = scaling.Sweep("gpu-sweep", widths=(16, 32, 48), layers=2, lstm_layers=2, head_size=8, context=64,
                     batch_size=8, steps=40, eval_every=20, shapes=((4, 24, 3),))


def test_a_gpu_server_gets_the_gpu_defaults():
    cuda = torch.device("cuda")
    assert effective_params(dyck, None, cuda)["steps"] == dyck.BUDGETS["gpu"]["default"]["steps"]
    assert effective_params(dyck, None, torch.device("cpu"))["steps"] == 1000


def test_the_tiny_sweep_trains_on_cuda_and_gives_both_panels(tmp_path, monkeypatch):
    folder = tmp_path / "tuned"
    shutil.copytree(tuning.TUNED_DIR, folder)
    monkeypatch.setitem(scaling.SWEEPS, "gpu-sweep", TINY)
    monkeypatch.setattr(tuning, "TUNED_DIR", folder)
    monkeypatch.setattr(scaling, "TUNED_DIR", folder)
    tuning.tuned.cache_clear()
    try:
        tuning.save(tuning.choose(generation.tuning("gpu-sweep"), torch.device("cuda"), log=lambda *args: None))
        result = run_demo(generation, {"scale": "gpu-sweep", "seeds": 2, "characters": 10},
                          device=torch.device("cuda"), store=ModelStore())
    finally:
        tuning.tuned.cache_clear()
    assert result["device"].startswith("cuda") and result["budget_run"]["tier"] == "gpu"
    for family in result["sweep"]["sizes"]["families"]:
        assert len(family["points"]) == 3 and all(0 < p["test_bits"]["mean"] < math.log2(96) for p in family["points"])
    assert len(result["sweep"]["shapes"]["shapes"]) == 2
