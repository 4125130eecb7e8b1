"""The corpus, the word-level tokenizer and the shared language models of the attention slides and the showdown."""
from dataclasses import replace

import pytest
import torch

from demos.core import corpus
from demos.core.corpus import TARGET_SENTENCE, load
from demos.core.models import build_model, count_parameters
from demos.core.tokenizer import UNK, Tokenizer
from demos.runtime.storage import ModelStore, using_store
from demos.runtime.versions import dependency_files
from demos.shared.language_models import (
    SHARED,
    fit,
    generate,
    held_out_loss,
    language_model,
    model_config,
    new_model,
    token_losses,
    window_starts,
    windows,
)

CPU = torch.device("cpu")
TINY = replace(SHARED, steps=20)


# ----------------------------------------------------------------------------- corpus


def test_the_corpus_is_several_thousand_words_of_abstracts_with_the_target_sentence():
    train, held_out = corpus.split()
    words = sum(len(text.split()) for text in corpus.abstracts())
    assert words >= 4000
    assert len(set(corpus.abstracts())) == len(corpus.abstracts()), "no abstract is written twice"
    assert sum(TARGET_SENTENCE in text for text in train) >= 3, "the progression has the target to learn"
    assert held_out and not set(held_out) & set(train)
    assert len(held_out) == len(corpus.abstracts()) // corpus.HELD_OUT_EVERY


def test_editing_the_corpus_changes_the_code_version_of_the_models():
    assert corpus.PATH.resolve() in dependency_files("demos.shared.language_models")
    assert corpus.PATH.resolve() in dependency_files("demos.attention_matrix")


def test_sentence_starts_are_where_sentences_begin():
    data = load()
    tokens = [data.tokenizer.vocab[i] for i in data.train_ids.tolist()]
    starts = data.train_starts.tolist()
    assert starts[0] == 0
    assert all(tokens[s - 1] in (".", "!", "?") for s in starts[1:])
    assert len(starts) == sum(token in (".", "!", "?") for token in tokens[:-1]) + 1


# ----------------------------------------------------------------------------- tokenizer


def test_the_tokenizer_round_trips_every_abstract_without_unknown_tokens():
    tokenizer = load().tokenizer
    for text in corpus.abstracts():
        ids = tokenizer.encode(text)
        assert tokenizer.unk_id not in ids
        assert tokenizer.decode(ids) == text


def test_words_and_punctuation_are_tokens():
    tokenizer = load().tokenizer
    assert tokenizer.tokenize(TARGET_SENTENCE) == ["We", "propose", "a", "new", "simple", "network", "architecture",
                                                   ",", "the", "Transformer"]
    assert tokenizer.tokenize("long-range (LSTM) models; 12 steps.") == ["long-range", "(", "LSTM", ")", "models",
                                                                         ";", "12", "steps", "."]
    text = "the model (an LSTM) works, mostly."
    assert tokenizer.decode(tokenizer.encode(text)) == text


def test_unknown_words_become_unk_and_case_falls_back_to_a_known_form():
    tokenizer = load().tokenizer
    ids = tokenizer.encode("We propose a flibbertigibbet transformer")
    assert ids[3] == tokenizer.unk_id and tokenizer.vocab[tokenizer.unk_id] == UNK
    assert tokenizer.vocab[ids[4]] == "Transformer"
    assert tokenizer.decode(ids) == "We propose a <unk> Transformer"


def test_the_vocabulary_is_ordered_by_frequency_and_the_same_every_time():
    text = "b a b c ."
    assert Tokenizer.from_text(text).vocab == [UNK, "b", ".", "a", "c"]
    assert Tokenizer.from_text(text).vocab == Tokenizer.from_text(text).vocab


# ----------------------------------------------------------------------------- models


def test_the_lstm_has_about_as_many_parameters_as_the_transformer():
    vocab = len(load().tokenizer)
    transformer = count_parameters(build_model(model_config(SHARED, vocab)))
    lstm_cfg = model_config(replace(SHARED, kind="lstm"), vocab)
    lstm = count_parameters(build_model(lstm_cfg))
    assert lstm_cfg.kind == "lstm" and lstm_cfg.n_layers == SHARED.n_layers
    assert abs(lstm - transformer) / transformer < 0.02
    cfg = model_config(SHARED, vocab)
    assert (cfg.kind, cfg.n_layers, cfg.width, cfg.n_heads, cfg.causal) == ("transformer", 2, 64, 4, True)


def test_training_windows_begin_at_sentence_starts():
    data = load()
    starts = window_starts(data.train_ids, data.train_starts, SHARED.context)
    inputs, targets = windows(data.train_ids, starts[:5], SHARED.context)
    assert inputs.shape == targets.shape == (5, SHARED.context)
    assert torch.equal(inputs[:, 1:], targets[:, :-1]), "each target is the next input"
    assert (starts + SHARED.context < len(data.train_ids)).all()


@pytest.mark.parametrize("kind", ["transformer", "lstm"])
def test_a_few_steps_of_training_lower_the_loss_and_report_held_out_perplexity(kind):
    settings = replace(TINY, kind=kind)
    model = new_model(settings, CPU)
    before = held_out_loss(model, settings.context, CPU)
    info = fit(model, settings, CPU)
    assert info["kind"] == kind and info["steps"] == 20
    assert info["loss_curve"][-1][1] < info["loss_curve"][0][1]
    assert info["held_out_loss"] < before
    assert info["held_out_perplexity"] == pytest.approx(torch.tensor(info["held_out_loss"]).exp().item(), rel=1e-6)
    assert info["held_out_curve"][0] == [0, before] and info["held_out_curve"][-1] == [20, info["held_out_loss"]]


def test_token_losses_give_one_loss_per_position_of_every_window():
    data = load()
    model = new_model(TINY, CPU)
    losses = token_losses(model, data.held_out_ids, data.held_out_starts, TINY.context, CPU)
    assert losses.shape == (len(window_starts(data.held_out_ids, data.held_out_starts, TINY.context)), TINY.context)
    assert torch.isfinite(losses).all()


def test_the_shared_model_is_trained_once_and_reused_with_the_same_weights():
    with using_store(ModelStore()):
        first, info, trained = language_model(TINY, CPU)
        again, info_again, trained_again = language_model(TINY, CPU)
        other, _, trained_other = language_model(replace(TINY, seed=1), CPU)
    assert trained and not trained_again and again is first and info_again == info
    assert trained_other
    assert not torch.equal(first.embed.weight, other.embed.weight)


def test_generation_is_greedy_or_seeded_sampling():
    tokenizer = load().tokenizer
    model = new_model(TINY, CPU).eval()
    prompt = tokenizer.encode("We propose")
    greedy = generate(model, prompt, 6)
    assert greedy == generate(model, prompt, 6) and len(greedy) == 6
    sampled = [generate(model, prompt, 6, temperature=1.0, generator=torch.Generator().manual_seed(seed))
               for seed in (1, 1, 2)]
    assert sampled[0] == sampled[1] != sampled[2]
    assert not model.training
