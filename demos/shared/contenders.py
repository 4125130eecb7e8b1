"""The contenders of the memory slides: how each is named on every slide, the outcomes a contest
between them can have, and the care each family gets, the same on every slide (fair means each contender gets its family's standard care,
the same data and the same budget).

The learning rate is not family care: each contender's rate is chosen on validation data, slide by
slide, from the one grid (`demos.shared.tuning`), and the slide names the rate it got.

- "lstm-tuned": the LSTM with its forget gates starting out keeping what the cell holds (bias 1,
  Jozefowicz et al. 2015);
- "lstm": the LSTM as PyTorch starts it (forget gates near 0);
- "transformer": small token and position tables (std 0.02, as GPT-2; see `demos.core.models`),
  and the usual start for a Transformer: its learning rate warms up over the first tenth of the
  steps (a fixed part of each of its candidates, not something the grid tries);
- "rnn": the tanh RNN.
"""
from demos.core.training import TrainConfig
from demos.shared.tuning import rate_text

TUNED_FORGET_BIAS = 1.0
WARMUP_SHARE = 0.1  # the Transformer's learning rate rises linearly over this share of its steps

LABELS = {"rnn": "RNN", "lstm": "LSTM", "lstm-tuned": "tuned LSTM", "transformer": "Transformer"}

# Who won a contest, in the one vocabulary of the demos' headlines, the polls' choices and the recap:
# a family ("lstm" whichever LSTM it was: the tuned one's win is the LSTM's), or TIE where none was
# ahead with every seed (or timing). Each with its label, as the recap and a poll's verdict name it.
TIE = "tie"
OUTCOMES = {"transformer": LABELS["transformer"], "lstm": LABELS["lstm"], "rnn": LABELS["rnn"], TIE: "neither"}

CONTENDERS = {  # the model kind of each, and what its model starts with beyond PyTorch's defaults
    "rnn": {"kind": "rnn"},
    "lstm": {"kind": "lstm"},
    "lstm-tuned": {"kind": "lstm", "forget_bias": TUNED_FORGET_BIAS},
    "transformer": {"kind": "transformer"},
}

CARE = {  # the same, in words for the slides (the rate each got is named beside it)
    "rnn": "PyTorch's start",
    "lstm": "PyTorch's start (forget gates near 0)",
    "lstm-tuned": "forget gates start at 1",
    "transformer": "small embeddings (std 0.02, as GPT-2), learning rate warmed up over the first tenth of the steps",
}


def family(name: str) -> str:
    """The outcome a contender's win is: its family ("lstm" for the tuned LSTM too)."""
    return CONTENDERS[name]["kind"]


def label(name: str) -> str:
    """How the slides name a contender or model kind: "tuned LSTM", "Transformer"."""
    return LABELS[name]


def recipe(name: str, steps: int, lr: float, **changes) -> TrainConfig:
    """Contender `name`'s training recipe for `steps` steps (at most) at learning rate `lr` (chosen on
    validation data: `demos.shared.tuning.chosen`), with any `changes`."""
    warmup = round(WARMUP_SHARE * steps) if name == "transformer" else 0
    return TrainConfig(steps=steps, lr=lr, warmup=warmup, **changes)


def rates_sentence(recipes: dict, rates: dict[str, float]) -> str:
    """The learning rate each model got and how it was chosen, from `tuning.how_chosen(demo)` and
    {label: rate}: "Learning rates: tuned LSTM 0.01, Transformer 0.001, each chosen on validation data
    from 0.0001–0.01 (python -m benchmarks.recipes amnesia)."""
    grid = recipes["grid"]
    listed_rates = ", ".join(f"{name} {rate_text(lr)}" for name, lr in rates.items())
    return (f"Learning rates: {listed_rates}, each chosen on validation data from {rate_text(grid[0])}–"
            f"{rate_text(grid[-1])} ({recipes['script']}).")
