"""How much this server's parallel hardware speeds up each contender's training step: the same
step timed on one CPU thread, on all of the machine's cores, and on the GPU where there is one
(slide 10, beside the speed race). The claim under test: attention is a few big matrix products,
which spread over many cores; a recurrence is many small steps in order, which cannot.

The settings take turns as the contenders do (one step each, round after round), so a burst of
load from another program slows all of them alike. A speed-up is (time on one thread) ÷ (time on
the parallel hardware), from the medians; its range runs from the least to the most that any two
of the timings give (fastest one-thread ÷ slowest parallel, slowest ÷ fastest), and it is noisy
where either point is. Which contender gained more is said only where the two ranges do not
overlap and neither is noisy.
"""
import os
import statistics
from typing import Callable

import torch

from demos.runtime.device import cpu_threads
from demos.runtime.progress import check_stop
from demos.shared.contenders import TIE
from demos.shared.seeds import leader, spread_range

NAMES = {"lstm_fused": "fused LSTM", "lstm_loop": "Python-loop LSTM", "transformer": "Transformer layer"}
WHO = {"transformer": "transformer", "lstm": "lstm_fused"}  # who `gained_more` names: the contender it stands for


def hardware(device: torch.device, threads: int) -> dict:
    """How much parallel hardware this server has: CPU cores, the threads PyTorch runs on, the GPU and its SMs."""
    facts = {"cpu_cores": os.cpu_count(), "cpu_threads": threads, "gpu": None, "gpu_sms": None}
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        facts.update(gpu=props.name, gpu_sms=props.multi_processor_count)
    elif device.type == "mps":
        facts.update(gpu="Apple GPU")
    return facts


def settings(device: torch.device, threads: int) -> dict[str, tuple[torch.device, int]]:
    """What each contender is timed on: one CPU thread, then all of them (if there are more), then the GPU."""
    cpu = torch.device("cpu")
    plan = {"one_thread": (cpu, 1)}
    if threads > 1:
        plan["all_threads"] = (cpu, threads)
    if device.type != "cpu":
        plan["gpu"] = (device, threads)
    return plan


TimeStep = Callable[[dict, torch.Tensor, torch.device, bool], dict[str, float]]


def measure(models: dict[str, dict], inputs: dict[int, torch.Tensor], timed: dict[int, list[str]],
            plan: dict[str, tuple[torch.device, int]], time_step: TimeStep, repeats: int,
            point_seconds: float, progress=lambda fraction, message: None) -> dict[str, dict[str, list[list[float]]]]:
    """Seconds of each step: {setting: {contender: [timings at each length]}}. `models[setting]` and
    `inputs[length]` are on the CPU, or the setting's device, as `time_step(models, x, device,
    warm_up)` needs them; at each length the contenders in `timed[length]` take turns within each
    setting, and the settings take turns within each round (the first round warms each up). A
    contender that has taken `point_seconds` in a setting stops after two rounds."""
    seconds = {setting: {name: [[] for _ in inputs] for name in models[setting]} for setting in plan}
    for i, (length, x) in enumerate(inputs.items()):
        for round_ in range(repeats):
            for setting, (device, threads) in plan.items():
                check_stop()
                done = seconds[setting]
                turn = {name: models[setting][name] for name in timed[length]
                        if not (len(done[name][i]) >= 2 and sum(done[name][i]) > point_seconds)}
                if not turn:
                    continue
                with cpu_threads(threads):
                    for name, step_seconds in time_step(turn, x.to(device), device, round_ == 0).items():
                        done[name][i].append(step_seconds)
            progress((i + (round_ + 1) / repeats) / len(inputs), f"threads: length {length:,}, round {round_ + 1}")
    return seconds


def points(timings: list[list[float]], noisy: Callable[[list[float]], bool]) -> dict:
    """Each length's median, [fastest, slowest] and whether it stayed noisy; None where not timed."""
    return {"series": [statistics.median(t) if t else None for t in timings],
            "spread": [[min(t), max(t)] if t else None for t in timings],
            "noisy": [noisy(t) if t else None for t in timings]}


def ratio(one: dict, parallel: dict, i: int) -> tuple[float | None, list[float] | None, bool | None]:
    """One-thread time ÷ parallel time at length index i: the ratio of medians, its range, noisy."""
    if one["series"][i] is None or parallel["series"][i] is None:
        return None, None, None
    (fast_one, slow_one), (fast_par, slow_par) = one["spread"][i], parallel["spread"][i]
    return (one["series"][i] / parallel["series"][i], [fast_one / slow_par, slow_one / fast_par],
            bool(one["noisy"][i] or parallel["noisy"][i]))


def summarise(seconds: dict, lengths: list[int], noisy: Callable[[list[float]], bool], facts: dict) -> dict:
    """Medians and spreads of every setting, the speed-ups over one thread and who gained more."""
    times = {setting: {name: points(t, noisy) for name, t in by_name.items()} for setting, by_name in seconds.items()}
    speedup = {}
    for target in [s for s in times if s != "one_thread"]:
        speedup[target] = {}
        for name in times[target]:
            calls = [ratio(times["one_thread"][name], times[target][name], i) for i in range(len(lengths))]
            speedup[target][name] = {key: [call[k] for call in calls] for k, key in enumerate(("series", "spread", "noisy"))}
    main = "gpu" if "gpu" in speedup else "all_threads" if speedup else None
    result = {"hardware": facts, "lengths": lengths, "times": times, "speedup": speedup, "main": main,
              "gained_more": [gained_more(speedup[main], i) if main else None for i in range(len(lengths))]}
    result["summary"] = words(result)
    return result


def any_noisy(result: dict) -> bool:
    """Whether some point stayed noisy, in any setting."""
    return any(bad for by_name in result["times"].values() for point in by_name.values() for bad in point["noisy"] if bad)


def gained_more(speedup: dict, i: int) -> str | None:
    """ "transformer" or "lstm" (the fused one), whichever sped up more at length index i, where their
    ranges do not overlap and neither is noisy; else None (too close to call)."""
    lstm, attention = speedup["lstm_fused"], speedup["transformer"]
    if None in (lstm["spread"][i], attention["spread"][i]) or lstm["noisy"][i] or attention["noisy"][i]:
        return None
    more = leader({"transformer": spread_range(attention["spread"][i]), "lstm": spread_range(lstm["spread"][i])})
    return None if more == TIE else more


def number(value: float) -> str:
    return f"{value:.2g}" if value < 0.1 else f"{value:.2f}" if value < 10 else f"{value:.0f}"


def times_word(value: float) -> str:
    return f"{number(value)}×"


def times_text(value: float, spread: list[float]) -> str:
    """ "1.80× (1.70–1.90)": a speed-up and its range."""
    return f"{times_word(value)} ({number(spread[0])}–{number(spread[1])})"


def hardware_text(facts: dict) -> str:
    """ "This server: 2 CPU cores, PyTorch on 2 threads", or its GPU with its SMs, and its cores."""
    cores = f"{facts['cpu_cores']} CPU core{'s' if facts['cpu_cores'] != 1 else ''}"
    if facts["gpu"]:
        return f"This server: {facts['gpu']}" + (f" ({facts['gpu_sms']} SMs)" if facts["gpu_sms"] else "") + f", {cores}"
    threads = facts["cpu_threads"]
    return f"This server: {cores}, PyTorch on {threads} thread{'s' if threads != 1 else ''}"


def target_text(target: str, facts: dict) -> str:
    return f"{facts['cpu_threads']} threads" if target == "all_threads" else f"the {facts['gpu']}"


def words(result: dict) -> str:
    """What the speed-ups show, whichever way they go, in one sentence (the chart has the rest): the
    fused LSTM's and the Transformer layer's at the longest length timed, and which gained more."""
    facts, main, lengths = result["hardware"], result["main"], result["lengths"]
    if main is None:
        return "With one CPU thread and no GPU there is no parallel hardware to measure a speed-up on."
    i, gains = len(lengths) - 1, result["speedup"][main]
    pair = ("transformer", "lstm_fused")
    where = f"{facts['cpu_threads']} threads" if main == "all_threads" else "the GPU"
    quiet = all(not gains[name]["noisy"][i] for name in pair)  # else the ranges are on the chart, not in words
    text = (f"Speed-up of a step from one thread to {where} at length {lengths[i]:,}: " + ", ".join(
        f"{NAMES[name]} " + (times_text(gains[name]["series"][i], gains[name]["spread"][i]) if quiet else times_word(gains[name]["series"][i]))
        for name in pair))
    winner = result["gained_more"][i]
    if quiet and all(gains[name]["spread"][i][0] <= 1 for name in pair):
        text += "; neither clearly gained"
        text += "." if winner is None else f", and the {NAMES[WHO[winner]]} lost less."
    elif winner is not None:
        text += f"; the {NAMES[WHO[winner]]} gained more."
    else:
        text += "; too close to call who gained more" + (" (the ranges overlap)." if quiet else ": a timing stayed noisy.")
    return text


def table(result: dict, labels: dict[str, str], milliseconds: Callable[[float], str]) -> list[str]:
    """The speed-ups as lines of a terminal table: each setting's median milliseconds, then the speed-ups."""
    facts, targets = result["hardware"], list(result["speedup"])
    lines = [f"{hardware_text(facts)}. A step on one thread against " + " and ".join(target_text(t, facts) for t in targets)
             + ": milliseconds (median), then the speed-up (its range)"]
    for i, n in enumerate(result["lengths"]):
        for name, label in labels.items():
            if result["times"]["one_thread"][name]["series"][i] is None:
                continue
            cells = [f"{milliseconds(result['times'][s][name]['series'][i])} ms" for s in result["times"]]
            gains = [times_text(result["speedup"][t][name]["series"][i], result["speedup"][t][name]["spread"][i])
                     + (" noisy" if result["speedup"][t][name]["noisy"][i] else "") for t in targets]
            lines.append(f"{n:>7}  {label:<22} " + " / ".join(cells) + "   " + ", ".join(gains))
    return lines + [result["summary"], ""]
