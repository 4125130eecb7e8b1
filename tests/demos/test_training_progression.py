"""Training progression: the model learns (below the unigram on its training text and on held-out
abstracts, predicting each word from the words before it only), every snapshot streams, and training
stops once the continuation is the target."""

import pytest
import torch

from demos import training_progression
from demos.__main__ import main as terminal
from demos.core.corpus import TARGET_SENTENCE, load
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore
from tests.demos.tiny import held_out_sentences, reads_only_the_past, unigram_nats

CPU = torch.device("cpu")
TARGET_TOKENS = ["We", "propose", "a", "new", "simple", "network", "architecture", ",", "the", "Transformer"]
# After 3 epochs (84 steps), seeds 0-2: training loss 3.54-3.78 nats, held-out 5.51-5.59; the unigram
# scores 5.82 and 5.96 (add-one), a model that learned nothing ln(1,343) = 7.2 or more (7.34-7.53 seen).
EPOCHS = 3
TRAIN_MARGIN = 1.0  # nats below the unigram on the training text
HELD_OUT_MARGIN = 0.1  # nats below the unigram on the held-out abstracts


@pytest.fixture(scope="module")
def progression():
    """A run of EPOCHS epochs with a snapshot after each: its result, the partial results it streamed,
    and the model it trained."""
    reports, models = [], []
    real_new_model = training_progression.new_model

    def new_model(settings, device):
        models.append(real_new_model(settings, device))
        return models[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(training_progression, "new_model", new_model)
        result = run_demo(training_progression, {"epochs": EPOCHS, "snapshot_every": 1},
                          progress=lambda f, m, data=None: reports.append(data), device=CPU, store=ModelStore())
    [model] = models
    return result, [data for data in reports if data is not None], model


def test_every_snapshot_streams_with_the_continuation_beside_the_target(progression):
    result, streamed, _ = progression
    snapshots = result["snapshots"]
    assert [s["epoch"] for s in snapshots] == list(range(EPOCHS + 1))
    assert snapshots[0]["matched"] < len(result["target_tokens"])
    assert result["target_tokens"] == TARGET_TOKENS[1:]
    assert all(len(s["continuation"]) == len(result["target_tokens"]) for s in snapshots)
    assert all(s["matched"] == sum(s["matches"]) for s in snapshots)
    assert result["stopped"] in ("matched", "budget") and "on cpu" in result["summary"]
    assert [len(data["snapshots"]) for data in streamed] == list(range(1, EPOCHS + 2))
    assert streamed[-1]["snapshots"] == snapshots and streamed[0]["snapshots"] == snapshots[:1]
    assert len({id(data) for data in streamed}) == len(streamed), "a fresh object each time"


def test_the_model_learns_beyond_word_frequencies_on_its_text_and_on_held_out_abstracts(progression):
    result, _, _ = progression
    corpus = load()
    vocab = len(corpus.tokenizer)
    first, last = result["snapshots"][0], result["snapshots"][-1]
    assert first["loss"] > unigram_nats(corpus.train_ids, corpus.train_ids, vocab), "random weights start above it"
    assert last["loss"] < unigram_nats(corpus.train_ids, corpus.train_ids, vocab) - TRAIN_MARGIN, last["loss"]
    assert last["held_out_loss"] < unigram_nats(corpus.train_ids, corpus.held_out_ids, vocab) - HELD_OUT_MARGIN
    assert first["loss"] > last["loss"] + 1.0 and first["held_out_loss"] > last["held_out_loss"]
    assert f"the loss fell from {first['loss']:.2f} to {last['loss']:.2f}" in result["summary"]
    assert f"Held-out loss: {first['held_out_loss']:.2f} → {last['held_out_loss']:.2f}" in result["summary"]


def test_the_model_predicts_each_word_from_the_words_before_it_only(progression):
    _, _, model = progression
    assert reads_only_the_past(model, held_out_sentences(), len(load().tokenizer))


def test_the_progression_stops_once_the_continuation_is_the_target(monkeypatch):
    """Learning the target takes a few hundred steps; here the model "learns" it at the third snapshot."""
    real_generate, calls = training_progression.generate, []

    def generate(model, prompt, n_tokens):
        calls.append(1)
        return goal if len(calls) == 3 else real_generate(model, prompt, n_tokens)

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
