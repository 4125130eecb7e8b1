"""Counting baselines: computed from the training text, mixed by weights chosen on the validation
text, scored on the test text; never typed in."""
import math

import pytest
import torch

from demos.core.ngrams import bits_per_character, order_probabilities, uniform_bits


def ids(text: str) -> torch.Tensor:
    return torch.tensor([ord(ch) - ord("a") for ch in text])


def test_a_unigram_model_scores_the_entropy_of_the_character_counts():
    train = ids("aaab" * 50)
    result = bits_per_character(train, ids("aaab" * 5), ids("aaab" * 5), 1, vocab=4)
    entropy = -(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25))
    assert result["test_bits"] == pytest.approx(entropy, abs=0.15)  # a little is kept for unseen characters


def test_a_bigram_model_learns_what_follows_what():
    train = ids("ab" * 200)
    unigram = bits_per_character(train, ids("ab" * 20), ids("ab" * 20), 1, vocab=4)["test_bits"]
    bigram = bits_per_character(train, ids("ab" * 20), ids("ab" * 20), 2, vocab=4)["test_bits"]
    assert unigram == pytest.approx(1.0, abs=0.2) and bigram < 0.2


def test_the_weights_come_from_the_validation_text_and_the_score_from_the_test_text():
    train, validation = ids("abcabcabd" * 40), ids("abcabd" * 10)
    first = bits_per_character(train, validation, ids("abc" * 20), 2, vocab=4)
    other = bits_per_character(train, validation, ids("abd" * 20), 2, vocab=4)
    assert first["weights"] == other["weights"] and first["test_bits"] != other["test_bits"]
    assert first["validation_bits"] == pytest.approx(other["validation_bits"])


def test_a_context_never_seen_in_training_gets_probability_zero_from_its_order():
    assert order_probabilities(ids("abab"), ids("cc"), 2, vocab=4).tolist() == [0.0]
    assert uniform_bits(96) == pytest.approx(6.585, abs=1e-3)
