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
                     batch_size=8, steps=40, eval_every=20, shapes=((4, 24, 3),), bfloat16=True)


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
    assert result["precision"] == "bfloat16" and result["sweep"]["sizes"]["precision"] == "bfloat16"
    for family in result["sweep"]["sizes"]["families"]:
        assert len(family["points"]) == 3 and all(0 < p["test_bits"]["mean"] < math.log2(96) for p in family["points"])
    assert len(result["sweep"]["shapes"]["shapes"]) == 2


def test_bfloat16_training_is_captured_runs_its_products_in_bfloat16_and_keeps_float32_weights():
    from demos.core.models import ModelConfig, build_model
    from demos.core.training import Run, SameBatch, TrainConfig, in_bfloat16, language_model_loss, train_together

    torch.manual_seed(0)
    seen = []
    for kind in ("transformer", "lstm"):
        model = build_model(ModelConfig(kind=kind, vocab_size=12, n_out=12, width=32, n_layers=2, n_heads=4,
                                        max_len=16, causal=True, fast_attention=True)).cuda()
        model.register_forward_hook(lambda module, args, out: seen.append(out.dtype))
        tokens = torch.randint(12, (8, 17), device="cuda")
        run = Run(model, SameBatch(tokens[:, :-1], tokens[:, 1:]), in_bfloat16(language_model_loss),
                  TrainConfig(steps=40, lr=3e-3, report_every=20))
        train_together([run])
        assert run.captured and all(math.isfinite(x) for x in run.losses)
        assert all(p.dtype == torch.float32 for p in model.parameters())
    assert seen and all(dtype == torch.bfloat16 for dtype in seen)
