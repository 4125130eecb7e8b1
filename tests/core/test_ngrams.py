"""Counting baselines: computed from the training text, their weights chosen on the validation text,
scored on the test text's chosen characters; probabilities that sum to one whatever the history."""
import math

import pytest
import torch

from demos.core.ngrams import Text, WittenBell, ladder, uniform_bits
from demos.core.python_docs import load


def text(value: str, starts=(0,), targets=None) -> Text:
    return Text(torch.tensor([ord(ch) - ord("a") for ch in value]), torch.tensor(starts),
                None if targets is None else torch.tensor(targets))


def test_every_order_gives_probabilities_that_sum_to_one_for_seen_and_unseen_histories():
    model = WittenBell(text("abcabcabdabcaab", starts=(0, 6)), 3, vocab=5)
    histories = torch.tensor([[0, 1], [1, 2], [4, 4], [3, 0]])  # seen, seen, never seen, seen only as "d" then "a"
    for order in (1, 2, 3):
        for history in histories:
            every = model.probabilities(history.repeat(5, 1), torch.arange(5), order)
            assert every.sum().item() == pytest.approx(1.0) and (every > 0).all()


def test_on_the_corpus_the_five_gram_sums_to_one_after_any_history():
    corpus = load()
    model = WittenBell(Text(corpus.ids["train"], corpus.starts["train"]), 5, corpus.vocab_size)
    seen, unseen = corpus.ids["train"][100:104], torch.tensor([[95, 94, 93, 92]])  # "~}|{"
    assert model.seen(5, unseen, torch.tensor([0]))[0].item() == 0, "a history the training text never had"
    for history in (seen, unseen[0]):
        every = model.probabilities(history.repeat(corpus.vocab_size, 1), torch.arange(corpus.vocab_size))
        assert every.sum().item() == pytest.approx(1.0)


def test_a_history_stays_inside_its_document():
    two = text("abcdxyz", starts=(0, 4), targets=[1, 5])
    assert two.histories(3).tolist() == [[0, 0, 0], [0, 0, 23]]  # padded with the newline's id (0), not "bcd"


def test_a_bigram_model_learns_what_follows_what():
    train = text("ab" * 200)
    unigram, bigram = ladder(train, text("ab" * 20), text("ab" * 20), 2, vocab=4)
    assert unigram["test_bits"] == pytest.approx(1.0, abs=0.2) and bigram["test_bits"] < 0.2


def test_the_weights_come_from_the_validation_text_and_the_scores_from_the_test_characters_named():
    train, validation = text("abcabcabd" * 40), text("abcabd" * 10)
    first = ladder(train, validation, text("abcabd" * 10, targets=[2, 5]), 2, vocab=4)  # the c and the d
    other = ladder(train, validation, text("abcabd" * 10, targets=[2, 8]), 2, vocab=4)  # the c twice
    assert first[1]["blend"] == other[1]["blend"] and first[1]["validation_bits"] == other[1]["validation_bits"]
    assert first[1]["test_bits"] > other[1]["test_bits"]


def test_on_the_corpus_each_higher_order_helps_on_validation_and_the_ladder_repeats_exactly():
    corpus = load()
    train, validation = (Text(corpus.ids[s], corpus.starts[s]) for s in ("train", "validation"))
    test = Text(corpus.ids["test"], corpus.starts["test"], torch.arange(0, len(corpus.ids["test"]), 7))
    rungs = ladder(train, validation, test, 5, corpus.vocab_size)
    scores = [rung["validation_bits"] for rung in rungs]
    assert uniform_bits(corpus.vocab_size) > scores[0] and scores == sorted(scores, reverse=True)
    assert [rung["name"] for rung in rungs] == ["unigram", "bigram", "trigram", "4-gram", "5-gram"]
    assert ladder(train, validation, test, 5, corpus.vocab_size) == rungs
    assert uniform_bits(96) == pytest.approx(math.log2(96))
