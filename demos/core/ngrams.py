"""Counting baselines for a language model: the next character predicted from counts alone.

An n-gram model looks at the n - 1 characters before the next one and predicts it from how often
each character followed those characters in the training text. Most histories of four characters
were seen rarely or never, so each order is mixed with the one below it (interpolated Witten-Bell
smoothing, Witten and Bell 1991):

    P_n(w | h) = (c(h, w) + b·N(h)·P_{n-1}(w | h')) / (c(h) + b·N(h))

where c counts in the training text, N(h) is how many different characters followed h, h' is h
without its oldest character, and P_0 is uniform. A history never seen leaves the order below
unchanged, so the probabilities over the alphabet always sum to one. The weight b of each order
is chosen on the validation text; the score is on the test text: the same splits, and the same
rules, as the neural models get.

A history stays inside its document: before a document's first character stand newlines (the
text between documents is blank).

Scores are in bits per character: -log2 of the probability given to each actual next character,
averaged. Lower is better; a model that guessed uniformly among 96 characters would score 6.58.
"""
import math
from dataclasses import dataclass

import torch

PAD = 0  # the id that stands before a document's first character: the newline (first in the alphabet)
BLEND_GRID = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)  # candidate weights b of each order
NAMES = {1: "unigram", 2: "bigram", 3: "trigram", 4: "4-gram", 5: "5-gram"}


@dataclass(frozen=True)
class Text:
    """One split: its character ids (documents end to end), where each document starts, and which
    positions are scored (None: every one)."""
    ids: torch.Tensor  # (n,)
    starts: torch.Tensor  # (documents,)
    targets: torch.Tensor | None = None  # (scored,) positions into `ids`

    def positions(self) -> torch.Tensor:
        return torch.arange(len(self.ids)) if self.targets is None else self.targets

    def histories(self, length: int) -> torch.Tensor:
        """The `length` characters before each scored position, oldest first, with PAD before its
        document's start: (scored, length)."""
        positions = self.positions()
        document_start = self.starts[torch.searchsorted(self.starts, positions, right=True) - 1]
        before = positions[:, None] - torch.arange(length, 0, -1)  # (scored, length)
        return torch.where(before >= document_start[:, None], self.ids[before.clamp(min=0)], torch.tensor(PAD))


def codes(chars: torch.Tensor, vocab: int) -> torch.Tensor:
    """Each row of characters as one number (base `vocab`; 96**5 still fits in 64 bits): (rows,)."""
    code = torch.zeros(len(chars), dtype=torch.long)
    for column in chars.T:
        code = code * vocab + column
    return code


def lookup(keys: torch.Tensor, values: torch.Tensor, wanted: torch.Tensor) -> torch.Tensor:
    """values[i] where keys[i] == wanted (keys sorted), 0 where `wanted` is not among the keys."""
    if len(keys) == 0:
        return torch.zeros(len(wanted), dtype=values.dtype)
    at = torch.searchsorted(keys, wanted).clamp(max=len(keys) - 1)
    return torch.where(keys[at] == wanted, values[at], torch.zeros((), dtype=values.dtype))


@dataclass
class OrderCounts:
    """The counts of one order n: every n-gram seen, every history of n - 1 characters seen, how
    often, and how many different characters followed it. Sorted codes, for lookups."""
    grams: torch.Tensor
    gram_counts: torch.Tensor
    histories: torch.Tensor
    history_counts: torch.Tensor
    followers: torch.Tensor

    @classmethod
    def of(cls, train: Text, order: int, vocab: int) -> "OrderCounts":
        history = codes(train.histories(order - 1), vocab)  # (n,)
        grams, gram_counts = torch.unique(history * vocab + train.ids[train.positions()], return_counts=True)
        histories, history_counts = torch.unique(history, return_counts=True)
        _, followers = torch.unique(grams // vocab, return_counts=True)  # distinct n-grams per history
        return cls(grams, gram_counts.double(), histories, history_counts.double(), followers.double())


class WittenBell:
    """An interpolated Witten-Bell model of every order up to `order`, counted on the training text."""

    def __init__(self, train: Text, order: int, vocab: int):
        self.order, self.vocab = order, vocab
        self.counts = [OrderCounts.of(train, n, vocab) for n in range(1, order + 1)]
        self.blend = [1.0] * order  # b of each order, chosen on the validation text by `fit`

    def probabilities(self, history: torch.Tensor, targets: torch.Tensor, order: int | None = None) -> torch.Tensor:
        """P(target | history) under the model of `order` (default: the highest): history (n, order - 1)
        oldest first (longer is cut from the left), targets (n,): (n,)."""
        return self.each_order(history, targets)[(order or self.order) - 1]

    def each_order(self, history: torch.Tensor, targets: torch.Tensor) -> list[torch.Tensor]:
        """P(target | history) under the model of every order, 1 to `order`: a list of (n,)."""
        probability, found = torch.full((len(targets),), 1 / self.vocab, dtype=torch.float64), []
        for n in range(1, self.order + 1):
            probability = mix(*self.seen(n, history, targets), probability, self.blend[n - 1])
            found.append(probability)
        return found

    def seen(self, n: int, history: torch.Tensor, targets: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """For order n, from its last n - 1 characters of history: how often each history was seen,
        how many different characters followed it, and how often the target did: three (n,)."""
        counts = self.counts[n - 1]
        history_code = codes(history[:, history.shape[1] - (n - 1):], self.vocab)
        return (lookup(counts.histories, counts.history_counts, history_code),
                lookup(counts.histories, counts.followers, history_code),
                lookup(counts.grams, counts.gram_counts, history_code * self.vocab + targets))

    def fit(self, validation: Text) -> None:
        """Each order's weight b, lowest order first, the one of BLEND_GRID that gives the validation
        text the fewest bits (with the lower orders' weights already chosen)."""
        history, targets = validation.histories(self.order - 1), validation.ids[validation.positions()]
        lower = torch.full((len(targets),), 1 / self.vocab, dtype=torch.float64)
        for n in range(1, self.order + 1):
            counts = self.seen(n, history, targets)
            self.blend[n - 1] = min(BLEND_GRID, key=lambda b: mean_bits(mix(*counts, lower, b)))
            lower = mix(*counts, lower, self.blend[n - 1])

    def bits(self, text: Text) -> list[float]:
        """Bits per character of the model of every order, 1 to `order`, on the scored positions of `text`."""
        history, targets = text.histories(self.order - 1), text.ids[text.positions()]
        return [mean_bits(probability) for probability in self.each_order(history, targets)]


def mix(seen: torch.Tensor, followers: torch.Tensor, together: torch.Tensor, lower: torch.Tensor,
        blend: float) -> torch.Tensor:
    """One order's probabilities from its counts and the order below's, `lower`; where the history
    was never seen, `lower` itself."""
    kinds = blend * followers
    return torch.where(seen > 0, (together + kinds * lower) / (seen + kinds).clamp(min=1e-12), lower)


def mean_bits(probability: torch.Tensor) -> float:
    return -probability.log2().mean().item()


def ladder(train: Text, validation: Text, test: Text, order: int, vocab: int) -> list[dict]:
    """Counting models of order 1 to `order`, counted on `train`, their weights chosen on
    `validation`, scored on `test`: [{"order", "name", "blend", "validation_bits", "test_bits"}]."""
    model = WittenBell(train, order, vocab)
    model.fit(validation)
    scores = zip(model.bits(validation), model.bits(test))
    return [{"order": n, "name": NAMES.get(n, f"{n}-gram"), "blend": model.blend[:n], "validation_bits": on_validation,
             "test_bits": on_test} for n, (on_validation, on_test) in enumerate(scores, 1)]


def uniform_bits(vocab: int) -> float:
    return math.log2(vocab)
