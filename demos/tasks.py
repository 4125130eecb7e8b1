"""The made-up memory tasks of slides 2 to 5, whose right answers are known exactly.

Each task makes batches of token ids (B, T) that end in a question token, and the answer
to that question (B,): a classifier reads its output at the last position. Batches come
from a `torch.Generator` the caller seeds, so the training data and the test data can be
drawn from separate streams (`data_generator(seed, stream)`).
"""
import string
from dataclasses import dataclass

import torch

LETTERS = string.ascii_uppercase
TRAIN, EVAL = 0, 1  # the two data streams of a seed: training batches, and fresh test strings


def data_generator(seed: int, stream: int) -> torch.Generator:
    """A CPU generator for one stream of a seed; streams of any two (seed, stream) pairs differ."""
    return torch.Generator().manual_seed(2 * seed + stream)


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
        letters = torch.randint(len(LETTERS), (n, self.length), generator=generator)  # (n, length)
        question = torch.full((n, 1), self.query)
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
        tokens = torch.randint(self.symbols, (n, self.length), generator=generator)  # (n, N)
        index = torch.randint(self.length, (n,), generator=generator)  # (n,): the position asked for
        question = (self.symbols + index).unsqueeze(1)  # (n, 1)
        return torch.cat([tokens, question], dim=1), tokens[torch.arange(n), index]  # (n, N + 1), (n,)

    def describe(self, row: torch.Tensor) -> str:
        """One input row as text: "3 1 4 1 5 … ? position 2"."""
        *tokens, question = row.tolist()
        return f"{' '.join(map(str, tokens))} ? position {question - self.symbols + 1}"

    def label(self, answer: int) -> str:
        return str(answer)
