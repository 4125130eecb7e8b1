"""The system check: what this server computes with, measured rather than assumed: the machine,
the speed of a matrix product, and the time of one training step of a small LSTM and Transformer
through the demos' own training core (which also readies the GPU's libraries for the slides after)."""
import os
import platform
import statistics
import time

import torch

from demos.core.tasks import IndexLookup
from demos.core.training import Run, TrainConfig, classification_loss, train_together
from demos.runtime.device import device_label, precision, synchronize
from demos.runtime.params import Param, seed_param
from demos.shared.classifier import Entry, TaskBatches, build, classifier_config
from demos.shared.contenders import label

ID = "system_check"
TITLE = "System check: the machine behind the demos"
PARAMS = [
    seed_param(),
    Param("size", "int", 512, "Size n of the n×n matrix product timed on the device", 64, 2048),
    Param("repeats", "int", 7, "Timed repeats; the median is reported", 3, 31),
]
TINY = {"size": 64, "repeats": 3}


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


TRAINING_STEPS = 40  # of each small model, timed after a first run that pays for setting up


def time_training(device: torch.device) -> dict:
    """Milliseconds per training step of a small tuned LSTM and Transformer (width 64, Index Lookup of
    16 digits, batch 64) through the training core, after one untimed run of the same."""
    task, timings = IndexLookup(16), {}
    for name in ("lstm-tuned", "transformer"):
        seconds = []
        for _ in range(2):  # the first run sets up: kernels, cuDNN plans, the captured graph on a GPU
            entry = Entry((name,), classifier_config(name, task, 64), task, TrainConfig(steps=TRAINING_STEPS), 0)
            run = Run(build(entry, device), TaskBatches(task, 64, 0, device), classification_loss, entry.train_cfg)
            synchronize(device)
            started = time.perf_counter()
            train_together([run])
            synchronize(device)
            seconds.append(time.perf_counter() - started)
        timings[name] = {"label": label(name), "ms_per_step": 1000 * seconds[-1] / TRAINING_STEPS,
                         "graph": run.captured}
    return timings


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


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): the training steps it times, a fixed
    amount, and its matrix products, size³ × repeats."""
    return 4 + params["size"] ** 3 * params["repeats"] / 5e9


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
        progress(0.8 * (i + 1) / len(sizes), f"timed a {n}×{n} matrix product: {median * 1e3:.2f} ms",
                 {"matmul": list(timings)})
    progress(0.8, "timing a training step of a small LSTM and Transformer", {"matmul": list(timings)})
    steps = time_training(device)
    asked, best = timings[-1], max(timings, key=lambda t: t["gflops"])  # the size in Settings, and the fastest rate
    fastest = f" (fastest: {best['gflops']:.0f} GFLOP/s at {best['n']}×{best['n']})" if best is not asked else ""
    summary = (f"The demos run on {device_label(device)} ({precision(device)}) with PyTorch {facts['torch']}. "
               f"A {asked['n']}×{asked['n']} matrix product took {asked['median_seconds'] * 1e3:.2f} ms "
               f"(median of {params['repeats']}), about {asked['gflops']:.0f} GFLOP/s{fastest}; one training step took "
               + " and ".join(f"{t['ms_per_step']:.1f} ms for the small {t['label']}" for t in steps.values()) + ".")
    return {**facts, "matmul": timings, "training_step": steps, "summary": summary}


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
    lines.append(f"Matrix product timings ({result['precision']}):")
    for t in result["matmul"]:
        lines.append(f"  {t['n']:>5}×{t['n']:<5} {t['median_seconds'] * 1e3:9.3f} ms   {t['gflops']:8.1f} GFLOP/s")
    lines.append("Training step through the demos' core (width 64, batch 64):")
    for t in result["training_step"].values():
        lines.append(f"  {t['label']:<12} {t['ms_per_step']:7.2f} ms{'  (replayed CUDA graph)' if t['graph'] else ''}")
    lines += ["", result["summary"]]
    return "\n".join(lines)
