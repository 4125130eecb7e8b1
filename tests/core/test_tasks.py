"""The made-up tasks: their inputs and the answers they expect. The Amnesia Test asks for the first
letter; Index Lookup asks for the symbol at a named position; the copy test repeats its stretch where
it says, and marks exactly the symbols that can be predicted; bounded Dyck-2 is checked against
hand-checked strings, its balanced strings are drawn evenly, and its near misses are never in the
language and each of the kind it says; the batch sampler training uses draws the same strings, as
often, as the readable definitions it repeats. Each stream of a seed draws the same data every time."""
import itertools
import random
from collections import Counter

import pytest
import torch

from demos.core.tasks import (
    BRACKETS,
    EVAL,
    NEAR_MISSES,
    TRAIN,
    BoundedDyck,
    FirstLetter,
    IndexLookup,
    RepeatedStretch,
    balanced_batch,
    balanced_brackets,
    data_generator,
    edit,
    edit_rows,
    held_out_generator,
    is_bounded_dyck,
    near_miss,
    near_miss_kind,
)

# Checked by hand: balanced, and never more than two brackets open at once.
IN_LANGUAGE = ["", "()", "[]", "()[]", "([])", "[()]", "(())", "[[]]", "(()[])", "[()()][]", "([][])(())[]"]


NOT_IN_LANGUAGE = {
    "(": "left open",
    ")": "closed before opened",
    ")(": "closed before opened",
    "(]": "closed by the wrong type",
    "[)": "closed by the wrong type",
    "([)]": "two pairs cross",
    "(()": "left open",
    "())": "one closing too many",
    "((()))": "three deep",
    "[([])]": "three deep",
    "()[[[]]]": "three deep",
    "(()[)]": "two pairs cross",
    "([]]": "closed by the wrong type",
}


def test_the_recogniser_agrees_with_the_hand_checked_strings():
    assert all(is_bounded_dyck(text) for text in IN_LANGUAGE)
    assert not any(is_bounded_dyck(text) for text in NOT_IN_LANGUAGE)
    assert is_bounded_dyck("((()))", max_depth=3) and is_bounded_dyck("[([])]", max_depth=3)  # only too deep


@pytest.mark.parametrize("text, kind", [
    ("(]", "retype"), ("([)[", "flip"), ("(()(", "flip"), ("([)]", "swap"), ("(()[)]", "swap"),
    ("(([]))", "deepen"), (")(", "other"), ("()", None), ("((()])", "other"),
])
def test_a_near_miss_is_told_from_the_string_alone(text, kind):
    assert near_miss_kind(text) == kind


def all_strings_of(length: int) -> set[str]:
    """The language at one length, by brute force over every string of brackets."""
    return {"".join(chars) for chars in itertools.product("()[]", repeat=length) if is_bounded_dyck("".join(chars))}


def test_balanced_strings_are_drawn_evenly_from_the_whole_language():
    language = all_strings_of(6)
    assert len(language) == 32  # 4 shapes, (()()) (())() ()(()) ()()(), times 2³ typings
    rng = random.Random(0)
    counts = Counter("".join(balanced_brackets(3, rng)) for _ in range(6400))
    assert set(counts) == language  # every string of the language, and nothing else
    assert 130 < min(counts.values()) and max(counts.values()) < 270  # about 200 each


@pytest.mark.parametrize("length", [6, 20, 50, 200])
def test_the_generator_never_labels_a_string_wrongly(length):
    """Over thousands of strings, positives are in the language (by the recogniser), near misses never are,
    and each near miss shows the fault of the edit it says made it."""
    task = BoundedDyck(length)
    texts, kinds = [], []
    for seed in range(4):
        more_texts, more_kinds = task.strings(1000, data_generator(seed, TRAIN))
        texts += more_texts
        kinds += more_kinds
    assert all(len(text) == length for text in texts)
    assert kinds.count(None) == len(kinds) // 2  # balanced classes
    for text, kind in zip(texts, kinds):
        assert is_bounded_dyck(text) == (kind is None), (text, kind)
        assert near_miss_kind(text) == kind, (text, kind)
    made = Counter(kind for kind in kinds if kind is not None)
    assert set(made) == set(NEAR_MISSES) and min(made.values()) > 0.2 * sum(made.values())  # about a quarter each


@pytest.mark.parametrize("kind", NEAR_MISSES)
def test_a_near_miss_is_one_small_edit_of_a_balanced_string(kind):
    rng = random.Random(1)
    for _ in range(300):
        source = balanced_brackets(10, rng)
        edited = edit(kind, source, rng)
        if edited is None:
            continue
        changed = [i for i, (a, b) in enumerate(zip(source, edited)) if a != b]
        assert len(edited) == len(source) and 1 <= len(changed) <= (1 if kind in ("retype", "flip") else 3)
        assert max(changed) - min(changed) <= 2  # all in one place
        assert not is_bounded_dyck("".join(edited))
    assert not is_bounded_dyck("".join(near_miss(kind, 3, rng)))


def test_the_task_encodes_strings_with_a_question_at_the_end():
    inputs, targets = BoundedDyck(20).sample(64, data_generator(0, TRAIN))
    assert inputs.shape == (64, 21) and (inputs[:, -1] == 4).all() and inputs[:, :-1].max() < 4
    assert targets.sum() == 32
    for row, target in zip(inputs, targets):
        assert is_bounded_dyck(BoundedDyck(20).describe(row)) == bool(target)



def test_the_batch_sampler_labels_every_string_it_draws_rightly():
    for length in (6, 20, 50):
        task = BoundedDyck(length)
        for seed in range(2):
            inputs, targets = task.sample(2000, torch.Generator().manual_seed(seed))
            assert inputs.shape == (2000, length + 1) and (inputs[:, -1] == task.query).all()
            assert int(targets.sum()) == 1000  # exactly half balanced
            texts, kinds = task.strings(2000, torch.Generator().manual_seed(seed))  # the same strings, as text
            assert texts == [task.describe(row) for row in inputs]
            assert targets.tolist() == [int(kind is None) for kind in kinds]
            for text, kind in zip(texts, kinds):
                assert near_miss_kind(text) == kind, (text, kind)  # balanced ones: None, in the language
            again = task.sample(2000, torch.Generator().manual_seed(seed))
            assert torch.equal(again[0], inputs) and torch.equal(again[1], targets)


def test_the_batch_sampler_draws_balanced_strings_and_near_misses_as_often_as_the_definitions():
    texts, kinds = BoundedDyck(6).strings(64000, torch.Generator().manual_seed(0))
    balanced = Counter(text for text, kind in zip(texts, kinds) if kind is None)
    assert set(balanced) == all_strings_of(6)  # every string of the language, and nothing else
    assert 850 < min(balanced.values()) and max(balanced.values()) < 1150  # 32000 / 32 = 1000 each
    made = Counter(kind for kind in kinds if kind is not None)
    assert set(made) == set(NEAR_MISSES) and all(7000 < count < 9000 for count in made.values())  # 8000 each
    rng = random.Random(0)
    for kind in NEAR_MISSES:  # each near miss as often as `near_miss` makes it
        fast = Counter(text for text, k in zip(texts, kinds) if k == kind)
        reference = Counter("".join(near_miss(kind, 3, rng)) for _ in range(8000))
        assert set(fast) == set(reference)
        distance = sum(abs(fast[t] / made[kind] - reference[t] / 8000) for t in reference) / 2
        assert distance < 0.15, kind  # about 0.07 by chance for the 160 flips, as often as each other


@pytest.mark.parametrize("kind", NEAR_MISSES)
def test_the_batch_edits_are_made_at_every_place_edit_makes_them_and_nowhere_else(kind):
    sources = sorted(all_strings_of(8))
    copies = 150
    tokens = torch.tensor([[BRACKETS.index(b) for b in text] for text in sources for _ in range(copies)])
    nowhere = edit_rows(kind, tokens, torch.arange(len(tokens)), torch.Generator().manual_seed(0))
    rng = random.Random(0)
    unfit = []
    for s, source in enumerate(sources):
        edited = {"".join(BRACKETS[t] for t in row) for row in tokens[s * copies:(s + 1) * copies].tolist()}
        made = [edit(kind, list(source), rng) for _ in range(copies)]
        if made[0] is None:  # `edit` fits nowhere: the rows are handed back, unchanged
            unfit += range(s * copies, (s + 1) * copies)
            assert edited == {source}
        else:
            assert edited == {"".join(text) for text in made}, source
    assert nowhere.tolist() == unfit


def test_balanced_batches_are_in_the_language_at_every_length():
    for pairs in (1, 3, 10, 25):
        rows = balanced_batch(500, pairs, torch.Generator().manual_seed(pairs)).tolist()
        texts = ["".join(BRACKETS[t] for t in row) for row in rows]
        assert all(len(text) == 2 * pairs and is_bounded_dyck(text) for text in texts)


def test_index_lookup_asks_for_the_token_at_the_named_position():
    task = IndexLookup(12)
    inputs, targets = task.sample(200, torch.Generator().manual_seed(0))
    positions = inputs[:, -1] - task.symbols
    assert inputs.shape == (200, 13) and bool(((positions >= 0) & (positions < 12)).all())
    assert torch.equal(targets, inputs[torch.arange(200), positions])


def test_the_fixed_copy_test_is_64_random_symbols_then_the_same_64():
    task = RepeatedStretch(length=128, shortest=64, longest=64, symbols=32)
    inputs, targets, predictable = task.sample(100, data_generator(0, TRAIN))
    assert inputs.shape == targets.shape == predictable.shape == (100, 128)
    assert torch.equal(targets[:, 64:], targets[:, :64])  # the second half repeats the first
    assert (inputs[:, 0] == task.start).all()  # the model reads a start token, then the symbols before each target
    assert torch.equal(inputs[:, 1:], targets[:, :-1])
    assert not predictable[:, :64].any() and predictable[:, 64:].all()  # positions 65 to 128 can be predicted
    assert targets.max() < 32 and len(targets[:, :64].unique()) == 32  # random symbols: every one occurs
    assert (targets[:, 1:64] != targets[:, :63]).float().mean() > 0.9  # and they do not repeat each other early


def test_the_varying_copy_test_repeats_a_stretch_of_varying_length_and_marks_where():
    task = RepeatedStretch(length=128, shortest=8, longest=24)
    _, targets, predictable = task.sample(500, data_generator(1, TRAIN))
    periods = (~predictable).sum(dim=1)  # the symbols before the first repeat: the stretch
    assert periods.min() == 8 and periods.max() == 24  # every length from 8 to 24 is drawn
    assert len(periods.unique()) == 17
    for row, period, marks in zip(targets, periods.tolist(), predictable):
        assert torch.equal(row[period:], row[:128 - period])  # each symbol repeats the one `period` back
        assert not marks[:period].any() and marks[period:].all()


def test_training_validation_and_test_sequences_come_from_separate_streams():
    task = RepeatedStretch()
    draws = [task.sample(4, generator)[1] for generator in
             (data_generator(0, TRAIN), data_generator(0, EVAL), held_out_generator(0), held_out_generator(1))]
    assert all(not torch.equal(a, b) for i, a in enumerate(draws) for b in draws[i + 1:])
    assert torch.equal(task.sample(4, held_out_generator(0))[1], draws[2])  # each repeats for its seed
    # a CPU generator keeps only 32 bits of its seed: no two streams of the first 1,000 seeds share them
    seeds = [g.initial_seed() % 2**32 for s in range(1000)
             for g in (data_generator(s, TRAIN), data_generator(s, EVAL), held_out_generator(s))]
    assert len(set(seeds)) == len(seeds)


def test_the_amnesia_test_asks_for_the_first_of_its_letters():
    task = FirstLetter(10)
    inputs, targets = task.sample(300, data_generator(0, TRAIN))
    assert inputs.shape == (300, 11) and targets.shape == (300,)
    assert (inputs[:, -1] == task.query).all() and task.query == 26 == task.vocab_size - 1  # the question token
    assert inputs[:, :-1].max() < 26 and task.n_out == 26
    assert torch.equal(targets, inputs[:, 0])  # the answer is the first letter, however many follow
    assert len(inputs[:, 0].unique()) == 26 and len(inputs[:, -2].unique()) == 26  # letters drawn from all of A-Z
    assert torch.equal(task.sample(300, data_generator(0, TRAIN))[0], inputs)  # the same stream, the same letters
    row = torch.tensor([10, 13, 12, 1, 26])
    assert task.describe(row) == "K N M B" and task.label(10) == "K" and task.label(0) == "A"


def test_index_lookup_has_a_token_for_every_position_and_names_them_from_one():
    task = IndexLookup(5)
    assert task.vocab_size == 110 and task.n_out == 10  # the digits, then 100 position tokens
    assert task.describe(torch.tensor([3, 1, 4, 1, 5, 10 + 1])) == "3 1 4 1 5 ? position 2"
    assert task.label(7) == "7"
    inputs, _ = task.sample(500, data_generator(0, TRAIN))
    assert set((inputs[:, -1] - 10).tolist()) == set(range(5))  # every position is asked for, and only those
    assert set(inputs[:, :-1].flatten().tolist()) == set(range(10))  # every digit occurs, and only digits
    assert IndexLookup(100).sample(1, data_generator(0, TRAIN))[0].shape == (1, 101)  # the longest it has tokens for
    with pytest.raises(AssertionError):
        IndexLookup(101).sample(1, data_generator(0, TRAIN))  # no position token for the 101st symbol


def test_a_dyck_row_reads_back_as_its_brackets_and_its_answer_as_words():
    task = BoundedDyck(6)
    assert task.vocab_size == 5 and task.n_out == 2 and task.query == 4
    assert task.describe(torch.tensor([0, 2, 3, 1, 2, 3, 4])) == "([])[]"
    assert task.label(1) == "balanced" and task.label(0) == "not balanced"
    with pytest.raises(AssertionError, match="^nesting 3 deep needs at least three pairs$"):
        BoundedDyck(4).strings(2, data_generator(0, TRAIN))
    with pytest.raises(AssertionError):
        BoundedDyck(7).strings(2, data_generator(0, TRAIN))  # an odd length cannot be balanced


def test_the_same_stream_draws_the_same_batch_and_every_other_stream_another():
    task = BoundedDyck(12)
    first, again = task.strings(50, data_generator(3, TRAIN)), task.strings(50, data_generator(3, TRAIN))
    assert first == again
    assert task.strings(50, data_generator(3, EVAL))[0] != first[0]
    assert task.strings(50, data_generator(4, TRAIN))[0] != first[0]
    assert BoundedDyck(14).strings(50, data_generator(3, TRAIN))[0][0][:12] != first[0][0]  # apart for each length
    assert data_generator(2, TRAIN).initial_seed() != data_generator(1, EVAL).initial_seed()
    batches = {tuple(BoundedDyck(6).strings(20, data_generator(seed, TRAIN))[0]) for seed in range(300)}
    assert len(batches) == 300  # no two seeds train on the same strings


def test_the_copy_test_names_its_symbols_and_reads_a_start_token_first():
    task = RepeatedStretch(length=16, shortest=4, longest=4, symbols=36)
    assert task.vocab_size == 37 and task.n_out == 36 and task.start == 36
    assert task.describe(torch.tensor([10, 3, 5, 26, 35])) == "KDF09"
    inputs, targets, predictable = task.sample(3, data_generator(0, TRAIN))
    assert (inputs[:, 0] == 36).all() and targets.max() < 36
    varying = RepeatedStretch(length=16, shortest=2, longest=8)
    assert all(torch.equal(a, b) for a, b in zip(varying.sample(20, data_generator(5, TRAIN)),
                                                 varying.sample(20, data_generator(5, TRAIN))))  # periods too
    _, same, _ = RepeatedStretch(length=16, shortest=1, longest=1).sample(3, data_generator(0, TRAIN))
    assert (same == same[:, :1]).all()  # a stretch of one symbol: the same symbol throughout
    with pytest.raises(AssertionError):
        RepeatedStretch(length=16, shortest=5, longest=4).sample(1, data_generator(0, TRAIN))
    with pytest.raises(AssertionError):
        RepeatedStretch(length=16, shortest=4, longest=16).sample(1, data_generator(0, TRAIN))  # no room to repeat


def test_an_unknown_near_miss_is_refused():
    with pytest.raises(ValueError, match="unknown near miss"):
        edit("mirror", list("()[]"), random.Random(0))


@pytest.mark.parametrize("kind, source, every_result", [
    ("swap", "([])", {"[(])", "([)]"}),  # the two openings, or the two closings
    ("deepen", "(()()())", {"((())())", "(()(()))"}),  # the second pair into the first, or the third into the second
])
def test_each_edit_can_be_made_at_every_place_it_fits(kind, source, every_result):
    rng = random.Random(0)
    assert {"".join(edit(kind, list(source), rng)) for _ in range(100)} == every_result
