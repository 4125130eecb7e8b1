"""The speed race. How long does one training step take, forward and backward, for
an LSTM and a Transformer layer, as the sequence grows? Measured on this machine's hardware.

Three contenders, same width and batch:
  lstm_fused   torch.nn.LSTM: the whole recurrence in one library kernel (cuDNN on a GPU);
  lstm_loop    an LSTMCell stepped in a Python loop: the sequential dependency in plain sight;
  transformer  one Transformer layer, attention by scaled_dot_product_attention (flash or
               memory-efficient kernels where the device has them).
The recurrent ones need n steps one after another; the attention layer needs one, but its
work grows with n²: Table 1 of "Attention Is All You Need" says which wins depends on n,
the width d, and how much the hardware can do at once. So the same steps are then timed on one
CPU thread against all of the machine's cores (and its GPU): how much each contender gains from
parallel hardware, on whatever machine runs the lecture (demos/shared/speedup.py).
`benchmarks/speed_race.py` runs the same measurement from a terminal.

Timings on a shared machine are noisy, so each point keeps its spread (fastest to slowest of its
repeats); a point whose spread is too wide is timed again, and marked `noisy` if it stays so
(demos/shared/step_timing.py). Who is faster is said only at lengths where the two spreads do not
overlap and neither point is noisy (demos/shared/race_verdict.py). The two LSTMs are in
demos/core/models.py with the other models.
"""
import copy
import statistics

import torch
from torch import nn

from demos.core.models import Block, FusedLSTM, LoopLSTM, ModelConfig, count_parameters
from demos.runtime.device import all_cpu_cores, device_label, precision
from demos.runtime.params import Param, seed_param
from demos.runtime.progress import share
from demos.shared import speedup
from demos.shared.complexity import TABLE_1
from demos.shared.contenders import TIE
from demos.shared.quantities import declared
from demos.shared.race_verdict import verdict, winners
from demos.shared.recap import headline as recap_row
from demos.shared.speedup import times_text, times_word
from demos.shared.step_timing import NOISE_LIMIT, POINT_SECONDS, RETRY_BUDGET, noise, one_step, time_points

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
    Param("repeats", "int", 3, "Timings per point, two at least for a spread (a slow point stops at two); "
          "the median is drawn, fastest to slowest as a bar", 2, 9),
    Param("loop_max_length", "choice", 256, "Longest length for the Python-loop LSTM (it is slow)",
          choices=(64, 128, 256, 512, 1024, 2048, 4096)),
    Param("compare_cpu", "bool", True, "On a GPU server, also time the CPU for a side-by-side race"),
    Param("cpu_max_length", "choice", 1024, "Longest length timed on one CPU thread, and on the CPU beside a GPU "
          "(one thread takes about half a second a step at 1,024)", choices=(256, 512, 1024)),
]
TINY = {"lengths": [64, 128], "width": 64, "batch": 1, "repeats": 2, "loop_max_length": 64}
# On a GPU server most of the race's time is the CPU's timings, not the GPU's: with them up to 1,024
# the race took 5.5 s on an H100, up to 512 5.1 s (2026-11-28). Its default stops them at 256 (where
# all three contenders run), to keep within the GPU's few seconds (`demos/runtime/budgets.py`).
BUDGETS = {"gpu": {"default": {"cpu_max_length": 256}}}

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


def build(contender: str, width: int) -> nn.Module:
    if contender == "lstm_fused":
        return FusedLSTM(width)
    if contender == "lstm_loop":
        return LoopLSTM(width)
    return Block(ModelConfig(width=width, n_heads=max(1, width // 32), fast_attention=True))


def transformer_flops(batch: int, length: int, width: int) -> float:
    """Floating-point operations of one forward+backward pass of the layer (backward ≈ 2× forward)."""
    per_token = 24 * width**2 + 4 * length * width  # projections and MLP, then scores and weighted sum
    return 3 * batch * length * per_token


def race(params: dict, device: torch.device, progress) -> dict:
    """Time every contender at every length on one device: each point's median, its spread
    (fastest to slowest timing) and whether it stayed noisy."""
    lengths, width, batch = params["lengths"], params["width"], params["batch"]
    models = {name: build(name, width).to(device) for name in CONTENDERS}
    measured = {key: {name: [] for name in CONTENDERS} for key in ("series", "spread", "noisy", "attempts", "memory")}
    skipped = []
    retry_left = RETRY_BUDGET
    for i, length in enumerate(lengths):
        timed = {name: model for name, model in models.items()
                 if not (name == "lstm_loop" and length > params["loop_max_length"])}
        skipped += [length] if len(timed) < len(models) else []
        x = torch.randn(batch, length, width, device=device)
        points, retrying = time_points(timed, x, params["repeats"], device, warm_up=i == 0, allowance=retry_left)
        retry_left -= retrying
        for name in CONTENDERS:
            if name in points:
                seconds, peak, attempts = points[name]
                point = {"series": statistics.median(seconds), "spread": [min(seconds), max(seconds)],
                         "noisy": noise(seconds) > NOISE_LIMIT, "attempts": attempts, "memory": peak}
            else:
                point = {"series": None, "spread": None, "noisy": None, "attempts": None, "memory": None}
            for key, value in point.items():
                measured[key][name].append(value)
        progress((i + 1) / len(lengths), f"{device.type}: length {length}: " + ", ".join(
                     f"{NAMES[name]} {milliseconds(measured['series'][name][-1])} ms"
                     + (" (noisy)" if measured["noisy"][name][-1] else "") for name in points),
                 {"lengths": lengths, "device": device_label(device),
                  **{key: {k: list(v) for k, v in measured[key].items()} for key in ("series", "spread", "noisy")}})
    return summarise(params, device, measured, skipped)


def summarise(params: dict, device: torch.device, measured: dict, skipped: list) -> dict:
    lengths, width, batch = params["lengths"], params["width"], params["batch"]
    label = device_label(device)
    series = measured["series"]
    tokens_per_second = {name: [None if t is None else batch * n / t for n, t in zip(lengths, times)]
                         for name, times in series.items()}
    ratio = [f / t for f, t in zip(series["lstm_fused"], series["transformer"])]
    used = precision(device)
    peak = next((rates.get(used) for name, rates in PEAK_FLOPS.items() if name in label), None) \
        if device.type == "cuda" else None
    achieved = [transformer_flops(batch, n, width) / t for n, t in zip(lengths, series["transformer"])]
    result = {
        "device": label,
        "precision": used,
        "lengths": lengths,
        "series": series,  # the median of each point's timings
        "spread": measured["spread"],  # [fastest, slowest] of each point's timings
        "noisy": measured["noisy"],  # True where the spread stayed wider than NOISE_LIMIT × the median
        "attempts": measured["attempts"],  # 1, or more where a noisy point was timed again
        "noise_limit": NOISE_LIMIT,
        "tokens_per_second": tokens_per_second,
        "ratio_lstm_to_transformer": ratio,
        "transformer_speedup": speedups_by_length(lengths, series, measured["spread"], measured["noisy"]),
        "memory_mib": measured["memory"] if device.type == "cuda" else None,
        "skipped": {"lstm_loop": skipped} if skipped else {},
        "transformer_gflops": [a / 1e9 for a in achieved],
        "peak_gflops": peak / 1e9 if peak else None,
        "peak_fraction": [a / peak for a in achieved] if peak else None,
    }
    result["faster"] = winners(result)
    threads = torch.get_num_threads()  # on the CPU, say how much of it the race used
    result["verdict"] = verdict(f"{threads} CPU thread{'s' if threads > 1 else ''}" if device.type == "cpu" else label, result)
    return result


def speedups_by_length(lengths: list[int], series: dict, spread: dict, noisy: dict) -> list[dict]:
    """At each length, how many times faster the Transformer layer's step was than the fused LSTM's:
    the ratio of their medians, the least to the most any two of their timings give (at the longest, the
    quantity `transformer_speedup` below), and whether either timing stayed noisy (then no poll is scored
    against it)."""
    return [{"length": n, "median": lstm / attention, "min": lstm_spread[0] / attention_spread[1],
             "max": lstm_spread[1] / attention_spread[0], "noisy": lstm_noisy or attention_noisy}
            for n, lstm, attention, lstm_spread, attention_spread, lstm_noisy, attention_noisy
            in zip(lengths, series["lstm_fused"], series["transformer"], spread["lstm_fused"], spread["transformer"],
                   noisy["lstm_fused"], noisy["transformer"])]


def work(params: dict) -> float:
    """The run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): repeats × batch × width × the lengths (those
    timed on one thread and on all, about three times over)."""
    return 3.0e-6 * params["repeats"] * params["batch"] * params["width"] * (sum(params["lengths"]) + 3 * sum(scaling_lengths(params)))


def scaling_lengths(params: dict) -> list[int]:
    """Where the speed-up from one thread is timed: the longest length every contender runs at, and
    the longest up to `cpu_max_length`."""
    within = [n for n in sorted(params["lengths"]) if n <= params["cpu_max_length"]] or sorted(params["lengths"])[:1]
    everyone = [n for n in within if n <= params["loop_max_length"]]
    return sorted({within[-1], *everyone[-1:]})


def thread_scaling(params: dict, device: torch.device, threads: int, progress) -> dict:
    """Each contender's step on one CPU thread, on all `threads`, and on the GPU if there is one: the
    speed-up each gets from this server's parallel hardware (demos/shared/speedup.py)."""
    lengths, width = scaling_lengths(params), params["width"]
    plan = speedup.settings(device, threads)
    on_cpu = {name: build(name, width) for name in CONTENDERS}
    models = {setting: on_cpu if where.type == "cpu" else {name: copy.deepcopy(m).to(where) for name, m in on_cpu.items()}
              for setting, (where, _) in plan.items()}
    inputs = {n: torch.randn(params["batch"], n, width) for n in lengths}
    timed = {n: [name for name in CONTENDERS if not (name == "lstm_loop" and n > params["loop_max_length"])] for n in lengths}
    seconds = speedup.measure(models, inputs, timed, plan, one_step, params["repeats"], POINT_SECONDS, progress)
    return speedup.summarise(seconds, lengths, lambda t: noise(t) > NOISE_LIMIT, speedup.hardware(device, threads))


def run(params: dict, progress, device: torch.device) -> dict:
    second = torch.device("cpu") if device.type != "cpu" and params["compare_cpu"] else None
    with all_cpu_cores() as cpu_threads:  # the race is about what this hardware can do
        result = race(params, device, share(progress, 0.0, 0.55 if second else 0.75))
        races = [result]
        if second is not None:  # the CPU side by side, to the lengths a CPU times in seconds
            cpu_lengths = [n for n in params["lengths"] if n <= params["cpu_max_length"]] or params["lengths"][:1]
            races.append(race({**params, "lengths": cpu_lengths}, second, share(progress, 0.55, 0.75)))
        scaling = thread_scaling(params, device, cpu_threads, share(progress, 0.75, 1.0))
    counts = {name: count_parameters(build(name, params["width"])) for name in CONTENDERS}
    return {
        **{k: v for k, v in result.items() if k not in ("device", "noisy")},
        "races": races,  # one per device; the first is the main one (the server's device)
        "scaling": scaling,  # one thread against all cores (and the GPU): the speed-up of each step
        # True when some point stayed noisy: a measurement to repeat on a quiet machine, not to keep
        "noisy": any(bad for r in races for times in r["noisy"].values() for bad in times) or speedup.any_noisy(scaling),
        "parameters": counts,
        "sequential_steps": {"lstm": list(params["lengths"]), "transformer": [1] * len(params["lengths"])},
        "complexity": TABLE_1,
        "cpu_threads": cpu_threads,
        # the main race and the speed-ups; the CPU's race beside a GPU is in the details and the terminal
        "summary": f"{result['verdict']} {scaling['summary']}",
    }


def transformer_speedup(result: dict) -> dict:
    """How many times as fast the Transformer layer's step was as the fused LSTM's, at the longest length timed."""
    return result["transformer_speedup"][-1]  # the ratio of the medians, the least to the most two timings give


QUANTITIES = declared(transformer_speedup)  # what the slide may quote


def headline(result: dict) -> dict:
    """For the recap: the quantity the slide's number poll asks for (`transformer_speedup`), and who was
    faster there (TIE where their timings overlap or one stayed noisy)."""
    main, ratio = result["races"][0], transformer_speedup(result)
    noisy = any(main["noisy"][name][-1] for name in ("lstm_fused", "transformer"))
    return recap_row(f"Training step, length {ratio['length']:,}", result["faster"][-1] or TIE,
                     f"Transformer layer's step {times_text(ratio['median'], [ratio['min'], ratio['max']])} "
                     f"as fast as the fused LSTM's" + ("; a timing stayed noisy" if noisy else ""))


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.3g}" if seconds < 1 else f"{seconds * 1000:,.0f}"


def format_text(result: dict) -> str:
    lines = []
    for race_result in result["races"]:
        lines.append(f"THE SPEED RACE on {race_result['device']}: one training step (forward + backward), "
                     f"width {result['params']['width']}, batch {result['params']['batch']}; "
                     f"milliseconds, median (fastest to slowest of {result['params']['repeats']})")
        lines.append(f"{'length':>7}  " + "  ".join(f"{NAMES[name]:>28}" for name in CONTENDERS) + "   faster")
        for i, n in enumerate(race_result["lengths"]):
            cells = []
            for name in CONTENDERS:
                t, spread = race_result["series"][name][i], race_result["spread"][name][i]
                cell = "skipped" if t is None else (
                    f"{milliseconds(t)} ({milliseconds(spread[0])} to {milliseconds(spread[1])})"
                    + (" noisy" if race_result["noisy"][name][i] else ""))
                cells.append(f"{cell:>28}")
            won, ratio = race_result["faster"][i], race_result["ratio_lstm_to_transformer"][i]
            call = {"transformer": f"Transformer {times_word(ratio)}", "lstm": f"LSTM {times_word(1 / ratio)}",
                    None: "too close to call"}[won]
            lines.append(f"{n:>7}  " + "  ".join(cells) + f"   {call}")
        lines += [race_result["verdict"], ""]
    lines += speedup.table(result["scaling"], {name: NAMES[name] for name in CONTENDERS}, milliseconds)
    counts = result["parameters"]
    lines.append("Parameters: " + ", ".join(f"{NAMES[name]} {counts[name]:,}" for name in CONTENDERS))
    lines.append("Sequential steps for n tokens: LSTM n, Transformer 1 per layer.")
    return "\n".join(lines)
