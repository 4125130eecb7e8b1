"""The character-level language models of the generative showdown and the context test, trained on
the Python documentation (`demos.core.python_docs`), with the same rules for both contenders.

A causal Transformer and an LSTM with about as many parameters read windows of `context`
characters from the training text and learn to predict each next character. Both get the same
batches (drawn from the seed: the same training characters, in the same order), the same most
steps, batch size and context, and their family's care (the Transformer: small embeddings, a
warmed-up learning rate; the LSTM: forget gates at 1). Each family's learning rate and schedule
were chosen on the validation text by `python -m benchmarks.recipes generation` (`recipe`). Every
`eval_every` steps each model is scored on a fixed sample of validation text; training stops when
that score has not improved for `patience` evaluations, and the model keeps the weights of its
best evaluation. So the budget is chosen on the validation text; the test text is read only to
score the chosen model, once (`test_scores`).

Trained models are kept in the engine's model store, so the two slides share them.
"""
import copy
import math
import os
import time
from dataclasses import asdict, dataclass, replace

import torch
import torch.nn.functional as F
from torch import nn

from demos.core.models import ModelConfig, build_model, count_parameters, matching_width
from demos.core.python_docs import Corpus, load
from demos.core.training import Run, TrainConfig, in_bfloat16, language_model_loss, thinned, train_together
from demos.runtime.device import precision
from demos.runtime.progress import Tally, in_threads
from demos.runtime.storage import current_store
from demos.shared import tuning
from demos.shared.contenders import label

# Windows of validation text each evaluation scores (the same ones every time, spread over the
# whole validation text): 256 x 128 characters. The score of one model on them varies by about
# 0.03 bits with the sample, but the candidates are compared on the same windows, and their paired
# difference varies by under 0.01 bits, below the differences the choice of a recipe decides.
VALIDATION_WINDOWS = 256
EVAL_ROWS = 64  # windows per forward pass when scoring
WARMUP = {"transformer": 50, "lstm": 0}  # part of each family's care, not tuned
CARE = {"transformer": f"small embeddings (std 0.02, as GPT-2), learning rate warmed up over {WARMUP['transformer']} steps",
        "lstm": "forget gates start at 1"}  # each family's care, in words (its recipe comes on top)
DATA_FILES = ("tuned/generation.json",)  # the recipes chosen on validation text: a new choice, new cache keys


@dataclass(frozen=True)
class CharLM:
    """Everything that decides a trained character model; with the corpus digest and its recipe, its key in the store."""
    kind: str = "transformer"  # "transformer" or "lstm"
    seed: int = 0
    steps: int = 700  # the most; the validation text decides where it stops (6 models fit 90 s on 2 cores with the rest of the slide)
    context: int = 64  # characters of the windows a model is scored on, and the most it reads
    batch_size: int = 16  # windows of `context` characters per step: each step reads batch_size x context characters
    width: int = 64  # the Transformer's width; the LSTM's is matched to its parameter count
    n_layers: int = 2
    n_heads: int = 4
    lstm_layers: int | None = None  # the LSTM's layers; None: as many as the Transformer's
    eval_every: int = 100
    patience: int = 3  # evaluations without improvement before stopping
    # The recipe; None: the one chosen for the family on the validation text (`recipe`)
    lr: float | None = None
    schedule: str | None = None  # "cooldown" or "cosine" (`demos.core.training.learning_rate`)
    window: int | None = None  # characters per training window (at most `context`): shorter windows, more of them
    bfloat16: bool = False  # on a GPU, the forward pass in bfloat16 (`training.in_bfloat16`); scored in float32


def recipe(settings: CharLM) -> dict:
    """The recipe `settings` trains with, {"lr", "schedule", "window"}: its own where it names one,
    else its family's, chosen on the validation text (`demos/shared/tuned/generation.json`)."""
    own = {"lr": settings.lr, "schedule": settings.schedule, "window": settings.window}
    if None not in own.values():
        return own
    chosen = tuning.chosen("generation", settings.kind)
    return {key: chosen[key] if value is None else value for key, value in own.items()}


def train_config(settings: CharLM) -> TrainConfig:
    chosen = recipe(settings)
    return TrainConfig(lr=chosen["lr"], schedule=chosen["schedule"], warmup=WARMUP[settings.kind],
                       steps=settings.steps, report_every=settings.eval_every)


def model_config(settings: CharLM, vocab_size: int) -> ModelConfig:
    """The Transformer's config (with as many positions as its training window), or the LSTM (forget
    gates at 1) with the width that best matches its parameters."""
    window = recipe(settings)["window"] if settings.kind == "transformer" else settings.context
    transformer = ModelConfig(kind="transformer", vocab_size=vocab_size, n_out=vocab_size, width=settings.width,
                              n_layers=settings.n_layers, n_heads=settings.n_heads, max_len=window,
                              causal=True, fast_attention=True)
    if settings.kind == "transformer":
        return transformer
    lstm = replace(transformer, kind="lstm", forget_bias=1.0, n_layers=settings.lstm_layers or settings.n_layers)
    return matching_width(lstm, count_parameters(build_model(transformer)))


def training_windows(settings: CharLM, ids: torch.Tensor, device: torch.device) -> "TextWindows":
    """The training batches of `settings`: windows of its recipe's length, as many per step as make
    batch_size x context characters, so every recipe reads the same number of characters."""
    window = recipe(settings)["window"]
    return TextWindows(ids, window, settings.batch_size * settings.context // window, settings.seed, device)


class TextWindows:
    """Training windows of `context` + 1 characters at random places in the training text, drawn on the device."""

    def __init__(self, ids: torch.Tensor, context: int, batch_size: int, seed: int, device: torch.device):
        self.ids, self.context, self.batch_size = ids.to(device), context, batch_size
        self.generator = torch.Generator(device=device).manual_seed(seed)

    def draw(self, steps: int) -> tuple[torch.Tensor, torch.Tensor]:
        starts = torch.randint(len(self.ids) - self.context - 1, (steps * self.batch_size,), generator=self.generator,
                               device=self.ids.device)
        chunk = self.ids[starts[:, None] + torch.arange(self.context + 1, device=self.ids.device)]
        return (chunk[:, :-1].reshape(steps, self.batch_size, -1), chunk[:, 1:].reshape(steps, self.batch_size, -1))


def window_starts(corpus: Corpus, split: str, context: int, most: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Where the windows of `document_windows` start in the split's text, and their documents: (n,), (n,)."""
    starts = corpus.starts[split].tolist() + [len(corpus.ids[split]) + 1]
    windows, documents = [], []
    for number, (start, end) in enumerate(zip(starts, starts[1:])):
        for offset in range(start, end - 1 - (context + 1) + 1, context + 1):
            windows.append(offset)
            documents.append(number)
    windows, documents = torch.tensor(windows), torch.tensor(documents)
    if most is not None and len(windows) > most:
        spread = torch.linspace(0, len(windows) - 1, most).long()
        windows, documents = windows[spread], documents[spread]
    return windows, documents


def document_windows(corpus: Corpus, split: str, context: int, most: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Non-overlapping windows of `context` + 1 characters that lie inside one document each, in text
    order, and the document each came from: ((n, context + 1) ids, (n,) document numbers). A window
    starts at a document's start or where the last one ended, so position T of a window is T
    characters into real text of one document. With `most`, that many, spread evenly."""
    starts, documents = window_starts(corpus, split, context, most)
    return corpus.ids[split][starts[:, None] + torch.arange(context + 1)], documents


def target_positions(corpus: Corpus, split: str, context: int, most: int | None = None) -> torch.Tensor:
    """Where in the split's text the characters the models are scored on sit: every window's
    characters after its first, the targets of `token_losses`, in the same order: (n * context,)."""
    starts, _ = window_starts(corpus, split, context, most)
    return (starts[:, None] + 1 + torch.arange(context)).reshape(-1)


@torch.no_grad()
def token_losses(model: nn.Module, windows: torch.Tensor, device: torch.device) -> torch.Tensor:
    """The cross-entropy (nats) of every next character of every window: (n, context). A Transformer
    with fewer positions than the window reads it in overlapping pieces (`pieces`)."""
    was_training = model.training
    model.eval()
    context = windows.shape[1] - 1
    reach = model.cfg.max_len if model.cfg.kind == "transformer" else context
    losses = []
    for rows in windows.split(EVAL_ROWS):
        rows = rows.to(device)
        logits = torch.cat([model(rows[:, start:end])[:, -keep:] for start, end, keep in pieces(context, reach)],
                           dim=1).float()  # (rows, context, vocab)
        losses.append(F.cross_entropy(logits.transpose(1, 2), rows[:, 1:], reduction="none").cpu())
    model.train(was_training)
    return torch.cat(losses)


def pieces(context: int, reach: int) -> list[tuple[int, int, int]]:
    """How a model that reads at most `reach` characters predicts all `context` targets of a window:
    (start, end, keep) for each input piece window[start:end], whose last `keep` predictions are
    used. Each piece after the first moves on by half the reach, so every character is predicted
    from at least half the reach of text before it (or all of the window's, near its start)."""
    if reach >= context:
        return [(0, context, context)]
    step = reach // 2
    found = [(0, reach, reach)]
    for end in range(reach + step, context + step, step):
        end = min(end, context)
        found.append((end - reach, end, end - found[-1][1]))
    return found


def position_bins(context: int) -> list[list[int]]:
    """Positions 1..context in bins that double: [1, 1], [2, 3], [4, 7], ..., the last running to
    `context` (a last position left alone joins the bin before it: [256, 512], not [512, 512])."""
    bins, first = [], 1
    while first <= context:
        bins.append([first, min(2 * first - 1, context)])
        first *= 2
    if len(bins) > 1 and bins[-1][0] == bins[-1][1]:
        bins[-2:] = [[bins[-2][0], context]]
    return bins


def stops_gaining(starts: list[int], losses: torch.Tensor) -> int:
    """The first of `starts` from which no later one's loss is lower by more than two standard errors
    (paired over the columns of `losses`, shaped (len(starts), samples)); the last if each one gains."""
    def gains(earlier: torch.Tensor, later: torch.Tensor) -> bool:
        gain = earlier - later
        return bool(gain.mean() > 2 * gain.std() / math.sqrt(len(gain)))

    for i, start in enumerate(starts):
        if not any(gains(losses[i], later) for later in losses[i + 1:]):
            return start
    return starts[-1]


def bits(nats: float) -> float:
    return nats / math.log(2)


def context_spans(context: int) -> dict[str, list[int]]:
    """Positions (first, last; counted from 1) of the early, middle and late stretches of the context."""
    return {"early": [1, max(1, context // 32)], "mid": [context // 8 + 1, context // 4],
            "late": [3 * context // 4 + 1, context]}


def span_mean(losses: torch.Tensor, span: list[int]) -> torch.Tensor:
    """Each window's mean loss over positions span[0]..span[1]: (windows,)."""
    return losses[:, span[0] - 1:span[1]].mean(dim=1)


class BestOnValidation:
    """An `on_report` rule: score the model on the validation windows every `eval_every` steps, keep
    the best weights, stop after `patience` scores without a better one."""

    def __init__(self, model: nn.Module, validation: torch.Tensor, settings: CharLM, device: torch.device, report):
        self.model, self.validation, self.settings, self.device, self.report = model, validation, settings, device, report
        self.curve: list[list[float]] = []  # [step, validation bits per character]
        self.best_bits, self.best_step, self.best_state = float("inf"), 0, None
        self.seconds = 0.0  # spent scoring and keeping weights (the scores are read back, so the GPU has finished)
        self.called_at: list[tuple[int, float]] = []  # (step, the clock): how fast the steps between scores went

    def __call__(self, step: int, losses: list[float]) -> bool:
        started = time.perf_counter()
        self.called_at.append((step, started))
        try:
            return self.evaluate(step)
        finally:
            self.seconds += time.perf_counter() - started

    def evaluate(self, step: int) -> bool:
        score = bits(token_losses(self.model, self.validation, self.device).mean().item())
        self.curve.append([step, score])
        if score < self.best_bits:
            self.best_bits, self.best_step = score, step
            self.best_state = copy.deepcopy(self.model.state_dict())
        stalled = len(self.curve) - 1 - max(i for i, (s, _) in enumerate(self.curve) if s == self.best_step)
        stop = stalled >= self.settings.patience
        self.report(step, stop, f"{label(self.settings.kind)}, seed {self.settings.seed}: step {step}, "
                                f"validation {score:.2f} bits per character")
        return stop


def fit_models(settings: list[CharLM], device: torch.device, progress) -> list[tuple[nn.Module, dict]]:
    """Train every model together on the training text, each keeping the weights of its best score on
    the validation text; the test text is not read."""
    corpus = load()
    validation, _ = document_windows(corpus, "validation", settings[0].context, VALIDATION_WINDOWS)
    tally = Tally(progress, {s: s.steps for s in settings})
    runs, rules = [], []
    for s in settings:
        torch.manual_seed(s.seed)
        model = build_model(model_config(s, corpus.vocab_size)).to(device)
        rule = BestOnValidation(model, validation, s, device, lambda step, stop, message, s=s: tally.update(
            s, step, stop, message))
        runs.append(Run(model, training_windows(s, corpus.ids["train"], device),
                        in_bfloat16(language_model_loss) if s.bfloat16 else language_model_loss, train_config(s), rule))
        rules.append(rule)
    started = time.perf_counter()
    train_together(runs)
    seconds = time.perf_counter() - started
    fitted = []
    for s, run, rule in zip(settings, runs, rules):
        if rule.best_state is not None:
            run.model.load_state_dict(rule.best_state)  # the weights of the best validation score
        fitted.append((run.model.eval(), {
            "kind": s.kind, "seed": s.seed, "width": run.model.cfg.width, "parameters": count_parameters(run.model),
            "non_embedding": count_parameters(run.model, non_embedding=True),
            "steps_taken": len(run.losses), "best_step": rule.best_step, "validation_bits": rule.best_bits,
            "validation_curve": rule.curve, "loss_curve": thinned(run.losses, 60),
            "train_seconds": round(seconds, 3),
            "seconds": {"validation": round(rule.seconds, 3),  # and when each score began, from the start of training
                        "scored_at": [[step, round(at - started, 3)] for step, at in rule.called_at]},
            "care": CARE[s.kind], "precision": trained_in(s, device),
            **recipe(s), "warmup": run.cfg.warmup, "corpus": corpus.digest}))
    return fitted


def trained_in(settings: CharLM, device: torch.device) -> str:
    """The precision of a model's training: "bfloat16" (its forward pass, on a GPU), else the device's float32 ("tf32" on a recent GPU)."""
    return "bfloat16" if settings.bfloat16 and device.type == "cuda" else precision(device)


def train_models(settings: list[CharLM], device: torch.device, progress) -> list[tuple[nn.Module, dict]]:
    """Train every model together (the steps each takes are chosen on the validation text), then
    score each on the test text, once."""
    fitted = fit_models(settings, device, progress)
    started = time.perf_counter()
    tests = each_in_parallel(lambda pair: test_scores(pair[0], settings[0].context, device), fitted, device)
    for _, info in fitted:
        info["seconds"]["test, all models"] = round(time.perf_counter() - started, 3)
    for (_, info), s, test in zip(fitted, settings, tests):
        bins = position_bins(s.context)
        binned = torch.stack([span_mean(test["losses"], span) for span in bins]) / math.log(2)
        info.update({  # scored once, on the test text, after the budget was chosen on the validation text
            "test_bits": test["bits"], "test_by_position": [bits(x) for x in test["losses"].mean(dim=0).tolist()],
            "test_bins": binned.mean(dim=1).tolist(),  # bits in each of `position_bins`
            "stops_gaining": stops_gaining([first for first, _ in bins], binned),
            "test_spans": {span: [round(bits(x), 5) for x in span_mean(test["losses"], window).tolist()]
                           for span, window in context_spans(s.context).items()}})
    return fitted


def each_in_parallel(work, items: list, device: torch.device) -> list:
    """`work(item)` for every item: on a CPU side by side on its cores (each thread sees the run's
    stop request), on a GPU one after another."""
    if device.type != "cpu" or len(items) < 2:
        return [work(item) for item in items]
    return in_threads(work, items, os.cpu_count() or 1, name="score")


def trained_models(settings: list[CharLM], device: torch.device, progress) -> list[tuple[nn.Module, dict]]:
    """The models for `settings`, from the model store where they are kept, the rest trained now (together)."""
    store = current_store()
    found = {s: store.find("char_lm", store_key(s), __name__, device) for s in settings}
    missing = [s for s in settings if found[s] is None]
    if missing:
        for s, (model, info) in zip(missing, train_models(missing, device, progress)):
            store.keep("char_lm", store_key(s), __name__, model, info)
            found[s] = (model, info)
    return [found[s] for s in settings]


def untrained(settings: list[CharLM]) -> list[CharLM]:
    """Those of `settings` whose model is not kept: `trained_models` would train them now."""
    store = current_store()
    return [s for s in settings if not store.has("char_lm", store_key(s), __name__)]


def store_key(settings: CharLM) -> dict:
    """A model's key in the store: its settings, the recipe it trains with (a new choice is a new
    model) and the corpus."""
    return {**asdict(settings), **recipe(settings), "warmup": WARMUP[settings.kind], "corpus": load().digest}


def test_scores(model: nn.Module, context: int, device: torch.device) -> dict:
    """The chosen model on the test text, once: bits per character overall and at each position."""
    windows, documents = document_windows(load(), "test", context)
    losses = token_losses(model, windows, device)  # (n, context) nats
    return {"losses": losses, "documents": documents, "bits": bits(losses.mean().item())}
