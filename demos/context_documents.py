"""Documents with long-range structure, made from the corpus, for slide 11 (using the whole context).

The corpus alone has little to gain from a token 200 positions back: it is short abstracts of
~14-token sentences. So each document here is corpus sentences (a held-out document: from the
held-out abstracts only) in which every uncommon word (outside the `COMMON` most frequent
tokens) is replaced by one of the document's own "names": a cast of 2 to `MOST_NAMES` words
drawn at random from the rest of the vocabulary for that document. The common words keep the
sentences' grammar, predictable from the tokens just before; which name comes next is
predictable only from the names the document has used so far, however far back. Documents
with small casts reveal all their names in a few sentences, those with large casts only
after a few hundred tokens, so a model that remembers keeps gaining as it reads on.

(Measured while designing this: documents that merely repeat corpus sentences teach these
small models nothing about distant tokens in a CPU budget, as they learn the 448 training
sentences by heart instead of learning to copy.)
"""
import math
from dataclasses import dataclass
from functools import cache

import torch

from demos.corpus import load
from demos.tokenizer import join

COMMON = 30  # tokens with ids 1..COMMON (the most frequent: ., the, a, of, We, and, to, ...) are kept
FEWEST_NAMES, MOST_NAMES = 2, 64  # a document's cast size, drawn log-uniformly between these


@dataclass(frozen=True)
class Documents:
    tokens: torch.Tensor  # (n, length + 1) token ids
    is_name: torch.Tensor  # (n, length + 1) bool: the token is one of the document's names
    name_seen: torch.Tensor  # (n, length + 1) bool: ... and that name appeared earlier in the document

    @property
    def inputs(self) -> torch.Tensor:
        return self.tokens[:, :-1]  # (n, length)

    @property
    def targets(self) -> torch.Tensor:
        return self.tokens[:, 1:]  # (n, length): the token after each input position

    @property
    def target_is_name(self) -> torch.Tensor:
        return self.is_name[:, 1:]

    @property
    def target_name_seen(self) -> torch.Tensor:
        return self.name_seen[:, 1:]


@cache
def sentences(split: str) -> tuple[tuple[int, ...], ...]:
    """The corpus's sentences as token ids: "train" (training abstracts) or "held_out"."""
    corpus = load()
    ids, starts = ((corpus.train_ids, corpus.train_starts) if split == "train"
                   else (corpus.held_out_ids, corpus.held_out_starts))
    bounds = starts.tolist() + [len(ids)]
    return tuple(tuple(ids[a:b].tolist()) for a, b in zip(bounds, bounds[1:]))


def cast_size(generator: torch.Generator) -> int:
    """How many names a document has: log-uniform between FEWEST_NAMES and MOST_NAMES."""
    u = torch.rand((), generator=generator).item()
    low, high = math.log(FEWEST_NAMES), math.log(MOST_NAMES + 1)
    return min(MOST_NAMES, int(math.exp(low + u * (high - low))))


def document(split: str, length: int, generator: torch.Generator) -> tuple[list[int], list[bool], list[bool]]:
    """`length` + 1 tokens: random sentences of `split` with their uncommon words replaced by
    names from the document's cast, starting at a random word of the first sentence (as a
    window cut from a longer text would); and for each token whether it is a name, and
    whether that name came up earlier in the document."""
    corpus_sentences, vocab_size = sentences(split), len(load().tokenizer)
    cast = (torch.randperm(vocab_size - COMMON - 1, generator=generator)[:cast_size(generator)] + COMMON + 1).tolist()
    tokens, is_name, skip = [], [], None
    while skip is None or len(tokens) < skip + length + 1:
        sentence = corpus_sentences[torch.randint(len(corpus_sentences), (), generator=generator).item()]
        picks = torch.randint(len(cast), (len(sentence),), generator=generator).tolist()
        tokens += [cast[pick] if token > COMMON else token for token, pick in zip(sentence, picks)]
        is_name += [token > COMMON for token in sentence]
        if skip is None:
            skip = torch.randint(len(sentence), (), generator=generator).item()
    tokens, is_name = tokens[skip:skip + length + 1], is_name[skip:skip + length + 1]
    seen, name_seen = set(), []
    for token, name in zip(tokens, is_name):
        name_seen.append(name and token in seen)
        if name:
            seen.add(token)
    return tokens, is_name, name_seen


def documents(split: str, n: int, length: int, generator: torch.Generator) -> Documents:
    """`n` documents of `length` input tokens each, with their next-token targets."""
    made = [document(split, length, generator) for _ in range(n)]
    return Documents(*(torch.tensor([part[i] for part in made]) for i in range(3)))  # each (n, length + 1)


def decode_names_marked(ids: list[int], is_name: list[bool]) -> str:
    """A document as text with its names in brackets (for the terminal and the slide's example)."""
    vocab = load().tokenizer.vocab
    return join([f"[{vocab[i]}]" if name else vocab[i] for i, name in zip(ids, is_name)])
