"""The text the language models learn from: short abstracts in the style of machine-learning
papers, written for this project and shipped in the package (`data/corpus.txt`, one abstract
a line). Nothing is downloaded.

Every tenth abstract is held out: the models never train on it, so their loss on it
(perplexity) says how well they predict text they have not seen.
"""
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import torch

from demos.core.tokenizer import Tokenizer

DATA_FILES = ("data/corpus.txt",)  # part of the code version: editing the text retrains the models
PATH = Path(__file__).resolve().parent / DATA_FILES[0]
TARGET_SENTENCE = "We propose a new simple network architecture, the Transformer"  # the attention slides and training progression use it
HELD_OUT_EVERY = 10  # the 10th, 20th, ... abstract is held out
SENTENCE_ENDS = (".", "!", "?")


@dataclass(frozen=True)
class Corpus:
    tokenizer: Tokenizer
    train_ids: torch.Tensor  # (N,) token ids of the training abstracts, one after another
    held_out_ids: torch.Tensor  # (M,) the same for the held-out abstracts
    train_starts: torch.Tensor  # where each sentence of train_ids begins
    held_out_starts: torch.Tensor
    train_words: int
    held_out_words: int


@cache
def abstracts() -> tuple[str, ...]:
    return tuple(line for line in PATH.read_text(encoding="utf-8").splitlines() if line.strip())


def split() -> tuple[list[str], list[str]]:
    """(training abstracts, held-out abstracts)."""
    train, held_out = [], []
    for i, abstract in enumerate(abstracts()):
        (held_out if (i + 1) % HELD_OUT_EVERY == 0 else train).append(abstract)
    return train, held_out


@cache
def load() -> Corpus:
    """The corpus, tokenized. The vocabulary covers every token of the corpus (held-out words too),
    so the text decodes back to itself exactly; words typed by a user may still be unknown."""
    train, held_out = split()
    tokenizer = Tokenizer.from_text("\n".join(abstracts()))

    def ids(texts: list[str]) -> torch.Tensor:
        return torch.tensor([i for text in texts for i in tokenizer.encode(text)], dtype=torch.long)

    def starts(texts: list[str]) -> torch.Tensor:
        tokens = [token for text in texts for token in tokenizer.tokenize(text)]
        return torch.tensor([i for i in range(len(tokens)) if i == 0 or tokens[i - 1] in SENTENCE_ENDS])

    return Corpus(tokenizer, ids(train), ids(held_out), starts(train), starts(held_out),
                  train_words=sum(len(text.split()) for text in train),
                  held_out_words=sum(len(text.split()) for text in held_out))
