"""The made-up tasks of the memory slides (the Amnesia Test, Index Lookup, bounded Dyck-2) and the
copy test of "using the whole context", whose right answers are known exactly.

Each memory task makes batches of token ids (B, T) that end in a question token, and the answer
to that question (B,): a classifier reads its output at the last position (the copy test is read
at every position: see `RepeatedStretch`). Batches come
from a `torch.Generator` the caller seeds, on the device they are wanted on, so the training
data and the test data are drawn from separate streams (`data_generator(seed, stream, device)`)
and training batches never wait for the host.
"""
import random
import string
from dataclasses import dataclass
from itertools import accumulate

import torch

LETTERS = string.ascii_uppercase
TRAIN, EVAL = 0, 1  # the two data streams of a seed: training batches, and fresh test strings


def data_generator(seed: int, stream: int, device: torch.device | str = "cpu") -> torch.Generator:
    """A generator on `device` for one stream of a seed; streams of any two (seed, stream) pairs differ.
    (The same seed draws different numbers on a CPU and on a GPU.)"""
    return torch.Generator(device=device).manual_seed(2 * seed + stream)


@dataclass(frozen=True)
class FirstLetter:
    """The Amnesia Test: `length` random capital letters, then "?"; the answer is the first letter."""

    length: int
    vocab_size: int = len(LETTERS) + 1  # A–Z, then the question token
    n_out: int = len(LETTERS)

    @property
    def query(self) -> int:
        return len(LETTERS)

    def sample(self, n: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        letters = torch.randint(len(LETTERS), (n, self.length), generator=generator, device=generator.device)
        question = torch.full((n, 1), self.query, device=generator.device)
        return torch.cat([letters, question], dim=1), letters[:, 0]  # (n, length + 1), (n,)

    def describe(self, row: torch.Tensor) -> str:
        """The letters of one input row, spaced as the seed deck printed them: "K N M B ..."."""
        return " ".join(LETTERS[t] for t in row[:-1].tolist())

    def label(self, answer: int) -> str:
        return LETTERS[answer]


@dataclass(frozen=True)
class IndexLookup:
    """Index Lookup (Bhattamishra et al., 2024): `length` symbols, then a token naming a position i;
    the answer is the symbol at position i. Positions have their own tokens, after the symbols."""

    length: int
    symbols: int = 10  # the alphabet: the digits 0–9
    max_length: int = 100  # position tokens in the vocabulary, so one vocabulary serves every length

    @property
    def vocab_size(self) -> int:
        return self.symbols + self.max_length

    @property
    def n_out(self) -> int:
        return self.symbols

    def sample(self, n: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        assert self.length <= self.max_length
        device = generator.device
        tokens = torch.randint(self.symbols, (n, self.length), generator=generator, device=device)  # (n, N)
        index = torch.randint(self.length, (n,), generator=generator, device=device)  # (n,): the position asked for
        question = (self.symbols + index).unsqueeze(1)  # (n, 1)
        return torch.cat([tokens, question], dim=1), tokens[torch.arange(n, device=device), index]  # (n, N + 1), (n,)

    def describe(self, row: torch.Tensor) -> str:
        """One input row as text: "3 1 4 1 5 … ? position 2"."""
        *tokens, question = row.tolist()
        return f"{' '.join(map(str, tokens))} ? position {question - self.symbols + 1}"

    def label(self, answer: int) -> str:
        return str(answer)


# ----------------------------------------------------------------------------- bounded Dyck-2

BRACKETS = "()[]"  # token ids 0 to 3; the question token comes after them
OPENING = "(["
PARTNER = {"(": ")", "[": "]", ")": "(", "]": "["}  # the same type, turned around
RETYPED = {"(": "[", "[": "(", ")": "]", "]": ")"}  # the same direction, the other type
MAX_DEPTH = 2
NEAR_MISSES = {  # how each negative is made from a balanced string: one small edit
    "retype": "one bracket changes type: ( becomes [",
    "flip": "one bracket turns around: ( becomes )",
    "swap": "two neighbouring brackets swap, so two pairs cross: ([]) becomes ([)]",
    "deepen": "a pair moves inside its neighbour, nesting 3 deep: (()[]) becomes (([]))",
}


def is_bounded_dyck(text: str, max_depth: int = MAX_DEPTH) -> bool:
    """The recogniser: a stack of the brackets still open, never more than `max_depth` of them,
    each closed by its own type; the string is in the language if the stack ends empty."""
    still_open = []
    for bracket in text:
        if bracket in OPENING:
            still_open.append(bracket)
            if len(still_open) > max_depth:
                return False
        elif not still_open or PARTNER[still_open.pop()] != bracket:
            return False
    return not still_open


def near_miss_kind(text: str) -> str | None:
    """What is wrong with `text`, read from the string alone, named as the NEAR_MISSES edit that
    causes it: None if it is in the language, "other" for a fault no near miss makes."""
    if is_bounded_dyck(text):
        return None
    depths = list(accumulate(1 if bracket in OPENING else -1 for bracket in text))  # brackets open after each
    if depths[-1] != 0:
        return "flip"  # more opening brackets than closing ones, or fewer
    if min(depths) < 0:
        return "other"  # a bracket closed before it was opened
    deepest = max(depths)
    if deepest > MAX_DEPTH:
        return "deepen" if is_bounded_dyck(text, deepest) else "other"
    if text.count("(") != text.count(")"):
        return "retype"  # balanced overall, but not type by type
    return "swap"  # balanced type by type, but two pairs cross


def balanced_brackets(pairs: int, rng: random.Random) -> list[str]:
    """A string drawn uniformly from the bounded Dyck-2 strings of `pairs` pairs.

    Every pair after the first either starts a new outer pair or sits inside the current
    one, with even odds, and each pair's type is a coin flip: each of the 2^(pairs-1)
    shapes and 2^pairs typings, so each string, is equally likely.
    """
    text, outer = [], None
    for i in range(pairs):
        bracket = rng.choice(OPENING)
        if i == 0 or rng.random() < 0.5:  # a new outer pair
            if outer is not None:
                text.append(PARTNER[outer])
            text.append(bracket)
            outer = bracket
        else:  # an empty pair inside the outer one, at depth 2
            text += [bracket, PARTNER[bracket]]
    text.append(PARTNER[outer])
    return text


def edit(kind: str, text: list[str], rng: random.Random) -> list[str] | None:
    """A copy of the balanced `text` with the near-miss edit `kind` (see NEAR_MISSES) made at a
    random place, or None if `text` has no place for that edit."""
    text = list(text)
    if kind in ("retype", "flip"):
        i = rng.randrange(len(text))
        text[i] = (RETYPED if kind == "retype" else PARTNER)[text[i]]
        return text
    if kind == "swap":  # two opening (or two closing) brackets of different types, side by side
        places = [i for i in range(len(text) - 1)
                  if text[i] != text[i + 1] and (text[i] in OPENING) == (text[i + 1] in OPENING)]
    elif kind == "deepen":  # two empty pairs side by side inside an outer one: the second goes into the first
        depths = accumulate(1 if bracket in OPENING else -1 for bracket in text)
        places = [i for i, depth in enumerate(depths)
                  if depth == MAX_DEPTH and i + 2 < len(text) and text[i + 2] in OPENING]
    else:
        raise ValueError(f"unknown near miss {kind!r}")
    if not places:
        return None
    i = rng.choice(places)
    if kind == "swap":
        text[i], text[i + 1] = text[i + 1], text[i]
    else:  # text[i:i + 4] is "()[]": make it "([])"
        text[i:i + 4] = [text[i], text[i + 2], text[i + 3], text[i + 1]]
    return text


def near_miss(kind: str, pairs: int, rng: random.Random) -> list[str]:
    """A string of `pairs` pairs not in the language, made from a balanced one by the edit `kind`."""
    while True:  # until a balanced string has a place for this edit (almost always the first)
        edited = edit(kind, balanced_brackets(pairs, rng), rng)
        if edited is not None:
            return edited


# The same definitions again, a batch at a time on the generator's device, as token ids: what training
# draws (drawn one bracket at a time in Python, the strings kept the GPU waiting). The functions above
# stay the reference; the tests check that these make the same strings, equally often.

def balanced_batch(n: int, pairs: int, generator: torch.Generator) -> torch.Tensor:
    """`n` strings drawn as `balanced_brackets` draws one, as token ids: (n, 2 * pairs).

    Pair 0 writes position 0, its opening bracket; pair i ≥ 1 writes positions 2i-1 and 2i: the
    closing bracket of the outer pair before it, then its own opening one (a new outer pair), or
    its own two brackets (inside); the last position closes the last outer pair."""
    device = generator.device
    types = torch.randint(2, (n, pairs), generator=generator, device=device)  # 0: ( ), 1: [ ]
    opening, closing = 2 * types, 2 * types + 1  # their token ids in BRACKETS
    new_outer = torch.rand(n, pairs, generator=generator, device=device) < 0.5
    new_outer[:, 0] = True
    starts = torch.where(new_outer, torch.arange(pairs, device=device), 0)
    outer = starts.cummax(dim=1).values  # (n, pairs): the outer pair each pair is in, or is
    outer_closing = closing.gather(1, outer)  # (n, pairs): the bracket that closes it
    new, before = new_outer[:, 1:], outer_closing[:, :-1]  # pairs 1 on, and the outer pair open before each
    first = torch.where(new, before, opening[:, 1:])
    second = torch.where(new, opening[:, 1:], closing[:, 1:])
    middle = torch.stack([first, second], dim=2).flatten(1)  # (n, 2 * (pairs - 1)): first, second, first, ...
    return torch.cat([opening[:, :1], middle, outer_closing[:, -1:]], dim=1)


def edit_places(kind: str, tokens: torch.Tensor) -> torch.Tensor:
    """Where `edit` may make the edit `kind` in each balanced row of `tokens` (n, L): (n, L), True at i."""
    opening = tokens % 2 == 0
    places = torch.zeros_like(opening)
    if kind in ("retype", "flip"):
        places[:] = True
    elif kind == "swap":  # two opening (or two closing) brackets of different types, side by side
        places[:, :-1] = (tokens[:, :-1] != tokens[:, 1:]) & (opening[:, :-1] == opening[:, 1:])
    elif kind == "deepen":  # an empty pair at depth 2, then another
        depths = torch.where(opening, 1, -1).cumsum(dim=1)  # brackets open after each
        places[:, :-2] = (depths[:, :-2] == MAX_DEPTH) & opening[:, 2:]
    else:
        raise ValueError(f"unknown near miss {kind!r}")
    return places


# Each edit at place i, as (order, turn): text[i:i + len(order)] becomes turn[text[i + j]] for j in order.
SAME = {b: b for b in BRACKETS}
EDITS = {"retype": ([0], RETYPED), "flip": ([0], PARTNER),
         "swap": ([1, 0], SAME), "deepen": ([0, 2, 3, 1], SAME)}  # "([" becomes "[(", "()[]" becomes "([])"


def edit_rows(kind: str, tokens: torch.Tensor, rows: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Make the edit `kind` in the balanced `rows` of `tokens`, in place, as `edit` makes it in one string:
    at a place drawn evenly from those it fits. Returns the rows it fits nowhere, left as they were."""
    device = tokens.device
    places = edit_places(kind, tokens[rows])
    count = places.sum(dim=1)
    chosen = torch.randint(2**62, (len(rows),), generator=generator, device=device) % count.clamp(min=1)
    i = (places.cumsum(dim=1) <= chosen.unsqueeze(1)).sum(dim=1)  # the chosen-th place (from 0) of each row
    fits = count > 0
    edited, i = rows[fits].unsqueeze(1), i[fits].unsqueeze(1)  # (m, 1) each
    order, turned = EDITS[kind]
    order = torch.tensor(order, device=device)
    turned = torch.tensor([BRACKETS.index(turned[b]) for b in BRACKETS], device=device)  # token id -> token id
    tokens[edited, i + torch.arange(len(order), device=device)] = turned[tokens[edited, i + order]]
    return rows[~fits]


@dataclass(frozen=True)
class BoundedDyck:
    """Bounded Dyck-2 (Bhattamishra et al., 2024): `length` brackets ( ) [ ], then "?"; the answer
    is 1 if every bracket is closed by its own type, in order, never nested more than 2 deep.
    Exactly half of each batch is in the language; the rest are near misses (NEAR_MISSES),
    each kind equally likely."""

    length: int  # even
    vocab_size: int = len(BRACKETS) + 1  # the brackets, then the question token
    n_out: int = 2  # 0: not in the language, 1: in it

    @property
    def query(self) -> int:
        return len(BRACKETS)

    def draw(self, n: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        """`n` strings as token ids (n, length), half of them in the language, in random order, and how
        each was made (n,): -1 balanced, else the near miss's index in NEAR_MISSES, each equally likely.
        A batch version of `balanced_brackets` and `near_miss`: the same strings, as often."""
        assert self.length % 2 == 0 and self.length >= 6, "nesting 3 deep needs at least three pairs"
        device, pairs = generator.device, self.length // 2
        kinds = torch.cat([torch.full((n // 2,), -1, device=device),
                           torch.randint(len(NEAR_MISSES), (n - n // 2,), generator=generator, device=device)])
        kinds = kinds[torch.randperm(n, generator=generator, device=device)]
        tokens = balanced_batch(n, pairs, generator)
        for k, kind in enumerate(NEAR_MISSES):
            rows = (kinds == k).nonzero().squeeze(1)
            while len(rows := edit_rows(kind, tokens, rows, generator)):  # as `near_miss`: a new balanced
                tokens[rows] = balanced_batch(len(rows), pairs, generator)  # string where the edit fits nowhere
        return tokens, kinds

    def strings(self, n: int, generator: torch.Generator) -> tuple[list[str], list[str | None]]:
        """`n` strings, half of them in the language, and how each other one was made (None: balanced)."""
        tokens, kinds = self.draw(n, generator)
        names = list(NEAR_MISSES)
        return (["".join(BRACKETS[t] for t in row) for row in tokens.tolist()],
                [None if k < 0 else names[k] for k in kinds.tolist()])

    def sample(self, n: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        tokens, kinds = self.draw(n, generator)
        question = torch.full((n, 1), self.query, device=generator.device)
        return torch.cat([tokens, question], dim=1), (kinds < 0).long()  # (n, length + 1), (n,)

    def describe(self, row: torch.Tensor) -> str:
        """The brackets of one input row: "([])[]…"."""
        return "".join(BRACKETS[t] for t in row[:-1].tolist())

    def label(self, answer: int) -> str:
        return "balanced" if answer else "not balanced"


# ----------------------------------------------------------------------------- the copy test


def held_out_generator(seed: int, device: torch.device | str = "cpu") -> torch.Generator:
    """A generator for validation data, which recipes are chosen on: a stream of its own. (A CPU
    generator keeps 32 bits of its seed, and `data_generator`'s streams of the seeds below 2**30 use
    the numbers below 2**31; these count down from 2**32 - 1.)"""
    return torch.Generator(device=device).manual_seed(2**32 - 1 - seed)


@dataclass(frozen=True)
class RepeatedStretch:
    """The copy test: a stretch of random symbols, repeated to fill a window of `length`; a language
    model predicts every symbol from the ones before it.

    The stretch is `period` symbols long, drawn for each sequence from `shortest` to `longest`. With
    one period (the "fixed" variant: 64 symbols, then the same 64 again) the repeat sits at a fixed
    distance, so a model can copy by looking that far back. With a range of periods (the "varying"
    variant) it must find the earlier copy by its content: match the symbols just read to where they
    were read before and predict what came next there (an induction head, Olsson et al. 2022).
    Symbols in the first stretch cannot be predicted (chance: log2(symbols) bits); every later one can.
    The model reads a start token, then the symbols: position k (from 1) is predicted from the k − 1
    symbols before it."""

    length: int = 128
    shortest: int = 64
    longest: int = 64
    symbols: int = 32

    @property
    def vocab_size(self) -> int:
        return self.symbols + 1  # the symbols, then the start token

    @property
    def n_out(self) -> int:
        return self.symbols

    @property
    def start(self) -> int:
        return self.symbols

    def sample(self, n: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(inputs, targets, predictable), each (n, length): the start token and the symbols before
        each target; the symbols; whether each symbol repeats an earlier one (can be predicted)."""
        assert 1 <= self.shortest <= self.longest < self.length
        device = generator.device
        stretch = torch.randint(self.symbols, (n, self.longest), generator=generator, device=device)  # (n, longest)
        period = torch.randint(self.shortest, self.longest + 1, (n, 1), generator=generator, device=device)  # (n, 1)
        place = torch.arange(self.length, device=device)  # (length,)
        targets = stretch.gather(1, place % period)  # (n, length): position k holds stretch[k mod period]
        start = torch.full((n, 1), self.start, device=device)
        predictable = place >= period  # (n, length): in a repeat
        return torch.cat([start, targets[:, :-1]], dim=1), targets, predictable

    def describe(self, row: torch.Tensor) -> str:
        """One sequence of symbols as letters and digits: "K3F…"."""
        return "".join(SYMBOL_NAMES[t] for t in row.tolist())


SYMBOL_NAMES = LETTERS + "0123456789"  # enough names for 36 symbols
