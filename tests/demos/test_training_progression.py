"""Training progression: the model learns, every snapshot streams, and training stops once the continuation is the target."""


import torch

from demos import training_progression
from demos.__main__ import main as terminal
from demos.core.corpus import TARGET_SENTENCE
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore

CPU = torch.device("cpu")
TARGET_TOKENS = ["We", "propose", "a", "new", "simple", "network", "architecture", ",", "the", "Transformer"]


def test_the_progression_learns_and_streams_every_snapshot_so_far():
    reports = []
    result = run_demo(training_progression, {"epochs": 3, "snapshot_every": 1},
                      progress=lambda f, m, data=None: reports.append(data), device=CPU, store=ModelStore())
    snapshots = result["snapshots"]
    assert [s["epoch"] for s in snapshots] == [0, 1, 2, 3]
    assert snapshots[0]["loss"] > snapshots[-1]["loss"] + 1.0
    assert snapshots[0]["matched"] < len(result["target_tokens"])
    assert result["target_tokens"] == TARGET_TOKENS[1:]
    assert all(len(s["continuation"]) == len(result["target_tokens"]) for s in snapshots)
    assert all(s["matched"] == sum(s["matches"]) for s in snapshots)
    assert result["stopped"] in ("matched", "budget") and "on cpu" in result["summary"]
    streamed = [data for data in reports if data is not None]
    assert [len(data["snapshots"]) for data in streamed] == [1, 2, 3, 4]
    assert streamed[-1]["snapshots"] == snapshots and streamed[0]["snapshots"] == snapshots[:1]
    assert len({id(data) for data in streamed}) == len(streamed), "a fresh object each time"


def test_the_progression_stops_once_the_continuation_is_the_target(monkeypatch):
    """Learning the target takes a few hundred steps; here the model "learns" it at the third snapshot."""
    real_generate, calls = training_progression.generate, []

    def generate(model, prompt, n_tokens):
        calls.append(1)
        return goal if len(calls) == 3 else real_generate(model, prompt, n_tokens)

    from demos.core.corpus import load
    goal = load().tokenizer.encode(TARGET_SENTENCE)[1:]
    monkeypatch.setattr(training_progression, "generate", generate)
    result = run_demo(training_progression, {"epochs": 10, "snapshot_every": 1}, device=CPU, store=ModelStore())
    assert [s["epoch"] for s in result["snapshots"]] == [0, 1, 2]
    assert result["stopped"] == "matched" and result["snapshots"][-1]["matches"] == [True] * 9
    assert "matched the target at epoch 2" in result["summary"]


def test_the_terminal_prints_the_matrix_with_row_sums_and_the_progression(capsys):
    assert terminal(["attention_matrix", "--steps", "40"]) == 0
    out = capsys.readouterr().out
    assert out.count("| Σ=1.00") == 10 and "Transformer" in out
    assert terminal(["training_progression", "--epochs", "1"]) == 0
    out = capsys.readouterr().out
    assert "Epoch   0" in out and "Epoch   1" in out and "Target: " + TARGET_SENTENCE in out
