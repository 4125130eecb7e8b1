"""One sentence through the shared Transformer language model, with its attention recorded:
the tokens, and for every layer and head the queries, keys, values, scores and weights.
The attention web, Q/K/V and the attention matrix each show a part of it.

The sentence is checked when the parameters are validated (before anything trains), so a
bad one is answered with a message naming the field: empty, too many tokens, markup, or
no word the model knows.
"""
import re
from dataclasses import asdict, dataclass, replace

import torch

from demos.core.corpus import TARGET_SENTENCE, load
from demos.core.models import count_parameters
from demos.runtime.params import Param, ParamError, seed_param
from demos.runtime.storage import current_store
from demos.shared import language_models
from demos.shared.language_models import SHARED, language_model, new_model

MAX_CHARS = 160
MAX_TOKENS = 16  # what a row of tokens, and a heatmap, can show legibly on a slide
MARKUP = re.compile(r"<\s*/?\s*[A-Za-z!?][^>]*>|&#?\w+;")  # a tag or a character entity


def unknown_label(word: str) -> str:
    return f"⟨unk: {word}⟩"


def check_sentence(text: str, name: str = "sentence") -> list[str]:
    """The sentence's tokens, or ParamError(name, why it cannot be analysed); `name`: the field it was typed in."""
    if markup := MARKUP.search(text):
        raise ParamError(name, f"must be plain words, not markup such as {markup.group(0)}")
    tokenizer = load().tokenizer
    tokens = tokenizer.tokenize(text)
    if not tokens:
        raise ParamError(name, "is empty: type a sentence to analyse")
    if len(tokens) > MAX_TOKENS:
        raise ParamError(name, f"has {len(tokens)} tokens (words and punctuation marks); "
                               f"at most {MAX_TOKENS} fit on the slide")
    if all(tokenizer.token_id(token) == tokenizer.unk_id or not token[0].isalnum() for token in tokens):
        raise ParamError(name, f"has no word the model knows: its vocabulary is the {len(tokenizer) - 1:,} "
                               "tokens of the paper abstracts it was trained on; "
                               f"try one like {TARGET_SENTENCE!r}")
    return tokens


def encode_sentence(text: str, name: str = "sentence") -> tuple[list[str], list[int], list[str], list[bool]]:
    """The checked sentence as (words as typed, token ids, tokens as shown, which are unknown);
    a word the vocabulary lacks is shown as ⟨unk: word⟩, never dropped."""
    words = check_sentence(text, name)
    tokenizer = load().tokenizer
    ids = [tokenizer.token_id(word) for word in words]
    unknown = [i == tokenizer.unk_id for i in ids]
    tokens = [unknown_label(word) if unk else tokenizer.vocab[i] for word, i, unk in zip(words, ids, unknown)]
    return words, ids, tokens, unknown


class SentenceParam(Param):
    """A text parameter that must also be a sentence the model can read (see `check_sentence`)."""

    def check(self, value):
        value = super().check(value)
        check_sentence(value, self.name)
        return value


def sentence_param() -> Param:
    return SentenceParam("sentence", "str", TARGET_SENTENCE,
                         f"A sentence for the model to read (at most {MAX_TOKENS} words and marks; "
                         "unknown words become ⟨unk⟩)",
                         max=MAX_CHARS, toolbar=True)


def model_params() -> list[Param]:
    """Which layer and head to show, and which model: how long it trained (0: random weights) and its seed."""
    return [
        Param("layer", "int", 1, "Which Transformer layer's attention to show", 1, SHARED.n_layers),
        Param("head", "int", 1, "Which attention head of that layer", 1, SHARED.n_heads),
        Param("steps", "int", SHARED.steps, f"Training steps of the language model ({SHARED.steps}: the model "
              "every slide shares; 0: random, untrained weights)", 0, 2 * SHARED.steps),
        seed_param(),
    ]


@dataclass
class SentenceTrace:
    words: list[str]  # the tokens as typed
    tokens: list[str]  # as shown: the vocabulary's form, or ⟨unk: word⟩
    unknown: list[bool]
    heads: list[list[dict]]  # [layer][head] → q, k, v (T, d_k), scores, weights (T, T), out (T, d_k); tensors
    model: dict  # what the model is: trained or not, its parameters, held-out perplexity, ...

    @property
    def unknown_words(self) -> list[str]:
        return [word for word, unknown in zip(self.words, self.unknown) if unknown]


def shared_model(params: dict, progress, device: torch.device):
    """The language model trained for `params["steps"]` with `params["seed"]` (kept from an earlier run,
    or trained now), or with 0 steps its random initial weights; returns (model, what it is)."""
    settings = replace(SHARED, seed=params["seed"], steps=params["steps"])
    if settings.steps == 0:
        model = new_model(settings, device).eval()
        return model, {"trained": False, "seed": settings.seed, "steps": 0, "parameters": count_parameters(model)}
    model, info, trained_now = language_model(settings, device, progress)
    brief = {key: info[key] for key in ("parameters", "steps", "train_loss", "held_out_loss", "held_out_perplexity",
                                        "train_seconds", "device", "vocab_size", "train_tokens")}
    return model, {"trained": True, "seed": settings.seed, "trained_now": trained_now, **brief}


def model_kept(params: dict) -> bool:
    """Whether the model `params` ask for needs no training now: kept from an earlier run, or untrained."""
    settings = replace(SHARED, seed=params["seed"], steps=params["steps"])
    return settings.steps == 0 or current_store().has("language_model", asdict(settings), language_models.__name__)


def work(params: dict) -> float:
    """A run's cost, in units of the server's speed test (engine/calibration.py); the factor was measured at the defaults
    (`python -m benchmarks.eta --fit`): the shared model's training steps, unless it
    is kept (then only reading the sentence)."""
    return 0.1 + (0 if model_kept(params) else 0.141 * params["steps"])


def trace_sentence(params: dict, progress, device: torch.device) -> SentenceTrace:
    """Read `params["sentence"]` with the model and keep every layer's and head's attention."""
    words, ids, tokens, unknown = encode_sentence(params["sentence"])  # checked again: a run from Python skips no check
    model, about = shared_model(params, progress, device)
    progress(1.0, "reading the sentence")
    model.trace_attention(True)
    try:
        with torch.no_grad():
            model(torch.tensor([ids], device=device))
        traces = [block.attn.trace for block in model.blocks]
    finally:
        model.trace_attention(False)
    heads = [[{name: trace[name][0, h].cpu() for name in ("q", "k", "v", "scores", "weights", "out")}
              for h in range(model.cfg.n_heads)] for trace in traces]
    return SentenceTrace(words, tokens, unknown, heads, about)


def rows(matrix: torch.Tensor) -> list[list[float | None]]:
    """A matrix as JSON rows; masked (−inf) cells become null."""
    return [[x if x != float("-inf") else None for x in row] for row in matrix.tolist()]


def unknown_note(trace: SentenceTrace) -> str:
    return unknown_words_note(trace.unknown_words)


def unknown_words_note(words: list[str]) -> str:
    """A sentence for the summary naming the words read as ⟨unk⟩ (empty when there are none)."""
    if not words:
        return ""
    many = len(words) > 1
    return (f" {len(words)} word{'s' if many else ''} not in the vocabulary {'were' if many else 'was'} "
            f"read as ⟨unk⟩: {', '.join(words)}.")


def model_note(trace: SentenceTrace) -> str:
    about = trace.model
    if not about["trained"]:
        return f"untrained: random weights, seed {about['seed']}"
    return f"trained {about['steps']} steps, seed {about['seed']}"
