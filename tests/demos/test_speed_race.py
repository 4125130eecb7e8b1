"""The speed race on tiny sizes: every series, positive times, and a verdict that
agrees with the numbers it reports."""
import pytest

from demos import speed_race
from demos.runtime.runner import run_demo
from demos.speed_race import verdict

TINY = {"lengths": [64, 128], "width": 64, "batch": 1, "repeats": 1, "loop_max_length": 64}


@pytest.fixture(scope="module")
def result():
    return run_demo(speed_race, TINY)


def test_every_contender_is_timed_at_every_length(result):
    assert result["device"] == "cpu" and result["lengths"] == [64, 128]
    assert set(result["series"]) == {"lstm_fused", "lstm_loop", "transformer"}
    for name in ("lstm_fused", "transformer"):
        assert len(result["series"][name]) == 2 and all(t > 0 for t in result["series"][name])
    assert result["series"]["lstm_loop"][0] > 0
    assert result["series"]["lstm_loop"][1] is None, "the loop is skipped past its limit"
    assert result["skipped"] == {"lstm_loop": [128]}


def test_the_ratio_and_throughput_come_from_the_times(result):
    for i, n in enumerate(result["lengths"]):
        fused, attention = result["series"]["lstm_fused"][i], result["series"]["transformer"][i]
        assert result["ratio_lstm_to_transformer"][i] == pytest.approx(fused / attention)
        assert result["tokens_per_second"]["transformer"][i] == pytest.approx(1 * n / attention)


def test_the_verdict_agrees_with_the_numbers(result):
    ratios = result["ratio_lstm_to_transformer"]
    text = result["verdict"]
    assert text.startswith("On cpu")
    if all(r < 1 for r in ratios):
        assert "the fused LSTM beat the Transformer layer at every length" in text
    elif all(r > 1 for r in ratios):
        assert "the Transformer layer beat the fused LSTM at every length" in text
    else:
        assert "and lost at" in text


@pytest.mark.parametrize("fused, attention, words", [
    ([1.0, 2.0, 4.0], [2.0, 8.0, 32.0], "the fused LSTM beat the Transformer layer at every length: it took 0.50× the Transformer's time at 64, 0.12× at 1,024."),
    ([4.0, 8.0, 16.0], [1.0, 1.0, 2.0], "the Transformer layer beat the fused LSTM at every length: 4.00× faster at 64, 8.00× at 1,024."),
    ([1.0, 4.0, 16.0], [2.0, 2.0, 2.0], "beat the fused LSTM at 256, 1,024 (8.00× faster at best) and lost at 64."),
])
def test_the_verdict_covers_every_outcome(fused, attention, words):
    series = {"lstm_fused": fused, "lstm_loop": [None] * 3, "transformer": attention}
    assert words in verdict("cpu", [64, 256, 1024], series)


def test_parameter_counts_and_sequential_steps(result):
    counts = result["parameters"]
    assert counts["lstm_fused"] == counts["lstm_loop"] == 8 * 64 * 64 + 8 * 64
    assert counts["transformer"] > 0
    assert result["sequential_steps"] == {"lstm": [64, 128], "transformer": [1, 1]}
    assert [row["per_layer"] for row in result["complexity"]] == ["O(n²·d)", "O(n·d²)"]


def test_the_loop_lstm_computes_what_the_fused_one_does():
    import torch
    fused, loop = speed_race.FusedLSTM(8), speed_race.LoopLSTM(8)
    loop.cell.weight_ih.data = fused.lstm.weight_ih_l0.data.clone()
    loop.cell.weight_hh.data = fused.lstm.weight_hh_l0.data.clone()
    loop.cell.bias_ih.data = fused.lstm.bias_ih_l0.data.clone()
    loop.cell.bias_hh.data = fused.lstm.bias_hh_l0.data.clone()
    x = torch.randn(3, 5, 8)
    assert torch.allclose(fused(x), loop(x), atol=1e-6), "the race compares the same computation"
