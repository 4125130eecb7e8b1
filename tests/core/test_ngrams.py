"""Counting baselines: computed from the training text, their weights chosen on the validation text,
scored on the test text's chosen characters; probabilities that sum to one whatever the history, and
that are the Witten-Bell formula worked by hand."""
import math

import pytest
import torch

from demos.core.ngrams import BLEND_GRID, Text, WittenBell, codes, ladder, lookup, uniform_bits
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


def ids(value: str) -> Text:
    """A one-document text over "\\n" (id 0, also what stands before the document) and a, b, c (1 to 3)."""
    return Text(torch.tensor(["\nabc".index(ch) for ch in value]), torch.tensor([0]))


def test_the_probabilities_are_the_witten_bell_formula_worked_by_hand():
    """Training text "abac": a twice, b and c once, 3 different characters; after "a": b once, c once."""
    model = WittenBell(ids("abac"), 2, vocab=4)
    a, b, c = torch.tensor([1]), torch.tensor([2]), torch.tensor([3])
    # P1(a) = (c(a) + b·N·1/V) / (n + b·N) = (2 + 1·3·¼) / (4 + 1·3)
    assert model.probabilities(torch.zeros(1, 0, dtype=torch.long), a, order=1).item() == pytest.approx(2.75 / 7)
    # P2(b | a) = (c(a, b) + b·N(a)·P1(b)) / (c(a) + b·N(a)) = (1 + 2·1.75/7) / (2 + 2)
    assert model.probabilities(a[:, None], b).item() == pytest.approx(1.5 / 4)
    # a never followed a: only the lower order's share; c was never followed by anything: the unigram as it is
    assert model.probabilities(a[:, None], a).item() == pytest.approx(2 * 2.75 / 7 / 4)
    assert model.probabilities(c[:, None], b).item() == pytest.approx(1.75 / 7)
    # b was seen once, followed by a: P2(a | b) = (1 + 1·1·P1(a)) / (1 + 1)
    assert model.probabilities(b[:, None], a).item() == pytest.approx((1 + 2.75 / 7) / 2)
    assert model.probabilities(a[:, None], b).dtype == torch.float64  # a long text's bits add up tiny probabilities
    model.blend = [1.0, 0.5]  # a smaller weight trusts the counts more
    assert model.probabilities(a[:, None], b).item() == pytest.approx((1 + 1.75 / 7) / 3)
    assert model.seen(2, a[:, None], b) == (torch.tensor([2.0]), torch.tensor([2.0]), torch.tensor([1.0]))


def test_each_orders_weight_is_the_best_of_the_grid_on_the_validation_text():
    train, validation = text("abcabdabcacbbad" * 6), text("abcabcabdacbbad" * 2)
    model = WittenBell(train, 3, vocab=4)
    model.fit(validation)
    fitted = model.bits(validation)
    assert all(b in BLEND_GRID for b in model.blend) and len(set(model.blend)) == 3  # each order its own
    assert fitted == sorted(fitted, reverse=True)  # each order helps on this text
    for n in range(3):
        for other in BLEND_GRID:
            tried = WittenBell(train, 3, vocab=4)
            tried.blend = model.blend[:n] + [other] + model.blend[n + 1:]
            assert tried.bits(validation)[n] >= fitted[n] - 1e-12


def test_the_ladder_names_each_rung_and_scores_a_perfect_guess_at_zero_bits():
    rungs = ladder(text("ab" * 30), text("ab" * 5), text("ab" * 5, targets=[3, 5, 7]), 6, vocab=2)
    assert [rung["name"] for rung in rungs] == ["unigram", "bigram", "trigram", "4-gram", "5-gram", "6-gram"]
    assert [rung["order"] for rung in rungs] == [1, 2, 3, 4, 5, 6]
    assert [len(rung["blend"]) for rung in rungs] == [1, 2, 3, 4, 5, 6]
    assert rungs[0]["test_bits"] == pytest.approx(1.0, abs=0.01)  # a and b equally often: one bit each
    assert all(0 < rung["test_bits"] < 0.3 for rung in rungs[1:])  # after a always b: almost no surprise
    assert uniform_bits(2) == 1.0 and uniform_bits(96) == pytest.approx(6.58, abs=0.01)


def test_histories_are_read_as_numbers_one_per_history_and_looked_up_exactly():
    rows = torch.tensor([[0, 0], [0, 1], [1, 0], [2, 3], [3, 3]])
    assert codes(rows, vocab=4).tolist() == [0, 1, 4, 11, 15]  # base 4, oldest character first
    keys, values = torch.tensor([1, 4, 15]), torch.tensor([10.0, 40.0, 150.0], dtype=torch.float64)
    found = lookup(keys, values, torch.tensor([4, 5, 15, 0, 16]))
    assert found.tolist() == [40.0, 0.0, 150.0, 0.0, 0.0] and found.dtype == torch.float64
    nothing = lookup(torch.tensor([], dtype=torch.long), torch.tensor([], dtype=torch.float64), torch.tensor([3, 4]))
    assert nothing.tolist() == [0.0, 0.0] and nothing.dtype == torch.float64  # nothing counted: nothing found
    whole = text("abcd")
    assert whole.positions().tolist() == [0, 1, 2, 3]
    assert whole.histories(2).tolist() == [[0, 0], [0, 0], [0, 1], [1, 2]]
    two = text("abcdxyz", starts=(0, 4))  # a document's first character has only newlines before it
    assert two.histories(2).tolist()[4:] == [[0, 0], [0, 23], [23, 24]]
