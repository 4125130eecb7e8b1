"""Train classifiers on the memory tasks (`demos.core.tasks`), then score them on examples they never saw.

The Amnesia Test, the fair fight, Index Lookup and bounded Dyck-2 all ask the same question of
different models: after this training, how often does the model give the right answer to a
fresh question? (Signal decay trains its models here too, before it measures their gradients.)

Every model is an `Entry`: a contender on a task with a seed. A model's initial weights and its
training batches depend only on its seed, so every model trained with one seed on one task sees
exactly the same batches, in the same order. All the entries of a demo train together
(`demos.core.training.train_together`): side by side on a CPU's cores, interleaved on a GPU.
"""
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import torch
from torch import nn

from demos.core.models import ModelConfig, build_model, count_parameters
from demos.core.tasks import EVAL, TRAIN, data_generator
from demos.core.training import OnReport, Run, TrainConfig, classification_loss, device_of, train_together
from demos.runtime.progress import Tally
from demos.shared.contenders import CONTENDERS

EVAL_CHUNK = 500  # test examples per forward pass, to bound memory at long lengths
MAX_DRAWS = 20  # batches of n drawn to find n unseen test examples, before giving up
N_TEST = 1000  # fresh examples each model is scored on
N_VALIDATION = 1000  # validation examples each candidate recipe is scored on (`demos.shared.tuning`)
VALIDATION_SEEDS = 10**9  # validation streams are seeded from here up: never a training or test stream


def classifier_config(name: str, task, width: int, n_layers: int = 1) -> ModelConfig:
    """The ModelConfig of contender `name` (a key of CONTENDERS) for `task`, with its family's care."""
    spec = CONTENDERS[name]
    return ModelConfig(kind=spec["kind"], vocab_size=task.vocab_size, n_out=task.n_out, width=width,
                       n_layers=n_layers, max_len=task.length + 1, forget_bias=spec.get("forget_bias"),
                       fast_attention=True)  # attention weights are never shown here: use the fused kernel


# ----------------------------------------------------------------------------- data


_MIX = torch.Generator().manual_seed(20171206)
_WEIGHTS = torch.randint(1, 2**62, (512,), generator=_MIX)  # one random multiplier per position


def fingerprints(inputs: torch.Tensor) -> torch.Tensor:
    """One 64-bit number per input row, (n,), equal for equal rows: a random linear hash, computed
    where the rows are. Two different rows share one only by a 1-in-2⁶⁴ chance, which can only drop
    a test example that was in fact unseen, never keep one that was seen."""
    weights = _WEIGHTS[:inputs.size(1)].to(inputs.device)
    return (inputs.long() * weights).sum(dim=1)  # int64 arithmetic wraps around: a hash, not a sum


class TaskBatches:
    """A task's training batches for one seed, drawn on the training device a chunk of steps at a
    time, with the fingerprint of every input drawn (see `fresh_examples`).

    Models trained on one task with one seed may share a `Draws`: the first to need a chunk draws
    it, the others read the very same tensors (less work, and the same batches by construction)."""

    def __init__(self, task, batch_size: int, seed: int, device: torch.device, shared: "Draws | None" = None):
        self.task, self.batch_size = task, batch_size
        self.generator = data_generator(seed, TRAIN, device)
        self.shared = shared
        if shared is not None and shared.generator is None:
            shared.generator = self.generator
        self.drawn: list[torch.Tensor] = []  # fingerprints of every training input, chunk by chunk

    def draw(self, steps: int) -> tuple[torch.Tensor, torch.Tensor]:
        if self.shared is None:
            return self._draw(steps, self.generator)[:2]
        inputs, targets, prints = self.shared.chunk(len(self.drawn), steps, self._draw)
        self.drawn.append(prints)
        return inputs, targets

    def _draw(self, steps: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        inputs, targets = self.task.sample(steps * self.batch_size, generator)
        prints = fingerprints(inputs)
        if self.shared is None:
            self.drawn.append(prints)
        return inputs.view(steps, self.batch_size, -1), targets.view(steps, self.batch_size), prints

    def seen(self) -> torch.Tensor:
        return torch.cat(self.drawn).cpu() if self.drawn else torch.empty(0, dtype=torch.long)


class Draws:
    """The chunks of training batches drawn so far for one (task, seed), shared by the models that
    train on them; safe to use from several threads. One generator draws them all, in order, so chunk
    i is the seed's i-th chunk whichever model asks for it first."""

    def __init__(self):
        self.chunks: list[tuple[torch.Tensor, ...]] = []
        self.lock = threading.Lock()
        self.generator: torch.Generator | None = None  # the first model's: the seed's one training stream

    def chunk(self, index: int, steps: int, draw) -> tuple[torch.Tensor, ...]:
        """Chunk `index`, drawn now (with those before it) by `draw(steps, generator)` if nobody has yet."""
        with self.lock:
            while len(self.chunks) <= index:
                self.chunks.append(draw(steps, self.generator))
            chunk = self.chunks[index]
        assert len(chunk[0]) == steps, "models sharing draws must draw chunks of the same size"
        return chunk


def fresh_examples(task, n: int, seed: int, seen: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """`n` test examples from the seed's evaluation stream (drawn on the CPU, so every device is
    tested on the same ones), leaving out any input whose fingerprint is in `seen`.

    The evaluation stream is not the training stream, but on a short task two random draws can
    still coincide (26⁵ strings of length 5), so inputs the model trained on are dropped here.
    """
    return unseen_examples(task, n, data_generator(seed, EVAL), seen)


def validation_examples(task, n: int, seed: int, seen: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """`n` validation examples for choosing a recipe (`demos.shared.tuning`): as `fresh_examples`, from
    a stream of their own, neither the training batches nor the test questions."""
    return unseen_examples(task, n, torch.Generator().manual_seed(VALIDATION_SEEDS + seed), seen)


def unseen_examples(task, n: int, generator: torch.Generator,
                    seen: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    kept_inputs, kept_targets, count = [], [], 0
    for _ in range(MAX_DRAWS):
        inputs, targets = task.sample(n, generator)
        fresh = ~torch.isin(fingerprints(inputs), seen) if seen is not None and len(seen) else torch.ones(
            len(inputs), dtype=torch.bool)
        kept_inputs.append(inputs[fresh])
        kept_targets.append(targets[fresh])
        count += int(fresh.sum())
        if count >= n:
            return torch.cat(kept_inputs)[:n], torch.cat(kept_targets)[:n]
    raise ValueError(f"found only {count} of {n} test examples unseen in training: the task has too few distinct inputs")


# ----------------------------------------------------------------------------- training and scoring


@dataclass
class Entry:
    """One model to train and score: a contender's config on a task, its budget, and its seed."""
    key: tuple  # how the demo names it, e.g. ("lstm-tuned", 20, 0): contender, length, seed
    cfg: ModelConfig
    task: object
    train_cfg: TrainConfig
    seed: int
    label: str = ""  # for progress messages
    stop: Callable[[int, list[float]], bool] | None = None  # an early-stopping rule (`EarlyStop`)
    watch: "FirstLearned | None" = None  # asked about the model at every report (see `FirstLearned`)


@dataclass
class Scored:
    """A model trained on a task, and its answers to fresh test examples."""
    key: tuple
    model: nn.Module
    losses: list[float]  # the training loss of every step it took
    inputs: torch.Tensor  # (n, T): the test examples, none of them seen in training
    targets: torch.Tensor  # (n,)
    probabilities: torch.Tensor  # (n, n_out)
    accuracy: float
    parameters: int
    seen: torch.Tensor = field(repr=False)  # fingerprints of its training inputs


def build(entry: Entry, device: torch.device) -> nn.Module:
    torch.manual_seed(entry.seed)  # the same initial weights for this model whatever was built before it
    return build_model(entry.cfg).to(device)


def train_entries(entries: list[Entry], batch_size: int, device: torch.device, progress,
                  partial: Callable[[], dict] | None = None) -> list[tuple[nn.Module, list[float], TaskBatches]]:
    """Train every entry's model, all together; progress is one bar over all their steps, a step
    weighted by its strings' length (a step at length 50 takes about five at length 10), so that
    the bar, and the time left read off it, keep pace with the clock."""
    tally = Tally(progress, {entry.key: entry.train_cfg.steps for entry in entries}, partial,
                  weights={entry.key: entry.task.length + 1 for entry in entries})
    runs, batches, shared = [], [], {}
    for entry in entries:
        draws = shared.setdefault((entry.task, entry.seed, entry.train_cfg.chunk, entry.train_cfg.steps), Draws())
        source = TaskBatches(entry.task, batch_size, entry.seed, device, draws)
        batches.append(source)
        model = build(entry, device)
        runs.append(Run(model, source, classification_loss, entry.train_cfg, on_report(entry, tally, model)))
    train_together(runs)
    return [(run.model, run.losses, source) for run, source in zip(runs, batches)]


def on_report(entry: Entry, tally: Tally, model: nn.Module) -> OnReport:
    def report(step: int, losses: list[float]) -> bool:
        if entry.watch is not None:
            entry.watch(model, step)
        stop = entry.stop is not None and entry.stop(step, losses)
        tally.update(entry.key, step, stop, f"{entry.label}: step {step}, loss {losses[-1]:.2f}")
        return stop
    return report


def train_and_score(entries: list[Entry], batch_size: int, device: torch.device, progress, n_test: int = N_TEST,
                    partial: Callable[[], dict] | None = None) -> dict[tuple, Scored]:
    """Train every entry (see `train_entries`), then score each on `n_test` examples it never trained on."""
    scored = {}
    for entry, (model, losses, source) in zip(entries, train_entries(entries, batch_size, device, progress, partial)):
        seen = source.seen()
        inputs, targets = fresh_examples(entry.task, n_test, entry.seed, seen)
        probabilities = answer_probabilities(model, inputs, device)
        scored[entry.key] = Scored(entry.key, model, losses, inputs, targets, probabilities,
                                   accuracy(probabilities, targets), count_parameters(model), seen)
    return scored


@torch.no_grad()
def answer_probabilities(model: nn.Module, inputs: torch.Tensor, device: torch.device) -> torch.Tensor:
    """The model's probability of every answer, read at the last position: (n, n_out), rows sum to 1."""
    model.eval()
    chunks = [model(chunk.to(device))[:, -1, :].float().softmax(dim=-1).cpu() for chunk in inputs.split(EVAL_CHUNK)]
    return torch.cat(chunks)


class FirstLearned:
    """An `Entry.watch`: at every report, while the model has not yet learned the task, it answers
    validation examples (never the test questions); the first step at which it is right on at least
    `share` of them is kept in `step` (None: not within the budget), and `error` is its latest error.
    The examples are drawn before training, so on a task with few distinct inputs a training batch
    may later repeat one; on bounded Dyck at length 20 and more that is rare, and alike for every model."""

    def __init__(self, task, seed: int, share: float = 0.95, n: int = 500):
        self.inputs, self.targets = validation_examples(task, n, seed)
        self.share, self.step, self.error = share, None, 1.0

    def __call__(self, model: nn.Module, step: int) -> None:
        if self.step is not None:
            return
        self.error = 1 - accuracy(answer_probabilities(model, self.inputs, device_of(model)), self.targets)
        model.train()  # back to training after answering
        if 1 - self.error >= self.share:
            self.step = step


def once_learned(watch: FirstLearned) -> Callable[[int, list[float]], bool]:
    """An `Entry.stop` rule: stop at the first report at which `watch` found that the model has learned
    (its validation share reached): every model trains exactly until it has learned, or to its budget."""
    return lambda step, losses: watch.step is not None


def validation_loss(entries: list[Entry], batch_size: int, device: torch.device, n: int = N_VALIDATION) -> float:
    """A candidate recipe's score (`demos.shared.tuning`): train every entry as the demo would (one
    per length or width the slide shows), then the mean over them of the cross-entropy on `n`
    validation examples none of them trained on. It never reads the test questions. The entries train
    one after another: `benchmarks/recipes.py` already keeps every core busy with one candidate each."""
    losses = []
    for entry in entries:
        [(model, _, source)] = train_entries([entry], batch_size, device, lambda *a, **k: None)
        inputs, targets = validation_examples(entry.task, n, entry.seed, source.seen())
        probabilities = answer_probabilities(model, inputs, device)
        losses.append(-probabilities[torch.arange(len(targets)), targets].clamp_min(1e-12).log().mean().item())
    return sum(losses) / len(losses)


def accuracy(probabilities: torch.Tensor, targets: torch.Tensor) -> float:
    """The fraction of examples whose most probable answer is the right one."""
    return (probabilities.argmax(dim=-1) == targets).float().mean().item()


def near_chance(accuracy: float, chance: float, n: int) -> bool:
    """Whether `accuracy` on `n` test examples is within three standard errors of guessing."""
    return accuracy <= chance + 3 * math.sqrt(chance * (1 - chance) / n)


def elapsed(started: float) -> float:
    return round(time.perf_counter() - started, 3)
