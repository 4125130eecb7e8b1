"""The speed race's second measurement: each step timed on one CPU thread and on all of them (and on
the GPU where there is one), the thread count given back whatever happens, and words and a
verdict of who gained more that follow the speed-ups (constructed timings test the rule directly)."""
import os

import pytest
import torch

from demos import speed_race
from demos.runtime.runner import run_demo
from demos.shared import speedup
from tests.demos.tiny import TINY

MANY_CORES = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: there is no 'all cores' to compare with")


@pytest.fixture
def threads_seen(monkeypatch):
    """Runs the speed-up's steps through the real timer, noting PyTorch's thread count at each call."""
    seen, real = [], speed_race.one_step

    def one_step(models, x, device, warm_up):
        seen.append((torch.get_num_threads(), tuple(models)))
        return real(models, x, device, warm_up)

    monkeypatch.setattr(speed_race, "one_step", one_step)
    return seen


@MANY_CORES
def test_each_step_is_timed_on_one_thread_and_on_all_of_them_taking_turns(threads_seen):
    before = torch.get_num_threads()
    result = run_demo(speed_race, TINY["speed_race"])
    cores = os.cpu_count()
    assert torch.get_num_threads() == before, "the thread count is given back"
    scaling = result["scaling"]
    assert scaling["hardware"] == {"cpu_cores": cores, "cpu_threads": cores, "gpu": None, "gpu_sms": None}
    assert scaling["lengths"] == [64, 128] and scaling["main"] == "all_threads"
    # Round after round, one thread then all of them; the loop LSTM only where it is timed (64).
    rounds = TINY["speed_race"]["repeats"]
    everyone, without_loop = ("lstm_fused", "lstm_loop", "transformer"), ("lstm_fused", "transformer")
    assert threads_seen == [(1, everyone), (cores, everyone)] * rounds + [(1, without_loop), (cores, without_loop)] * rounds
    for setting in ("one_thread", "all_threads"):
        times = scaling["times"][setting]
        assert all(t > 0 for t in times["lstm_fused"]["series"] + times["transformer"]["series"])
        assert times["lstm_loop"]["series"][1] is None
    gains = scaling["speedup"]["all_threads"]["transformer"]
    one, every = scaling["times"]["one_thread"]["transformer"], scaling["times"]["all_threads"]["transformer"]
    assert gains["series"][0] == pytest.approx(one["series"][0] / every["series"][0])
    assert gains["spread"][0] == pytest.approx([one["spread"][0][0] / every["spread"][0][1], one["spread"][0][1] / every["spread"][0][0]])
    assert scaling["summary"] in result["summary"]
    assert speed_race.headline(result)["winner"] in ("transformer", "lstm", "tie")


def test_the_thread_count_comes_back_after_an_error_on_one_thread(monkeypatch):
    def broken(models, x, device, warm_up):
        if torch.get_num_threads() == 1:
            raise RuntimeError("out of memory")
        return {name: 0.01 for name in models}

    monkeypatch.setattr(speed_race, "one_step", broken)
    before = torch.get_num_threads()
    with pytest.raises(RuntimeError, match="out of memory"):
        run_demo(speed_race, TINY["speed_race"])
    assert torch.get_num_threads() == before


class Stopped(Exception):
    pass


def test_the_thread_count_comes_back_when_the_run_is_stopped(threads_seen):
    def stop():  # the lecturer presses Stop once a step has run on one thread
        if any(threads == 1 for threads, _ in threads_seen):
            raise Stopped

    before = torch.get_num_threads()
    with pytest.raises(Stopped):
        run_demo(speed_race, TINY["speed_race"], stop_check=stop)
    assert torch.get_num_threads() == before and threads_seen


def test_the_settings_take_turns_and_a_slow_step_stops_after_two_rounds():
    calls = []

    def clock(models, x, device, warm_up):
        calls.append((torch.get_num_threads(), tuple(models), warm_up))
        return {name: {"fast": 0.01, "slow": 3.0}[name] for name in models}

    plan = {"one_thread": (torch.device("cpu"), 1), "all_threads": (torch.device("cpu"), 2)}
    models = {setting: {"fast": None, "slow": None} for setting in plan}
    seconds = speedup.measure(models, {64: torch.zeros(1)}, {64: ["fast", "slow"]}, plan, clock, 3, point_seconds=2.0)
    assert [(threads, names) for threads, names, _ in calls] == [
        (1, ("fast", "slow")), (2, ("fast", "slow")), (1, ("fast", "slow")), (2, ("fast", "slow")), (1, ("fast",)), (2, ("fast",))]
    assert [warm for *_, warm in calls] == [True, True, False, False, False, False], "the first round warms each setting up"
    assert seconds["one_thread"]["fast"] == [[0.01] * 3] and seconds["all_threads"]["slow"] == [[3.0] * 2]


def scaling(transformer, lstm, noisy=(), cores=2, gpu=None):
    """Speed-ups from made-up timings: for each contender (one-thread seconds, parallel seconds) at one length."""
    seconds = {"one_thread": {"transformer": [transformer[0]], "lstm_fused": [lstm[0]]},
               "all_threads": {"transformer": [transformer[1]], "lstm_fused": [lstm[1]]}}
    if gpu:
        seconds["gpu"] = {"transformer": [transformer[2]], "lstm_fused": [lstm[2]]}
    facts = {"cpu_cores": cores, "cpu_threads": cores, "gpu": gpu, "gpu_sms": 132 if gpu else None}
    return speedup.summarise(seconds, [1024], lambda t: any(t is s for s in noisy), facts)


ONE, HALF = [1.0, 1.02, 1.04], [0.5, 0.51, 0.52]  # seconds: one thread; twice as fast


@pytest.mark.parametrize("transformer, lstm, winner, words", [
    ((ONE, HALF), (ONE, [0.8, 0.81, 0.82]), "transformer",
     "Speed-up of a step from one thread to 2 threads at length 1,024: Transformer layer 2.00× (1.92–2.08), "
     "fused LSTM 1.26× (1.22–1.30); the Transformer layer gained more."),
    ((ONE, [0.8, 0.81, 0.82]), (ONE, HALF), "lstm", "; the fused LSTM gained more."),
    ((ONE, [0.98, 1.0, 1.03]), (ONE, [0.99, 1.02, 1.05]), "tie", "; neither clearly gained."),
    ((ONE, [1.5, 1.6, 1.7]), (ONE, [1.1, 1.12, 1.15]), "lstm",
     "Transformer layer 0.64× (0.59–0.69), fused LSTM 0.91× (0.87–0.95); neither clearly gained, and the fused LSTM lost less."),
    ((ONE, [0.6, 0.7, 0.8]), (ONE, [0.7, 0.75, 0.8]), "tie", "; too close to call who gained more (the ranges overlap)."),
])
def test_the_words_and_the_verdict_follow_the_speed_ups(transformer, lstm, winner, words):
    result = scaling(transformer, lstm)
    assert words in result["summary"]
    assert (result["gained_more"][-1] or "tie") == winner


def test_a_noisy_timing_gets_no_verdict_even_when_the_speed_ups_are_apart():
    noisy = [0.5, 0.51, 0.9]
    result = scaling((ONE, noisy), (ONE, [0.8, 0.81, 0.82]), noisy=(noisy,))
    assert result["gained_more"] == [None]
    assert "Transformer layer 2.00×, fused LSTM 1.26×; too close to call who gained more: a timing stayed noisy." in result["summary"]
    assert speedup.any_noisy(result)


def test_on_a_gpu_server_the_gpu_is_the_parallel_hardware_and_the_cores_are_measured_too():
    result = scaling((ONE, HALF, [0.01] * 3), (ONE, [0.8, 0.81, 0.82], [0.2] * 3), cores=16, gpu="NVIDIA H100 80GB HBM3")
    assert set(result["speedup"]) == {"all_threads", "gpu"} and result["main"] == "gpu"
    assert result["speedup"]["gpu"]["transformer"]["series"] == [pytest.approx(102.0)]
    assert "one thread to the GPU at length 1,024: Transformer layer 102× (100–104), fused LSTM 5.10× (5.00–5.20)" in result["summary"]
    assert speedup.hardware_text(result["hardware"]) == "This server: NVIDIA H100 80GB HBM3 (132 SMs), 16 CPU cores"
    assert speedup.target_text(result["main"], result["hardware"]) == "the NVIDIA H100 80GB HBM3"


def test_one_core_and_no_gpu_has_no_speed_up_to_measure():
    assert list(speedup.settings(torch.device("cpu"), 1)) == ["one_thread"]
    result = speedup.summarise({"one_thread": {"transformer": [ONE], "lstm_fused": [ONE]}}, [1024], lambda t: False,
                               {"cpu_cores": 1, "cpu_threads": 1, "gpu": None, "gpu_sms": None})
    assert result["main"] is None and "no parallel hardware" in result["summary"]


def test_the_speed_up_is_timed_at_the_longest_length_all_three_run_and_the_longest_up_to_the_cap():
    lengths = list(speed_race.LENGTHS)
    assert speed_race.scaling_lengths({"lengths": lengths, "loop_max_length": 256, "cpu_max_length": 1024}) == [256, 1024]
    assert speed_race.scaling_lengths({"lengths": lengths, "loop_max_length": 256, "cpu_max_length": 512}) == [256, 512]
    assert speed_race.scaling_lengths({"lengths": [64], "loop_max_length": 64, "cpu_max_length": 1024}) == [64]
    assert speed_race.scaling_lengths({"lengths": [2048, 4096], "loop_max_length": 64, "cpu_max_length": 1024}) == [2048]


def test_a_gpu_server_times_the_cpu_to_a_shorter_length_by_default():
    from demos.runtime.budgets import overrides
    from demos.runtime.params import validate
    cpu = validate(speed_race.PARAMS, overrides(speed_race, "cpu"))
    gpu = validate(speed_race.PARAMS, overrides(speed_race, "cuda"))
    assert speed_race.scaling_lengths(cpu) == [256, 1024]
    assert speed_race.scaling_lengths(gpu) == [256]
