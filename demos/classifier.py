"""Train a model on one of the memory tasks (`demos.tasks`), then score it on examples it never saw.

Slides 3, 4 and 5 all ask the same question of different models: after this training
budget, how often does the model give the right answer to a fresh question? (Slide 2
trains its models here too, before it measures their gradients.) A model's initial weights
and its training batches depend only on the seed, so every model trained with one seed on
one task sees exactly the same batches, in the same order.
"""
import math
import time
from dataclasses import dataclass, field
from typing import Callable

import torch
from torch import nn

from demos.models import ModelConfig, build_model, count_parameters
from demos.tasks import EVAL, TRAIN, data_generator
from demos.training import TrainConfig, classification_loss, train

EVAL_CHUNK = 500  # test examples per forward pass, to bound memory at long lengths
MAX_DRAWS = 20  # batches of n drawn to find n unseen test examples, before giving up
CLEAR_GAP = 0.1  # an accuracy gap a summary reports: far above the noise of 1,000 test examples (< 2 points)

TUNED_FORGET_BIAS = 1.0  # the tuned LSTM's forget gates start here (PyTorch starts them at random, near 0)
TUNED_LR = 1e-2  # and it learns at this rate; the other models at the TrainConfig default

# The contenders of slides 2 to 5, keyed as the charts colour them. "lstm-tuned" is the LSTM
# with two well-known fixes: forget gates that start out keeping what the cell holds, and
# a higher learning rate.
CONTENDERS = {
    "rnn": {"kind": "rnn", "label": "RNN"},  # tanh
    "lstm": {"kind": "lstm", "label": "LSTM"},
    "lstm-tuned": {"kind": "lstm", "label": "LSTM, tuned", "forget_bias": TUNED_FORGET_BIAS},
    "transformer": {"kind": "transformer", "label": "Transformer"},
}


def classifier_config(name: str, task, width: int) -> ModelConfig:
    """The ModelConfig of contender `name` (a key of CONTENDERS) for `task`: one layer deep."""
    spec = CONTENDERS[name]
    return ModelConfig(kind=spec["kind"], vocab_size=task.vocab_size, n_out=task.n_out, width=width,
                       n_layers=1, max_len=task.length + 1, forget_bias=spec.get("forget_bias"),
                       fast_attention=True)  # attention weights are never shown here: use the fused kernel


def row_keys(inputs: torch.Tensor) -> list[bytes]:
    """One hashable key per input row, to tell whether a test example was among the training ones."""
    return [row.tobytes() for row in inputs.to(torch.int16).cpu().numpy()]


@dataclass
class Trained:
    model: nn.Module
    losses: list[float]  # the training loss of every step
    seen: set[bytes] = field(repr=False)  # keys of every training input, see `row_keys`


def train_classifier(cfg: ModelConfig, task, train_cfg: TrainConfig, batch_size: int, seed: int,
                     device: torch.device, on_step: Callable[[int, float], None] | None = None) -> Trained:
    """Build the model `cfg` describes and train it on `task` with the shared loop."""
    torch.manual_seed(seed)  # the same initial weights for this model whatever was trained before it
    model = build_model(cfg).to(device)
    generator = data_generator(seed, TRAIN)
    seen: set[bytes] = set()

    def get_batch(step: int) -> tuple[torch.Tensor, torch.Tensor]:
        inputs, targets = task.sample(batch_size, generator)  # (B, T), (B,)
        seen.update(row_keys(inputs))
        return inputs.to(device), targets.to(device)

    losses = train(model, get_batch, classification_loss, train_cfg, on_step)
    return Trained(model, losses, seen)


@dataclass
class Scored:
    """A model trained on a task, and its answers to fresh test examples."""
    model: nn.Module
    losses: list[float]
    inputs: torch.Tensor  # (n, T): the test examples, none of them seen in training
    targets: torch.Tensor  # (n,)
    probabilities: torch.Tensor  # (n, n_out)
    accuracy: float
    parameters: int
    seconds: float  # training and testing, wall clock


def train_and_score(cfg: ModelConfig, task, train_cfg: TrainConfig, batch_size: int, seed: int,
                    device: torch.device, n_test: int,
                    on_step: Callable[[int, float], None] | None = None) -> Scored:
    """Train a classifier on `task`, then score it on `n_test` examples it never trained on."""
    started = time.perf_counter()
    trained = train_classifier(cfg, task, train_cfg, batch_size, seed, device, on_step)
    inputs, targets = fresh_examples(task, n_test, seed, trained.seen)
    probabilities = answer_probabilities(trained.model, inputs, device)
    return Scored(trained.model, trained.losses, inputs, targets, probabilities, accuracy(probabilities, targets),
                  count_parameters(trained.model), time.perf_counter() - started)


def fresh_examples(task, n: int, seed: int, seen: set[bytes] = frozenset()) -> tuple[torch.Tensor, torch.Tensor]:
    """`n` test examples from the seed's evaluation stream, leaving out any input in `seen`.

    The evaluation stream is not the training stream, but on a short task two random draws can
    still coincide (26⁵ strings of length 5), so inputs the model trained on are dropped here.
    """
    generator = data_generator(seed, EVAL)
    kept_inputs, kept_targets, count = [], [], 0
    for _ in range(MAX_DRAWS):
        inputs, targets = task.sample(n, generator)
        fresh = torch.tensor([key not in seen for key in row_keys(inputs)])
        kept_inputs.append(inputs[fresh])
        kept_targets.append(targets[fresh])
        count += int(fresh.sum())
        if count >= n:
            return torch.cat(kept_inputs)[:n], torch.cat(kept_targets)[:n]
    raise ValueError(f"found only {count} of {n} test examples unseen in training: the task has too few distinct inputs")


@torch.no_grad()
def answer_probabilities(model: nn.Module, inputs: torch.Tensor, device: torch.device) -> torch.Tensor:
    """The model's probability of every answer, read at the last position: (n, n_out), rows sum to 1."""
    model.eval()
    chunks = [model(chunk.to(device))[:, -1, :].softmax(dim=-1).cpu() for chunk in inputs.split(EVAL_CHUNK)]
    return torch.cat(chunks)


def accuracy(probabilities: torch.Tensor, targets: torch.Tensor) -> float:
    """The fraction of examples whose most probable answer is the right one."""
    return (probabilities.argmax(dim=-1) == targets).float().mean().item()


def near_chance(accuracy: float, chance: float, n: int) -> bool:
    """Whether `accuracy` on `n` test examples is within three standard errors of guessing."""
    return accuracy <= chance + 3 * math.sqrt(chance * (1 - chance) / n)


class LossCurve:
    """An `on_step` callback for the training loop: keeps about `points` [step, loss] pairs,
    and calls `report(step, loss)` each time it keeps one (to send progress)."""

    def __init__(self, steps: int, report: Callable[[int, float], None] | None = None, points: int = 100):
        self.steps = steps
        self.every = max(1, steps // points)
        self.report = report
        self.points: list[list[float]] = []

    def __call__(self, step: int, loss: float) -> None:
        if step % self.every == 0 or step == self.steps:
            self.points.append([step, loss])
            if self.report is not None:
                self.report(step, loss)
