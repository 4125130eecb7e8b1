"""The speed race. How long does one training step take, forward and backward, for
an LSTM and a Transformer layer, as the sequence grows? Measured on this machine's hardware.

Three contenders, same width and batch:
  lstm_fused   torch.nn.LSTM: the whole recurrence in one library kernel (cuDNN on a GPU);
  lstm_loop    an LSTMCell stepped in a Python loop: the sequential dependency in plain sight;
  transformer  one Transformer layer, attention by scaled_dot_product_attention (flash or
               memory-efficient kernels where the device has them).
The recurrent ones need n steps one after another; the attention layer needs one, but its
work grows with n²: Table 1 of "Attention Is All You Need" says which wins depends on n,
the width d, and how much the hardware can do at once. `benchmarks/speed_race.py` runs the
same measurement from a terminal.
"""
import statistics
import time

import torch
from torch import nn

from demos.core.models import Block, ModelConfig, count_parameters
from demos.runtime.device import all_cpu_cores, device_label, precision, synchronize
from demos.runtime.params import Param, seed_param
from demos.runtime.progress import share
from demos.shared.complexity import TABLE_1
from demos.shared.recap import headline as recap_row

ID = "speed_race"
TITLE = "The speed race: one training step, sequential vs parallel"
LENGTHS = (64, 128, 256, 512, 1024, 2048, 4096)
CONTENDERS = ("lstm_fused", "lstm_loop", "transformer")
NAMES = {"lstm_fused": "LSTM (fused kernel)", "lstm_loop": "LSTM (Python loop)", "transformer": "Transformer layer"}
PARAMS = [
    seed_param(),
    Param("lengths", "multi", list(LENGTHS), "Sequence lengths to time", 1, len(LENGTHS), choices=LENGTHS),
    Param("width", "choice", 128, "Model width d (hidden size), the same for all three", choices=(64, 128, 256)),
    Param("batch", "choice", 8, "Sequences per batch", choices=(1, 4, 8, 16)),
    Param("repeats", "int", 3, "Timed repeats per point (a slow point stops at two); the median is reported", 1, 7),
    Param("loop_max_length", "choice", 256, "Longest length for the Python-loop LSTM (it is slow)",
          choices=(64, 128, 256, 512, 1024, 2048, 4096)),
    Param("compare_cpu", "bool", True, "On a GPU server, also time the CPU for a side-by-side race"),
]

# Dense peak throughput in FLOP/s by precision, from the makers' data sheets (SXM parts), to say how
# much of the device the Transformer layer actually used. TF32 runs float32 matrix products on the
# tensor cores (the demos switch it on where the GPU has it); "float32" is the rate without them.
PEAK_FLOPS = {
    "H100": {"float32": 67e12, "tf32": 495e12, "bfloat16": 989e12},
    "H200": {"float32": 67e12, "tf32": 495e12, "bfloat16": 989e12},
    "A100": {"float32": 19.5e12, "tf32": 156e12, "bfloat16": 312e12},
    "L4": {"float32": 30.3e12, "tf32": 60e12, "bfloat16": 121e12},
    "V100": {"float32": 15.7e12},
    "T4": {"float32": 8.1e12},
}


class LoopLSTM(nn.Module):
    """An LSTM written as the recurrence it is: one LSTMCell call per time step."""

    def __init__(self, width: int):
        super().__init__()
        self.cell = nn.LSTMCell(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.size()
        h = x.new_zeros(B, C)
        c = x.new_zeros(B, C)
        outputs = []
        for t in range(T):  # step t needs h and c from step t-1
            h, c = self.cell(x[:, t], (h, c))
            outputs.append(h)
        return torch.stack(outputs, dim=1)


class FusedLSTM(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.lstm = nn.LSTM(width, width, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lstm(x)[0]


def build(contender: str, width: int) -> nn.Module:
    if contender == "lstm_fused":
        return FusedLSTM(width)
    if contender == "lstm_loop":
        return LoopLSTM(width)
    return Block(ModelConfig(width=width, n_heads=max(1, width // 32), fast_attention=True))


CPU_COMPARE_MAX = 1024  # beside a GPU, the CPU is timed up to this length (at 4,096 one step takes seconds)
POINT_SECONDS = 2.0  # a point that has taken this long stops after two timings (the least for a spread)


def time_step(model: nn.Module, x: torch.Tensor, repeats: int, device: torch.device,
              warm_up: bool = True) -> tuple[list[float], float | None]:
    """Seconds for each of up to `repeats` forward+backward passes, and peak MiB on CUDA. A warm-up
    pass comes first where it matters: always on a GPU (kernel choice, cuDNN plans for each shape),
    on a CPU only the first time the model runs."""
    def step():
        model.zero_grad(set_to_none=True)
        model(x).square().mean().backward()

    if warm_up or device.type != "cpu":
        step()  # warm-up: allocation, kernel selection, cuDNN plans
    synchronize(device)
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    seconds = []
    while len(seconds) < repeats and not (len(seconds) >= 2 and sum(seconds) > POINT_SECONDS):
        synchronize(device)
        started = time.perf_counter()
        step()
        synchronize(device)  # GPU work is queued: wait for it, or we time only its launch
        seconds.append(time.perf_counter() - started)
    memory = torch.cuda.max_memory_allocated(device) / 2**20 if device.type == "cuda" else None
    return seconds, memory


def transformer_flops(batch: int, length: int, width: int) -> float:
    """Floating-point operations of one forward+backward pass of the layer (backward ≈ 2× forward)."""
    per_token = 24 * width**2 + 4 * length * width  # projections and MLP, then scores and weighted sum
    return 3 * batch * length * per_token


def race(params: dict, device: torch.device, progress) -> dict:
    """Time every contender at every length on one device."""
    lengths, width, batch = params["lengths"], params["width"], params["batch"]
    models = {name: build(name, width).to(device) for name in CONTENDERS}
    series = {name: [] for name in CONTENDERS}
    spread = {name: [] for name in CONTENDERS}
    memory = {name: [] for name in CONTENDERS}
    skipped = []
    points = [(length, name) for length in lengths for name in CONTENDERS]
    for i, (length, name) in enumerate(points):
        if name == "lstm_loop" and length > params["loop_max_length"]:
            skipped.append(length)
            times, peak = None, None
        else:
            x = torch.randn(batch, length, width, device=device)
            seconds, peak = time_step(models[name], x, params["repeats"], device, warm_up=length == lengths[0])
            times = statistics.median(seconds)
            spread[name].append([min(seconds), max(seconds)])
        series[name].append(times)
        memory[name].append(peak)
        if times is None:
            spread[name].append(None)
        progress((i + 1) / len(points), f"{device.type}: {NAMES[name]} at length {length}: "
                       + ("skipped" if times is None else f"{times * 1000:.1f} ms"),
                 {"lengths": lengths, "series": {k: list(v) for k, v in series.items()}, "device": device_label(device)})
    return summarise(params, device, series, spread, memory, sorted(set(skipped)))


def summarise(params: dict, device: torch.device, series: dict, spread: dict, memory: dict, skipped: list) -> dict:
    lengths, width, batch = params["lengths"], params["width"], params["batch"]
    label = device_label(device)
    tokens_per_second = {name: [None if t is None else batch * n / t for n, t in zip(lengths, times)]
                         for name, times in series.items()}
    ratio = [f / t for f, t in zip(series["lstm_fused"], series["transformer"])]
    used = precision(device)
    peak = next((rates.get(used) for name, rates in PEAK_FLOPS.items() if name in label), None) \
        if device.type == "cuda" else None
    achieved = [transformer_flops(batch, n, width) / t for n, t in zip(lengths, series["transformer"])]
    return {
        "device": label,
        "precision": used,
        "lengths": lengths,
        "series": series,
        "spread": spread,
        "tokens_per_second": tokens_per_second,
        "ratio_lstm_to_transformer": ratio,
        "memory_mib": memory if device.type == "cuda" else None,
        "skipped": {"lstm_loop": skipped} if skipped else {},
        "transformer_gflops": [a / 1e9 for a in achieved],
        "peak_gflops": peak / 1e9 if peak else None,
        "peak_fraction": [a / peak for a in achieved] if peak else None,
        "verdict": verdict(label, lengths, series),
    }


def times_word(ratio: float) -> str:
    return f"{ratio:.2f}×" if ratio < 10 else f"{ratio:.0f}×"


def verdict(label: str, lengths: list, series: dict) -> str:
    """One or two sentences that say what these numbers show, whichever way they go."""
    fused, attention = series["lstm_fused"], series["transformer"]
    ratios = [f / t for f, t in zip(fused, attention)]
    faster = [n for n, r in zip(lengths, ratios) if r > 1]  # lengths where the Transformer was faster
    first, last = lengths[0], lengths[-1]
    ends = f" at {first:,}" + (f", {{}} at {last:,}" if len(lengths) > 1 else "")
    if not faster:
        text = (f"On {label} the fused LSTM beat the Transformer layer at every length: it took "
                f"{times_word(ratios[0])} the Transformer's time" + ends.format(times_word(ratios[-1])) + ".")
    elif len(faster) == len(lengths):
        text = (f"On {label} the Transformer layer beat the fused LSTM at every length: "
                f"{times_word(ratios[0])} faster" + ends.format(times_word(ratios[-1])) + ".")
    else:
        slower = [n for n in lengths if n not in faster]
        text = (f"On {label} the Transformer layer beat the fused LSTM at {', '.join(f'{n:,}' for n in faster)} "
                f"({times_word(max(ratios))} faster at best) and lost at {', '.join(f'{n:,}' for n in slower)}.")
    timed = [(n, l, f) for n, l, f in zip(lengths, series["lstm_loop"], fused) if l is not None]
    if timed:
        n, l, f = timed[-1]
        text += f" The Python-loop LSTM took {times_word(l / f)} the fused kernel's time at {n:,}."
    return text


def work(params: dict) -> float:
    """How the run's cost grows with its settings, repeats × batch × width × the lengths: the engine scales its time
    estimates for new settings by it."""
    return params["repeats"] * params["batch"] * params["width"] * sum(params["lengths"])


def run(params: dict, progress, device: torch.device) -> dict:
    second = torch.device("cpu") if device.type != "cpu" and params["compare_cpu"] else None
    with all_cpu_cores() as cpu_threads:  # the race is about what this hardware can do
        result = race(params, device, share(progress, 0.0, 0.7 if second else 1.0))
        races = [result]
        if second is not None:  # the CPU side by side, to the lengths a CPU times in seconds
            cpu_lengths = [n for n in params["lengths"] if n <= CPU_COMPARE_MAX] or params["lengths"][:1]
            races.append(race({**params, "lengths": cpu_lengths}, second, share(progress, 0.7, 1.0)))
    counts = {name: count_parameters(build(name, params["width"])) for name in CONTENDERS}
    return {
        **{k: v for k, v in result.items() if k != "device"},
        "races": races,  # one per device; the first is the main one (the server's device)
        "parameters": counts,
        "sequential_steps": {"lstm": list(params["lengths"]), "transformer": [1] * len(params["lengths"])},
        "complexity": TABLE_1,
        "cpu_threads": cpu_threads,
        "summary": " ".join(r["verdict"] for r in races),
    }


def headline(result: dict) -> dict:
    """For the recap: who trained a step faster at the longest length, on the server's device."""
    longest, ratio = result["lengths"][-1], result["ratio_lstm_to_transformer"][-1]
    winner = "tie" if 0.9 < ratio < 1.1 else ("transformer" if ratio > 1 else "lstm")
    return recap_row(f"Speed of a training step, length {longest:,}", winner,
                     f"the fused LSTM took {times_word(ratio)} the Transformer layer's time on {result['races'][0]['device']}")


def format_text(result: dict) -> str:
    lines = []
    for race_result in result["races"]:
        lines.append(f"THE SPEED RACE on {race_result['device']}: one training step (forward + backward), "
                     f"width {result['params']['width']}, batch {result['params']['batch']}")
        lines.append(f"{'length':>7}  " + "  ".join(f"{NAMES[name]:>20}" for name in CONTENDERS) + "   LSTM/Transformer")
        for i, n in enumerate(race_result["lengths"]):
            cells = []
            for name in CONTENDERS:
                t = race_result["series"][name][i]
                cells.append(f"{'skipped':>20}" if t is None else f"{t * 1000:17.2f} ms")
            lines.append(f"{n:>7}  " + "  ".join(cells) + f"   {race_result['ratio_lstm_to_transformer'][i]:.2f}×")
        lines += [race_result["verdict"], ""]
    counts = result["parameters"]
    lines.append("Parameters: " + ", ".join(f"{NAMES[name]} {counts[name]:,}" for name in CONTENDERS))
    lines.append("Sequential steps for n tokens: LSTM n, Transformer 1 per layer.")
    return "\n".join(lines)
