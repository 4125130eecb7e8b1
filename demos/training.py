"""One training loop for every demo. It knows nothing about the model or the task:
it asks for batches, asks for a loss, steps the optimiser and reports each step."""
import random
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
from torch import nn


@dataclass
class TrainConfig:
    steps: int = 300
    lr: float = 3e-3
    weight_decay: float = 0.0
    grad_clip: float | None = 1.0  # largest gradient norm; None to leave gradients alone


def seed_everything(seed: int) -> None:
    """Make weights, data and dropout repeat exactly for the same seed (on the same device)."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)  # also seeds every CUDA device


def train(
    model: nn.Module,
    get_batch: Callable[[int], tuple],
    loss_fn: Callable[[nn.Module, tuple], torch.Tensor],
    cfg: TrainConfig,
    on_step: Callable[[int, float], bool | None] | None = None,
) -> list[float]:
    """Train `model` for `cfg.steps` steps with Adam; return the loss of every step.

    `get_batch(step)` gives the inputs for a step, `loss_fn(model, batch)` the loss on them.
    `on_step(step, loss)` is called after every step (step counts from 1) and may return
    True to stop early.
    """
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    losses = []
    model.train()
    for step in range(1, cfg.steps + 1):
        loss = loss_fn(model, get_batch(step))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if cfg.grad_clip is not None:
            nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        optimizer.step()
        losses.append(loss.item())
        if on_step is not None and on_step(step, losses[-1]):
            break
    model.eval()
    return losses


def classification_loss(model: nn.Module, batch: tuple) -> torch.Tensor:
    """Cross-entropy of the answer read at the last position (where the question is asked)."""
    inputs, targets = batch  # (B, T), (B,)
    logits = model(inputs)[:, -1, :]  # (B, n_out)
    return nn.functional.cross_entropy(logits, targets)


def language_model_loss(model: nn.Module, batch: tuple) -> torch.Tensor:
    """Cross-entropy of the next token at every position."""
    inputs, targets = batch  # (B, T), (B, T)
    logits = model(inputs)  # (B, T, vocab)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
