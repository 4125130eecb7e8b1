"""Which device a demo runs on: CUDA if there is one, else Apple's MPS, else the CPU."""
import os
from contextlib import contextmanager

import torch

PREFERENCES = ("auto", "cpu", "cuda", "mps")


class DeviceError(ValueError):
    """The device asked for is not on this machine."""


def pick_device(preference: str = "auto") -> torch.device:
    """Resolve "auto", "cpu", "cuda", "cuda:1" or "mps" to a device this machine has."""
    preference = (preference or "auto").strip().lower()
    if preference == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        if torch.backends.mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    try:
        device = torch.device(preference)
    except RuntimeError as error:
        raise DeviceError(f"unknown device {preference!r}; use one of {', '.join(PREFERENCES)}") from error
    if device.type == "cuda" and not torch.cuda.is_available():
        raise DeviceError("a CUDA device was asked for, but PyTorch sees no CUDA GPU on this machine")
    if device.type == "cuda" and device.index is not None and device.index >= torch.cuda.device_count():
        raise DeviceError(f"there is no {device}: this machine has {torch.cuda.device_count()} CUDA device(s)")
    if device.type == "mps" and not torch.backends.mps.is_available():
        raise DeviceError("the MPS device was asked for, but this machine has no Apple GPU available to PyTorch")
    if device.type not in ("cpu", "cuda", "mps"):
        raise DeviceError(f"unsupported device {preference!r}; use one of {', '.join(PREFERENCES)}")
    return device


def device_label(device: torch.device) -> str:
    """How results name the device: "cpu", "cuda: NVIDIA H100 80GB HBM3", "mps: Apple GPU"."""
    if device.type == "cuda":
        return f"cuda: {torch.cuda.get_device_name(device)}"
    if device.type == "mps":
        return "mps: Apple GPU"
    return "cpu"


def synchronize(device: torch.device) -> None:
    """Wait for queued GPU work, so a timer measures the work and not just its launch."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type == "mps":
        torch.mps.synchronize()


@contextmanager
def cpu_threads(n: int):
    """PyTorch on `n` CPU threads within the block; the count before comes back even on an error or a stop."""
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield torch.get_num_threads()
    finally:
        torch.set_num_threads(before)


def all_cpu_cores():
    """Let PyTorch use every CPU core for the block (a timing race), then go back."""
    return cpu_threads(os.cpu_count() or torch.get_num_threads())


def precision(device: torch.device) -> str:
    """How float32 matrix products run on `device`: "tf32" on a CUDA GPU with TF32 tensor cores
    (Ampere and newer, once `use_fast_math` has switched it on), else "float32"."""
    if device.type == "cuda" and torch.cuda.get_device_capability(device)[0] >= 8 and torch.backends.cuda.matmul.allow_tf32:
        return "tf32"
    return "float32"


def use_fast_math(device: torch.device) -> None:
    """On a GPU, let float32 matrix products and convolutions use TF32 tensor cores: about 8 times
    the float32 rate on an H100, with 10 bits of mantissa instead of 23 (ample for training)."""
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
