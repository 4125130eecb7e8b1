"""The system check names the device and quotes the matrix product of the size its Settings ask for."""
import torch

from demos import system_check
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore


def test_the_summary_quotes_the_size_in_settings_whatever_size_was_fastest():
    result = run_demo(system_check, {"size": 300, "repeats": 3}, device=torch.device("cpu"), store=ModelStore())
    assert [t["n"] for t in result["matmul"]] == [128, 256, 300]
    asked = result["matmul"][-1]
    assert f"A 300×300 matrix product took {asked['median_seconds'] * 1e3:.2f} ms" in result["summary"]
    assert f"about {asked['gflops']:.0f} GFLOP/s" in result["summary"]
    assert "The demos run on cpu" in result["summary"]
