"""Timing one training step (forward and backward) of several models fairly on a shared machine:
the models take turns, a slow point stops early, and a noisy point is timed again within a budget.
The speed race (demos/speed_race.py) and its speed-ups (demos/shared/speedup.py) time with it."""
import statistics
import time

import torch

from demos.runtime.device import synchronize

POINT_SECONDS = 2.0  # a point that has taken this long stops after two timings (the least for a spread)
NOISE_LIMIT = 0.5  # a point whose slowest timing exceeds its fastest by over half the median is noisy
RETRIES = 2  # a noisy point is timed again up to this many times, and the quietest attempt kept...
RETRY_SECONDS = 1.0  # ...if timing it again takes about this long or less (its fastest time × repeats)...
RETRY_BUDGET = 10.0  # ...and the race has spent less than this many seconds on retries: it is a live demo


def time_length(models: dict, x: torch.Tensor, repeats: int, device: torch.device,
                warm_up: bool = True) -> dict[str, tuple[list[float], float | None]]:
    """Seconds for each of up to `repeats` forward+backward passes of each model, and its peak MiB on
    CUDA. The models take turns, one step each, so a burst of work from another program slows all
    of them alike rather than one. A contender that has taken POINT_SECONDS stops after two
    timings. A warm-up pass comes first where it matters: always on a GPU (kernel choice, cuDNN
    plans for each shape), on a CPU only the first time the models run."""
    def step(model):
        model.zero_grad(set_to_none=True)
        model(x).square().mean().backward()

    if warm_up or device.type != "cpu":
        for model in models.values():
            step(model)  # warm-up: allocation, kernel selection, cuDNN plans
    seconds = {name: [] for name in models}
    memory = dict.fromkeys(models)
    for _ in range(repeats):
        for name, model in models.items():
            if len(seconds[name]) >= 2 and sum(seconds[name]) > POINT_SECONDS:
                continue
            synchronize(device)
            if device.type == "cuda":
                torch.cuda.reset_peak_memory_stats(device)
            started = time.perf_counter()
            step(model)
            synchronize(device)  # GPU work is queued: wait for it, or we time only its launch
            seconds[name].append(time.perf_counter() - started)
            if device.type == "cuda":
                memory[name] = max(memory[name] or 0, torch.cuda.max_memory_allocated(device) / 2**20)
    return {name: (seconds[name], memory[name]) for name in models}


def noise(seconds: list[float]) -> float:
    """How far apart repeated timings of one point are: (slowest − fastest) ÷ median."""
    return (max(seconds) - min(seconds)) / statistics.median(seconds)


def time_points(models: dict, x: torch.Tensor, repeats: int, device: torch.device, warm_up: bool,
                allowance: float = RETRY_BUDGET) -> tuple[dict, float]:
    """Each model's timings at one length; the noisy ones are timed again (at most RETRIES times)
    while a new attempt is cheap and `allowance` seconds of retrying are left, and each keeps its
    quietest attempt. Returns {name: (seconds, peak MiB, attempts)} and the seconds spent retrying."""
    points = {name: (seconds, memory, 1) for name, (seconds, memory) in time_length(models, x, repeats, device, warm_up).items()}
    retrying = 0.0
    while retrying < allowance:
        again = [name for name, (seconds, _, attempts) in points.items()
                 if noise(seconds) > NOISE_LIMIT and attempts <= RETRIES and min(seconds) * repeats <= RETRY_SECONDS]
        if not again:
            break
        started = time.perf_counter()
        for name, (seconds, memory) in time_length({n: models[n] for n in again}, x, repeats, device, False).items():
            kept, _, attempts = points[name]
            points[name] = (min(kept, seconds, key=noise), memory, attempts + 1)
        retrying += time.perf_counter() - started
    return points, retrying


def one_step(models: dict, x: torch.Tensor, device: torch.device, warm_up: bool) -> dict[str, float]:
    """Seconds of one step of each model, taking turns (time_length with one repeat)."""
    return {name: seconds[0] for name, (seconds, _) in time_length(models, x, 1, device, warm_up).items()}
