"""One training loop for every demo. It knows nothing about the model or the task: it takes
batches from a source, asks for a loss, steps the optimiser, and reports now and then.

Built to spend its time in the model, not around it:
- batches come from the task in chunks of many steps, drawn on the training device, so no step
  waits for the host;
- the loss stays on the device and is read every `report_every` steps (one wait each), not
  after every step;
- independent models (seeds, contenders, grid cells) train together: on a CPU side by side on
  separate cores; on a GPU each on its own stream, their steps interleaved, each step captured once
  as a CUDA graph and replayed (that machinery is in `cuda_training.py`; the step is the same).
"""
import inspect
import math
import os
import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np
import torch
from torch import nn

from demos.runtime.progress import check_stop, in_threads

@dataclass
class TrainConfig:
    steps: int = 300
    lr: float = 3e-3
    weight_decay: float = 0.0
    grad_clip: float | None = 1.0  # largest gradient norm; None to leave gradients alone
    warmup: int = 0  # steps over which the learning rate rises linearly to `lr` (the usual start for a Transformer)
    schedule: str = "constant"  # after the warm-up: "constant", "cosine" (down to 0 at `steps`) or
    #                             "cooldown" (constant, then linearly to 0 over the last `cooldown` share of `steps`)
    cooldown: float = 0.2
    report_every: int = 25  # steps between reads of the loss: each read waits for the device
    chunk: int = 100  # steps of batches drawn at once


class Batches(Protocol):
    """Where a run's training batches come from: `draw(steps)` gives the batches of that many steps
    at once, as a tuple of tensors on the training device, each shaped (steps, batch, ...)."""

    def draw(self, steps: int) -> tuple[torch.Tensor, ...]: ...


LossFn = Callable[[nn.Module, tuple], torch.Tensor]
# on_report(step, losses): called every `report_every` steps and after the last, with the loss of
# every step so far (a list of floats); return True to stop training there.
OnReport = Callable[[int, list[float]], bool | None]


@dataclass
class Run:
    """One model to train: what it learns from, its loss, its budget and who hears how it goes."""
    model: nn.Module
    batches: Batches
    loss_fn: LossFn
    cfg: TrainConfig
    on_report: OnReport | None = None
    losses: list[float] = field(default_factory=list)  # filled in by training: the loss of every step
    captured: bool = False  # whether its steps ran as a replayed CUDA graph (only ever on a GPU)


class SameBatch:
    """The whole data set as the batch of every step (a small problem, such as fitting a line)."""

    def __init__(self, *tensors: torch.Tensor):
        self.tensors = tensors

    def draw(self, steps: int) -> tuple[torch.Tensor, ...]:
        return tuple(t.expand(steps, *t.shape) for t in self.tensors)


@contextmanager
def denormals_flushed():
    """While training on this thread, its CPU arithmetic rounds numbers below float32's normal range
    (about 1e-38) to zero; afterwards the thread computes as it did (other code, e.g. hypothesis, expects
    such numbers). An LSTM trained at a high learning rate fills its gradients with them, which a CPU
    computes several times slower: at 0.03 the CPU sweep's largest LSTM took 150 s for 250 steps, 24 s
    with this and the same validation score (2026-12-01, the 2-core CPU)."""
    was = (torch.tensor([1e-39]) * 1.0).item() == 0.0  # already flushing (a caller's own choice)
    torch.set_flush_denormal(True)
    try:
        yield
    finally:
        torch.set_flush_denormal(was)


def seed_everything(seed: int) -> None:
    """Make weights, data and dropout repeat exactly for the same seed (on the same device)."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)  # also seeds every CUDA device


# torch.optim imports torch's compiler (torch._dynamo) the first time an optimiser is made and the
# first time it steps, only to mark those calls for it: 3.4 s of CPU on the 2-core machine in every
# process that trains (a server's first run, each command, each test process), longer than the system
# check's own training. Nothing here compiles, so the optimiser below steps without that mark, and
# the methods torch marks as never to be compiled are recorded as their own compile-free versions, the
# record their first call would leave (torch/_compile.py). Were torch.compile ever used on this
# optimiser, it would trace into them. tests/core/test_training.py checks both: the compiler is not
# imported, and a step changes every weight exactly as torch's own Adam does.
_MARKED = torch._disable_dynamo(lambda: None).__code__  # the code of every method torch so marks
for _method in vars(torch.optim.Optimizer).values():
    if getattr(_method, "__code__", None) is _MARKED:
        _original = _method.__wrapped__
        setattr(_original, "__dynamo_disable", getattr(_original, "__dynamo_disable", _original))
_ADAM_STEP = inspect.unwrap(torch.optim.Adam.step)  # torch's Adam step, without its compiler mark


class Adam(torch.optim.Adam):
    """torch's Adam, the same update, stepped without importing the compiler (above)."""

    @torch.no_grad()
    def step(self, closure=None):
        return _ADAM_STEP(self, closure)


def make_optimizer(model: nn.Module, cfg: TrainConfig, lr: torch.Tensor | float | None = None,
                   capturable: bool = False) -> torch.optim.Optimizer:
    """Adam, fused: one kernel updates every parameter (a third faster than the per-tensor loop for
    these small models, measured on a CPU); `capturable` makes it safe to capture in a CUDA graph. The
    learning rate may be a tensor, changed in place by a schedule (a captured graph reads it every replay)."""
    return Adam(model.parameters(), lr=cfg.lr if lr is None else lr, weight_decay=cfg.weight_decay,
                fused=True, capturable=capturable)


SCHEDULES = ("constant", "cosine", "cooldown")


def learning_rate(cfg: TrainConfig, step: int) -> float:
    """The learning rate of step `step` (counting from 0): a linear warm-up, then the schedule's shape."""
    if cfg.warmup and step < cfg.warmup:
        return cfg.lr * (step + 1) / cfg.warmup
    if cfg.schedule == "cosine":
        done = (step - cfg.warmup) / max(1, cfg.steps - cfg.warmup)
        return cfg.lr * 0.5 * (1 + math.cos(math.pi * min(1.0, done)))
    if cfg.schedule == "cooldown":
        left = (cfg.steps - step) / max(1.0, cfg.cooldown * cfg.steps)
        return cfg.lr * min(1.0, left)
    return cfg.lr


def scheduled(cfg: TrainConfig) -> bool:
    """Whether the learning rate changes during training (then it is a tensor the schedule fills in)."""
    assert cfg.schedule in SCHEDULES, f"unknown schedule {cfg.schedule!r}; one of {SCHEDULES}"
    return bool(cfg.warmup) or cfg.schedule != "constant"


def device_of(model: nn.Module) -> torch.device:
    return next(model.parameters()).device


class Stepper:
    """Trains one Run step by step: draws its batches a chunk at a time and keeps its losses on the device."""

    def __init__(self, run: Run, capturable: bool = False):
        self.run = run
        self.device = device_of(run.model)
        self.lr = torch.tensor(learning_rate(run.cfg, 0), device=self.device) if scheduled(run.cfg) else None
        self.optimizer = make_optimizer(run.model, run.cfg, self.lr, capturable)
        self.loss_log = torch.zeros(run.cfg.steps, device=self.device)
        self.step = 0  # steps done
        self.chunk: tuple[torch.Tensor, ...] = ()
        self.chunk_start = 0
        self.finished = False

    def batch(self) -> tuple[torch.Tensor, ...]:
        """The batch of the next step, drawing a new chunk when the last one is used up."""
        offset = self.step - self.chunk_start
        if not self.chunk or offset >= len(self.chunk[0]):
            size = min(self.run.cfg.chunk, self.run.cfg.steps - self.step)
            self.chunk, self.chunk_start, offset = self.run.batches.draw(size), self.step, 0
        return tuple(part[offset] for part in self.chunk)

    def train_step(self, batch: tuple[torch.Tensor, ...]) -> torch.Tensor:
        """Forward, backward, clip, update: the step itself, the same eager or captured."""
        model, cfg = self.run.model, self.run.cfg
        loss = self.run.loss_fn(model, batch)
        loss.backward()
        if cfg.grad_clip is not None:
            nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip, foreach=True)
        self.optimizer.step()
        return loss.detach()

    def schedule(self) -> None:
        if self.lr is not None and (self.step <= self.run.cfg.warmup or self.run.cfg.schedule != "constant"):
            self.lr.fill_(learning_rate(self.run.cfg, self.step))

    def eager_step(self) -> None:
        self.schedule()
        self.optimizer.zero_grad(set_to_none=True)
        self.loss_log[self.step] = self.train_step(self.batch())
        self.step += 1

    def advance(self) -> None:
        """One step of training (`cuda_training.GraphStepper` replays a captured step instead)."""
        self.eager_step()

    @property
    def report_due(self) -> bool:
        """Whether the losses are read now: every `report_every` steps, and after the last."""
        return self.step % self.run.cfg.report_every == 0 or self.step >= self.run.cfg.steps

    def report(self) -> bool:
        """Read the losses so far (one wait for the device); True if the run is over."""
        self.run.losses = self.loss_log[:self.step].tolist()
        stop = self.run.on_report is not None and bool(self.run.on_report(self.step, self.run.losses))
        self.finished = stop or self.step >= self.run.cfg.steps
        return self.finished


def train_together(runs: list[Run], graphs: bool = True, cpu_workers: int | None = None) -> list[Run]:
    """Train every run to its budget (or until its `on_report` says stop); the models are trained in
    place, and each run's `losses` holds the loss of every step it took.

    On a CPU up to `cpu_workers` runs (default: one per core) train side by side, each on one core,
    the largest models first (so that no core is left with a large one at the end while the others idle).
    On a GPU they advance in lockstep, each on its own CUDA stream, so the GPU works on several small
    models at once, each step a replayed CUDA graph unless `graphs` is False (see `cuda_training`)."""
    if not runs:
        return runs
    for run in runs:
        run.model.train()
    if device_of(runs[0].model).type == "cuda":
        from demos.core.cuda_training import train_on_gpu  # here, not above: it builds on Stepper
        train_on_gpu(runs, graphs)
    else:
        workers = min(len(runs), cpu_workers or os.cpu_count() or 1)
        if workers == 1:
            for run in runs:
                train_eagerly(run)
        else:
            in_threads(train_eagerly, sorted(runs, key=amount_of_work, reverse=True), workers, name="train")
    for run in runs:
        run.model.eval()
    return runs


def amount_of_work(run: Run) -> int:
    """About how much training `run` is, next to runs of the same task: its parameters times its steps."""
    return sum(p.numel() for p in run.model.parameters()) * run.cfg.steps


def train_eagerly(run: Run) -> Run:
    """One run, step by step, on the device its model is on (the CPU path of `train_together`)."""
    with denormals_flushed():
        stepper = Stepper(run)
        while not stepper.finished:
            check_stop()
            stepper.advance()
            if stepper.report_due:
                stepper.report()
    return run


def train(model: nn.Module, batches: Batches, loss_fn: LossFn, cfg: TrainConfig,
          on_report: OnReport | None = None, graphs: bool = True) -> list[float]:
    """Train one model; return the loss of every step it took."""
    return train_together([Run(model, batches, loss_fn, cfg, on_report)], graphs)[0].losses


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


def in_bfloat16(loss_fn: LossFn) -> LossFn:
    """`loss_fn` with its forward pass in bfloat16 where the model is on a CUDA GPU (autocast: the matrix
    products, attention and the LSTM in bfloat16, the loss in float32; the weights, their gradients and
    Adam stay float32); elsewhere `loss_fn` itself (a CPU's LSTM has no bfloat16 kernel)."""
    def loss(model: nn.Module, batch: tuple) -> torch.Tensor:
        if device_of(model).type != "cuda":
            return loss_fn(model, batch)
        with torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=False):  # no cast cache: a CUDA graph replays it
            return loss_fn(model, batch)
    return loss


class EarlyStop:
    """An `on_report` rule: stop once the recent mean loss is below `solved`, or once it has not
    fallen by `min_gain` (a share of itself) for `patience` steps: trained to convergence, not to a
    fixed budget that may stop short of it or waste steps after it."""

    def __init__(self, patience: int | None = None, min_gain: float = 0.01, solved: float | None = None,
                 window: int = 25):
        self.patience, self.min_gain, self.solved, self.window = patience, min_gain, solved, window
        self.best, self.best_step = float("inf"), 0

    def __call__(self, step: int, losses: list[float]) -> bool:
        recent = sum(losses[-self.window:]) / len(losses[-self.window:])
        if self.solved is not None and recent < self.solved:
            return True
        if recent < self.best * (1 - self.min_gain):
            self.best, self.best_step = recent, step
        return self.patience is not None and step - self.best_step >= self.patience


def thinned(losses: list[float], points: int = 100) -> list[list[float]]:
    """About `points` [step, loss] pairs from a list of one loss per step (steps count from 1), the last included."""
    every = max(1, len(losses) // points)
    return [[step, losses[step - 1]] for step in range(1, len(losses) + 1) if step % every == 0 or step == len(losses)]
