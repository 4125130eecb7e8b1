"""Counting baselines for a language model: the next character predicted from counts alone.

A unigram model knows how often each character occurs; an n-gram model also looks at the n - 1
characters before it. Their probabilities are counts from the training text, mixed with the
lower orders (interpolation, Jelinek and Mercer 1980) so that a pair never seen in training still
gets some probability. The mixing weights are chosen on the validation text; the score is on
the test text: the same splits, and the same rules, as the neural models get.

Scores are in bits per character: -log2 of the probability given to each actual next character,
averaged. Lower is better; a model that guessed uniformly among 96 characters would score 6.58.
"""
import math
from itertools import product

import torch

WEIGHT_GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def order_probabilities(train: torch.Tensor, text: torch.Tensor, order: int, vocab: int) -> torch.Tensor:
    """For each position of `text` from `order - 1` on, the training text's relative frequency of its
    character after the `order - 1` characters before it (0 where that context never occurred)."""
    def codes(ids: torch.Tensor) -> torch.Tensor:  # each window of `order` characters as one number
        code = torch.zeros(len(ids) - order + 1, dtype=torch.long)
        for i in range(order):
            code = code * vocab + ids[i:len(ids) - order + 1 + i]
        return code

    counts = torch.bincount(codes(train), minlength=vocab ** order).double()
    context_counts = counts.view(-1, vocab).sum(dim=1)  # how often each context occurred
    wanted = codes(text)
    seen = context_counts[wanted // vocab]
    return torch.where(seen > 0, counts[wanted] / seen.clamp(min=1), torch.zeros_like(seen))


def mixed_bits(orders: list[torch.Tensor], weights: tuple[float, ...], vocab: int) -> float:
    """Bits per character of the mixture: weight w_k on order k (highest first), the rest uniform."""
    probability = torch.full_like(orders[0], (1 - sum(weights)) / vocab)
    for weight, p in zip(weights, orders):
        probability += weight * p
    return -probability.log2().mean().item()


def aligned(train: torch.Tensor, text: torch.Tensor, order: int, vocab: int) -> list[torch.Tensor]:
    """Each order's probabilities, from `order` down to 1, for the same positions of `text`."""
    return [order_probabilities(train, text, k, vocab)[order - k:] for k in range(order, 0, -1)]


def fit(train: torch.Tensor, validation: torch.Tensor, order: int, vocab: int) -> tuple[float, ...]:
    """The mixing weights (order n first, down to 1) that give the validation text the fewest bits."""
    orders = aligned(train, validation, order, vocab)
    best = None
    for weights in product(WEIGHT_GRID, repeat=order):
        if sum(weights) < 1:
            bits = mixed_bits(orders, weights, vocab)
            if best is None or bits < best[0]:
                best = (bits, weights)
    return best[1]


def bits_per_character(train: torch.Tensor, validation: torch.Tensor, test: torch.Tensor, order: int,
                       vocab: int) -> dict:
    """An n-gram model of `order` fitted on `train`, its mixing weights chosen on `validation`,
    scored on `test`: {"order", "weights", "validation_bits", "test_bits"}."""
    weights = fit(train, validation, order, vocab)

    def score(text: torch.Tensor) -> float:
        return mixed_bits(aligned(train, text, order, vocab), weights, vocab)

    return {"order": order, "weights": list(weights), "validation_bits": score(validation), "test_bits": score(test)}


def uniform_bits(vocab: int) -> float:
    return math.log2(vocab)
