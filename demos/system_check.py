"""Slide 1: what this server computes with, measured rather than assumed."""
import os
import platform
import statistics
import time

import torch

from demos.device import device_label, synchronize
from demos.params import Param, seed_param

ID = "system_check"
TITLE = "System check: the machine behind the demos"
PARAMS = [
    seed_param(),
    Param("size", "int", 512, "Size n of the n×n matrix product timed on the device", 64, 2048),
    Param("repeats", "int", 7, "Timed repeats; the median is reported", 3, 31),
]


def time_matmul(n: int, repeats: int, device: torch.device) -> list[float]:
    """Seconds for each of `repeats` products of two n×n float32 matrices, after one warm-up."""
    a = torch.randn(n, n, device=device)
    b = torch.randn(n, n, device=device)
    (a @ b).sum().item()  # warm-up: first calls pay for allocation and kernel selection
    seconds = []
    for _ in range(repeats):
        synchronize(device)
        start = time.perf_counter()
        a @ b
        synchronize(device)
        seconds.append(time.perf_counter() - start)
    return seconds


def machine_facts(device: torch.device) -> dict:
    facts = {
        "torch": torch.__version__,
        "python": platform.python_version(),
        "cpu_cores": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "cuda_available": torch.cuda.is_available(),
        "mps_available": torch.backends.mps.is_available(),
    }
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        facts.update(gpu_name=props.name, gpu_memory_gib=round(props.total_memory / 2**30, 1),
                     cuda_version=torch.version.cuda, cudnn_version=torch.backends.cudnn.version())
    return facts


def run(params: dict, progress, device: torch.device) -> dict:
    progress(0.0, "reading the machine")
    facts = machine_facts(device)
    sizes = sorted({min(128, params["size"]), min(256, params["size"]), params["size"]})
    timings = []
    for i, n in enumerate(sizes):
        seconds = time_matmul(n, params["repeats"], device)
        median = statistics.median(seconds)
        timings.append({"n": n, "median_seconds": median, "min_seconds": min(seconds), "max_seconds": max(seconds),
                        "gflops": 2 * n**3 / median / 1e9})
        progress((i + 1) / len(sizes), f"timed a {n}×{n} matrix product: {median * 1e3:.2f} ms",
                 {"matmul": list(timings)})
    best = max(timings, key=lambda t: t["gflops"])
    summary = (f"The demos run on {device_label(device)} with PyTorch {facts['torch']}. "
               f"A {best['n']}×{best['n']} matrix product took {best['median_seconds'] * 1e3:.2f} ms "
               f"(median of {params['repeats']}), about {best['gflops']:.0f} GFLOP/s.")
    return {**facts, "matmul": timings, "summary": summary}


def format_text(result: dict) -> str:
    lines = [
        f"Device:       {result['device']}",
        f"PyTorch:      {result['torch']} (Python {result['python']})",
        f"CPU:          {result['cpu_cores']} cores, PyTorch uses {result['torch_threads']} threads",
        f"CUDA GPU:     {'yes' if result['cuda_available'] else 'no'}",
    ]
    if "gpu_name" in result:
        lines.append(f"GPU:          {result['gpu_name']}, {result['gpu_memory_gib']} GiB, "
                     f"CUDA {result['cuda_version']}, cuDNN {result['cudnn_version']}")
    lines.append("")
    lines.append("Matrix product timings (float32):")
    for t in result["matmul"]:
        lines.append(f"  {t['n']:>5}×{t['n']:<5} {t['median_seconds'] * 1e3:9.3f} ms   {t['gflops']:8.1f} GFLOP/s")
    lines += ["", result["summary"]]
    return "\n".join(lines)
