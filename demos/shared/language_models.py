"""The word-level language models of the attention slides and the generative showdown, trained on the shipped corpus.

One small causal Transformer (2 layers, width 64, 4 heads) and an LSTM sized to about the
same number of parameters, trained by the shared loop with the same data, steps and batch.
`language_model(settings, ...)` keeps each trained model in the engine's model store, so
every attention slide and the generation slide use the SAME weights, trained once.
"""
import math
import time
from dataclasses import asdict, dataclass, replace
from typing import Callable

import torch
import torch.nn.functional as F
from torch import nn

from demos.core.corpus import load
from demos.core.models import ModelConfig, build_model, count_parameters, matching_width
from demos.core.training import TrainConfig, language_model_loss, seed_everything, thinned, train
from demos.runtime.device import device_label
from demos.runtime.storage import current_store
from demos.shared.contenders import label

CURVE_POINTS = 100  # loss curves are thinned to about this many points
HELD_OUT_EVERY = 50  # steps between measurements of the held-out loss while training


@dataclass(frozen=True)
class LMSettings:
    """Everything that decides a trained language model; part of its key in the model store."""
    kind: str = "transformer"  # "transformer" or "lstm"
    seed: int = 0
    steps: int = 200
    context: int = 64  # tokens per training window; the Transformer has this many positions
    batch_size: int = 16
    lr: float = 3e-3
    width: int = 64  # the Transformer's width; the LSTM's is chosen to match its parameter count
    n_layers: int = 2
    n_heads: int = 4
    dropout: float = 0.1


SHARED = LMSettings()  # the model every attention slide and the generation slide share


def transformer_config(settings: LMSettings, vocab_size: int) -> ModelConfig:
    return ModelConfig(kind="transformer", vocab_size=vocab_size, n_out=vocab_size, width=settings.width,
                       n_layers=settings.n_layers, n_heads=settings.n_heads, max_len=settings.context,
                       causal=True, dropout=settings.dropout)


def model_config(settings: LMSettings, vocab_size: int) -> ModelConfig:
    """The Transformer's config, or an LSTM's with the width that best matches its parameter count."""
    transformer = transformer_config(settings, vocab_size)
    if settings.kind == "transformer":
        return transformer
    assert settings.kind == "lstm", f"unknown language model kind {settings.kind!r}"
    return matching_width(replace(transformer, kind="lstm"), count_parameters(build_model(transformer)))


def new_model(settings: LMSettings, device: torch.device) -> nn.Module:
    """A model with random weights, the same for the same seed."""
    cfg = model_config(settings, len(load().tokenizer))
    seed_everything(settings.seed)
    return build_model(cfg).to(device)


def window_starts(ids: torch.Tensor, starts: torch.Tensor, context: int) -> torch.Tensor:
    """The sentence starts that have `context` + 1 tokens after them."""
    return starts[starts + context < len(ids)]


def windows(ids: torch.Tensor, starts: torch.Tensor, context: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Windows of `context` tokens beginning at `starts`, and the token after each position.

    Windows begin at a sentence start, so position 0 of a model is always the start of a
    sentence: a sentence typed on a slide, or the prompt "We", is read as it was trained."""
    chunk = ids[starts[:, None] + torch.arange(context + 1, device=starts.device)]  # (B, context + 1)
    return chunk[:, :-1], chunk[:, 1:]


@torch.no_grad()
def token_losses(model: nn.Module, ids: torch.Tensor, starts: torch.Tensor, context: int,
                 device: torch.device) -> torch.Tensor:
    """Cross-entropy at every position of a window from every sentence start: (n_windows, context).

    Position t is predicted from the t + 1 tokens before it in its window, so the mean over
    windows is the loss as a function of how much context the model has read."""
    inputs, targets = windows(ids, window_starts(ids, starts, context), context)
    was_training = model.training
    model.eval()
    losses = cross_entropy_per_token(model, inputs, targets, device)
    model.train(was_training)
    return losses


@torch.no_grad()
def cross_entropy_per_token(model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor, device: torch.device,
                            rows_at_once: int | None = None) -> torch.Tensor:
    """The loss of each target token, (n, T), on the CPU; `rows_at_once` rows per forward pass, if
    given, keeps the logits (rows × T × vocabulary) small."""
    step = rows_at_once or len(inputs)
    losses = []
    for start in range(0, len(inputs), step):
        logits = model(inputs[start:start + step].to(device))  # (rows, T, vocab)
        target = targets[start:start + step].to(device)
        losses.append(F.cross_entropy(logits.transpose(1, 2), target, reduction="none").cpu())  # (rows, T)
    return torch.cat(losses)


def mean_loss(model: nn.Module, ids: torch.Tensor, starts: torch.Tensor, context: int, device: torch.device,
              windows_at_most: int | None = None) -> float:
    """The mean of `token_losses`, over at most `windows_at_most` windows spread evenly (the same ones each time)."""
    if windows_at_most is not None:
        usable = window_starts(ids, starts, context)
        starts = usable[torch.linspace(0, len(usable) - 1, min(windows_at_most, len(usable))).long()]
    return token_losses(model, ids, starts, context, device).mean().item()


def held_out_loss(model: nn.Module, context: int, device: torch.device) -> float:
    """The mean loss on the held-out abstracts, over a window from each of their sentence starts."""
    corpus = load()
    return mean_loss(model, corpus.held_out_ids, corpus.held_out_starts, context, device)


class WindowBatches:
    """Training windows of `context` tokens from random sentence starts, drawn on the device."""

    def __init__(self, ids: torch.Tensor, starts: torch.Tensor, context: int, batch_size: int, seed: int,
                 device: torch.device):
        self.ids, self.context, self.batch_size = ids.to(device), context, batch_size
        self.starts = window_starts(ids, starts, context).to(device)
        self.generator = torch.Generator(device=device).manual_seed(seed)

    def draw(self, steps: int) -> tuple[torch.Tensor, torch.Tensor]:
        picks = torch.randint(len(self.starts), (steps * self.batch_size,), generator=self.generator,
                              device=self.starts.device)
        inputs, targets = windows(self.ids, self.starts[picks], self.context)
        return inputs.view(steps, self.batch_size, -1), targets.view(steps, self.batch_size, -1)


def fit(model: nn.Module, settings: LMSettings, device: torch.device,
        on_report: Callable[[int, list[float]], bool | None] | None = None, report_every: int = HELD_OUT_EVERY) -> dict:
    """Train `model` on the training abstracts; return what was measured (JSON-safe)."""
    corpus = load()
    batches = WindowBatches(corpus.train_ids, corpus.train_starts, settings.context, settings.batch_size,
                            settings.seed, device)
    held_out_curve = [[0, held_out_loss(model, settings.context, device)]]

    def reported(step: int, losses: list[float]) -> bool | None:
        if step % HELD_OUT_EVERY == 0:
            held_out_curve.append([step, held_out_loss(model, settings.context, device)])
        return on_report(step, losses) if on_report is not None else None

    started = time.perf_counter()
    config = TrainConfig(steps=settings.steps, lr=settings.lr, report_every=report_every)
    losses = train(model, batches, language_model_loss, config, reported)
    seconds = time.perf_counter() - started
    held_out = held_out_loss(model, settings.context, device)
    if held_out_curve[-1][0] != len(losses):
        held_out_curve.append([len(losses), held_out])
    return {
        "kind": settings.kind,
        "parameters": count_parameters(model),
        "width": model.cfg.width,
        "vocab_size": len(corpus.tokenizer),
        "train_tokens": len(corpus.train_ids),
        "held_out_tokens": len(corpus.held_out_ids),
        "steps": len(losses),
        "loss_curve": thinned(losses, CURVE_POINTS),
        "train_loss": sum(losses[-20:]) / len(losses[-20:]),
        "held_out_loss": held_out,
        "held_out_perplexity": math.exp(held_out),
        "held_out_curve": held_out_curve,  # [step, loss]: where the model starts to memorise rather than generalise
        "train_seconds": round(seconds, 3),
        "device": device_label(device),
    }


def language_model(settings: LMSettings, device: torch.device, progress=None) -> tuple[nn.Module, dict, bool]:
    """The model trained with `settings`: kept from an earlier run, or trained now (progress streamed).

    Returns (model in eval mode, info, trained_now); info holds the held-out perplexity."""
    name = f"{label(settings.kind)} language model"

    def report(step: int, losses: list[float]) -> None:
        if progress is not None:
            progress(step / settings.steps, f"training the shared {name}: step {step}/{settings.steps}, "
                                            f"loss {losses[-1]:.2f}")

    def train_now() -> tuple[nn.Module, dict]:
        model = new_model(settings, device)
        return model, fit(model, settings, device, report)

    model, info, trained = current_store().load_or_train("language_model", asdict(settings), train_now,
                                                         code_module=__name__, device=device)
    return model.eval(), info, trained


# ----------------------------------------------------------------------------- generation


@torch.no_grad()
def next_token_probs(model: nn.Module, ids: list[int], temperature: float = 1.0) -> torch.Tensor:
    """The model's probabilities for the token after `ids` (its last `max_len` tokens): (vocab,)."""
    device = next(model.parameters()).device
    window = torch.tensor([ids[-model.cfg.max_len:]], dtype=torch.long, device=device)  # (1, T)
    logits = model(window)[0, -1]  # (vocab,)
    return F.softmax(logits / temperature, dim=-1).cpu()


@torch.no_grad()
def generate(model: nn.Module, prompt_ids: list[int], n_tokens: int, temperature: float = 0.0,
             generator: torch.Generator | None = None) -> list[int]:
    """Continue `prompt_ids` by `n_tokens` tokens: the most likely one each time when
    `temperature` is 0 (greedy), else sampled from the softmax at that temperature."""
    was_training = model.training
    model.eval()
    ids = list(prompt_ids)
    for _ in range(n_tokens):
        probs = next_token_probs(model, ids, temperature or 1.0)
        ids.append(int(probs.argmax()) if temperature == 0 else int(torch.multinomial(probs, 1, generator=generator)))
    model.train(was_training)
    return ids[len(prompt_ids):]
