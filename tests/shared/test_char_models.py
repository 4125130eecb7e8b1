"""The character models: trained on the training text only, their budget chosen on the validation
text (the best weights kept), the test text read once to score the chosen model; kept in the model
store so the two slides share them."""
import pytest
import torch

from demos.core.python_docs import decode, load
from demos.runtime.storage import ModelStore, using_store
from demos.shared import char_models
from demos.shared.char_models import BestOnValidation, CharLM, document_windows, trained_models

CPU = torch.device("cpu")
TINY = dict(steps=30, eval_every=10)


def test_training_reads_training_text_chooses_on_validation_and_scores_on_test_once(monkeypatch):
    phases, corpus = [], load()
    real_windows, real_test = char_models.document_windows, char_models.test_scores
    real_text = char_models.TextWindows.__init__

    def windows_spy(corpus_, split, *args, **kwargs):
        phases.append(("windows", split))
        return real_windows(corpus_, split, *args, **kwargs)

    def test_spy(*args, **kwargs):
        phases.append(("test", "test"))
        return real_test(*args, **kwargs)

    def text_spy(self, ids, *args, **kwargs):
        phases.append(("train on", "train" if ids is corpus.ids["train"] else "other"))
        real_text(self, ids, *args, **kwargs)

    monkeypatch.setattr(char_models, "document_windows", windows_spy)
    monkeypatch.setattr(char_models, "test_scores", test_spy)
    monkeypatch.setattr(char_models.TextWindows, "__init__", text_spy)
    with using_store(ModelStore()):
        (model, info), = trained_models([CharLM(kind="lstm", **TINY)], CPU, lambda *a, **k: None)
    first_test = phases.index(("test", "test"))
    assert ("train on", "train") in phases and ("train on", "other") not in phases
    assert ("windows", "validation") in phases[:first_test], "the budget is chosen on validation text"
    assert all(split != "test" for _, split in phases[:first_test]), "nothing reads the test text before the choice"
    assert phases.count(("test", "test")) == 1
    assert info["best_step"] in [step for step, _ in info["validation_curve"]]
    assert info["validation_bits"] == min(bits for _, bits in info["validation_curve"])
    assert 0 < info["test_bits"] < 7 and len(info["test_by_position"]) == CharLM.context


def test_the_best_weights_on_validation_are_the_ones_kept():
    corpus = load()
    validation, _ = document_windows(corpus, "validation", 128, 4)
    torch.manual_seed(0)
    model = torch.nn.Sequential()  # a stand-in: only its state is read and restored
    model.register_parameter("w", torch.nn.Parameter(torch.zeros(1)))
    scores = iter([3.0, 2.0, 2.5, 2.6, 2.7])
    rule = BestOnValidation(model, validation, CharLM(patience=3), CPU, lambda *a: None)
    char_models_token_losses = char_models.token_losses
    try:
        char_models.token_losses = lambda *a: torch.tensor([[next(scores) * 0.6931471805599453]])
        stops = []
        for step in (10, 20, 30, 40, 50):
            model.w.data.fill_(step)
            stops.append(rule(step, [1.0]))
    finally:
        char_models.token_losses = char_models_token_losses
    assert stops == [False, False, False, False, True]  # three scores without a better one
    assert rule.best_step == 20 and rule.best_state["w"].item() == 20


def test_a_model_is_trained_once_and_then_found_in_the_store(tmp_path):
    calls = []
    real = char_models.train_models

    def counting(settings, *args):
        calls.append(len(settings))
        return real(settings, *args)

    char_models.train_models = counting
    try:
        with using_store(ModelStore(tmp_path)):
            first = trained_models([CharLM(kind="transformer", **TINY)], CPU, lambda *a, **k: None)
        with using_store(ModelStore(tmp_path)):  # another process: from disk
            again = trained_models([CharLM(kind="transformer", **TINY)], CPU, lambda *a, **k: None)
    finally:
        char_models.train_models = real
    assert calls == [1]
    assert first[0][1]["test_bits"] == pytest.approx(again[0][1]["test_bits"])


def test_the_lstm_is_sized_like_the_transformer_and_windows_stay_inside_documents():
    sizes = {kind: char_models.count_parameters(char_models.build_model(char_models.model_config(
        CharLM(kind=kind), 96))) for kind in ("transformer", "lstm")}
    assert abs(sizes["lstm"] - sizes["transformer"]) / sizes["transformer"] < 0.05
    corpus = load()
    windows, documents = document_windows(corpus, "test", 128)
    starts = corpus.starts["test"].tolist() + [len(corpus.ids["test"]) + 1]
    assert windows.shape[1] == 129 and len(windows) == len(documents)
    text = corpus.texts["test"]
    first = windows[0].tolist()
    assert decode(first) == text[starts[0]:starts[0] + 129]
