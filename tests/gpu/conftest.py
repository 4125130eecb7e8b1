"""Tests that need a CUDA GPU: marked `gpu`, skipped on a machine without one (CI has none; run
them on the GPU machine with `python -m pytest -m gpu`)."""
import pytest
import torch


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/gpu/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.gpu)
            if not torch.cuda.is_available():
                item.add_marker(pytest.mark.skip(reason="needs a CUDA GPU"))
