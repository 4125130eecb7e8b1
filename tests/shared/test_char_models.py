"""The character models: trained on the training text only, their recipe and budget chosen on the
validation text (the best weights kept), the test text read once to score the chosen model; kept
in the model store so the two slides share them."""
import dataclasses
import functools

import pytest
import torch

from demos import generation
from demos.core.models import ModelConfig, build_model
from demos.core.python_docs import decode, load
from demos.runtime.storage import ModelStore, using_store
from demos.shared import char_models, tuning
from demos.shared.char_models import (BestOnValidation, CharLM, document_windows, pieces, recipe, target_positions,
                                      token_losses, trained_models)

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
    assert {info[key] for key in ("lr", "schedule", "window")} == set(recipe(CharLM(kind="lstm")).values())


def test_the_best_weights_on_validation_are_the_ones_kept():
    corpus = load()
    validation, _ = document_windows(corpus, "validation", 64, 4)
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
    ends = torch.tensor(starts)[documents + 1] - 1  # where each window's document ends (its separator)
    assert bool((target_positions(corpus, "test", 128).view(-1, 128)[:, -1] < ends).all())


class WithoutTest(dict):
    """A split -> data dict that fails the moment anything asks for the test split."""

    def __getitem__(self, split):
        assert split != "test", "the test text was read"
        return super().__getitem__(split)


def test_the_recipe_study_scores_on_validation_text_and_never_reads_the_test_text(monkeypatch):
    corpus = load()
    blind = dataclasses.replace(corpus, ids=WithoutTest(corpus.ids), starts=WithoutTest(corpus.starts),
                                texts=WithoutTest(corpus.texts))
    monkeypatch.setattr(char_models, "load", lambda: blind)
    monkeypatch.setattr(generation, "CharLM", functools.partial(CharLM, steps=20, eval_every=10))
    study = generation.tuning()
    score = study.score("lstm", study.candidates["lstm"][0], 0, CPU)
    assert 0 < score < 7
    with pytest.raises(AssertionError, match="test text was read"):
        char_models.test_scores(None, 64, CPU)  # the guard itself works


def test_every_family_tries_the_same_grid_and_trains_with_what_was_chosen():
    study = generation.tuning()
    assert study.candidates["transformer"] == study.candidates["lstm"]
    assert {c["lr"] for c in study.candidates["lstm"]} == set(tuning.LR_GRID)
    for kind in ("transformer", "lstm"):
        chosen = tuning.chosen("generation", kind)
        assert chosen in study.candidates[kind] and recipe(CharLM(kind=kind)) == chosen
        assert recipe(CharLM(kind=kind, lr=1e-4, schedule="cosine", window=32)) == {
            "lr": 1e-4, "schedule": "cosine", "window": 32}


def test_every_recipe_reads_the_same_characters_per_step():
    corpus = load()
    for window in generation.WINDOWS:
        batches = char_models.training_windows(CharLM(window=window, lr=1e-3, schedule="cosine"), corpus.ids["train"], CPU)
        inputs, _ = batches.draw(2)
        assert inputs.shape[2] == window and inputs.shape[1] * window == CharLM.batch_size * CharLM.context


def test_a_transformer_shorter_than_the_window_predicts_every_target_once_from_enough_text():
    for context, reach in ((64, 64), (64, 32), (128, 32), (64, 20)):
        found = pieces(context, reach)
        kept = [i for start, end, keep in found for i in range(end - keep, end)]
        assert kept == list(range(context)), (context, reach)
        assert all(end - start <= reach for start, end, _ in found)
        assert all(i - start >= reach // 2 - 1 or start == 0 for start, end, keep in found for i in range(end - keep, end))
    torch.manual_seed(0)
    model = build_model(ModelConfig(kind="transformer", vocab_size=96, n_out=96, width=16, n_layers=1, n_heads=2,
                                    max_len=32, causal=True))
    windows = torch.randint(96, (3, 65))
    losses = token_losses(model, windows, CPU)
    alone = token_losses(model, windows[:, :33], CPU)  # the first piece: the same as a window of 32
    assert losses.shape == (3, 64) and torch.allclose(losses[:, :32], alone)


def test_the_test_characters_are_the_targets_of_the_test_windows():
    corpus = load()
    windows, _ = document_windows(corpus, "test", 64)
    positions = target_positions(corpus, "test", 64)
    assert torch.equal(corpus.ids["test"][positions], windows[:, 1:].reshape(-1))


def test_a_new_choice_of_recipes_is_a_new_cache_key_for_both_slides():
    from demos.runtime.versions import PACKAGE_DIR, dependency_files
    for demo in ("demos.generation", "demos.context_scaling"):
        assert PACKAGE_DIR / "shared/tuned/generation.json" in dependency_files(demo)
