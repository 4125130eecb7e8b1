"""The contenders of the memory slides: how each is named on every slide, and the care each
family gets, the same on every slide (fair means each contender gets its family's standard care,
the same data and the same budget).

- "lstm-tuned": the LSTM with the two well-known fixes: forget gates that start out keeping what
  the cell holds (bias 1, Jozefowicz et al. 2015) and a higher learning rate (0.01);
- "lstm": the LSTM as PyTorch starts it (forget gates near 0), at the common 0.003;
- "transformer": small token and position tables (std 0.02, as GPT-2; see `demos.core.models`),
  and the usual start for a Transformer: the learning rate warms up over 200 steps to 0.001
  (at 0.003 without warm-up, Transformers on bounded Dyck-2 fell into always answering the same);
- "rnn": the tanh RNN, at 0.003.
"""
from dataclasses import replace

from demos.core.training import TrainConfig

TUNED_FORGET_BIAS = 1.0
TUNED_LR = 1e-2

LABELS = {"rnn": "RNN", "lstm": "LSTM", "lstm-tuned": "tuned LSTM", "transformer": "Transformer"}

CONTENDERS = {  # the model kind of each, and what its model starts with beyond PyTorch's defaults
    "rnn": {"kind": "rnn"},
    "lstm": {"kind": "lstm"},
    "lstm-tuned": {"kind": "lstm", "forget_bias": TUNED_FORGET_BIAS},
    "transformer": {"kind": "transformer"},
}

RECIPES = {  # how each is trained
    "rnn": TrainConfig(lr=3e-3),
    "lstm": TrainConfig(lr=3e-3),
    "lstm-tuned": TrainConfig(lr=TUNED_LR),
    "transformer": TrainConfig(lr=1e-3, warmup=200),
}

CARE = {  # the same, in words for the slides
    "rnn": "learning rate 0.003",
    "lstm": "PyTorch's start (forget gates near 0), learning rate 0.003",
    "lstm-tuned": "forget gates start at 1, learning rate 0.01",
    "transformer": "small embeddings (std 0.02, as GPT-2), learning rate warmed up over 200 steps to 0.001",
}


def label(name: str) -> str:
    """How the slides name a contender or model kind: "tuned LSTM", "Transformer"."""
    return LABELS[name]


def recipe(name: str, steps: int, **changes) -> TrainConfig:
    """Contender `name`'s training recipe for `steps` steps (at most), with any `changes`."""
    return replace(RECIPES[name], steps=steps, **changes)
