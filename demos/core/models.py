"""The three contenders, side by side: a vanilla RNN, an LSTM and a Transformer.

Every model reads a batch of token ids (B, T) and returns one vector of logits per
position (B, T, n_out). A classifier reads the logits at the last position (where the
question is asked); a language model reads them all (each predicts the next token).
One `ModelConfig` describes any of them, and is stored with the weights, so a saved
model can be rebuilt from its file alone.
"""
import math
from bisect import bisect_left
from dataclasses import dataclass, replace
from typing import Callable

import torch
import torch.nn.functional as F
from torch import nn

KINDS = ("rnn", "lstm", "transformer")


@dataclass
class ModelConfig:
    kind: str = "transformer"  # "rnn", "lstm" or "transformer"
    vocab_size: int = 32  # input tokens
    n_out: int = 32  # output classes; the vocabulary size for a language model
    width: int = 64  # embedding size = hidden state size = d_model
    n_layers: int = 1
    n_heads: int = 2  # transformer only
    max_len: int = 256  # transformer only: the longest input it has positions for
    causal: bool = False  # transformer only: a position may not look at later ones (language models)
    forget_bias: float | None = None  # lstm only: start the forget gate at this bias (None: PyTorch's default)
    fast_attention: bool = False  # transformer only: fused scaled_dot_product_attention, weights not kept
    dropout: float = 0.0


# ----------------------------------------------------------------------------- recurrent


class Recurrent(nn.Module):
    """Embedding → a stack of tanh RNN or LSTM layers → a linear read-out at every step.

    The state after step t depends on the state after step t-1: the steps run one after
    another, however many cores the machine has.
    """

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.width)
        layer = nn.LSTM if cfg.kind == "lstm" else nn.RNN
        extra = {} if cfg.kind == "lstm" else {"nonlinearity": "tanh"}
        self.rnn = layer(cfg.width, cfg.width, num_layers=cfg.n_layers, batch_first=True,
                         dropout=cfg.dropout if cfg.n_layers > 1 else 0.0, **extra)
        self.head = nn.Linear(cfg.width, cfg.n_out)
        if cfg.kind == "lstm" and cfg.forget_bias is not None:
            set_forget_bias(self.rnn, cfg.forget_bias)

    def forward(self, idx: torch.Tensor, embedded: torch.Tensor | None = None) -> torch.Tensor:
        x = self.embed(idx) if embedded is None else embedded  # (B, T, C)
        states, _ = self.rnn(x)  # (B, T, C): the state after every step
        return self.head(states)  # (B, T, n_out)


def set_forget_bias(lstm: nn.LSTM, value: float) -> None:
    """Start every forget gate at `value`, so that early in training the cell keeps what it holds.

    PyTorch packs the gate biases as [input, forget, cell, output]; the two bias vectors add up.
    """
    hidden = lstm.hidden_size
    with torch.no_grad():
        for name, bias in lstm.named_parameters():
            if name.startswith("bias_ih"):
                bias[hidden:2 * hidden] = value
            elif name.startswith("bias_hh"):
                bias[hidden:2 * hidden] = 0.0


# The speed race times one bare LSTM layer two ways (demos/speed_race.py): the same computation.


class LoopLSTM(nn.Module):
    """An LSTM written as the recurrence it is: one LSTMCell call per time step."""

    def __init__(self, width: int):
        super().__init__()
        self.cell = nn.LSTMCell(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.size()
        h = x.new_zeros(B, C)
        c = x.new_zeros(B, C)
        outputs = []
        for t in range(T):  # step t needs h and c from step t-1
            h, c = self.cell(x[:, t], (h, c))
            outputs.append(h)
        return torch.stack(outputs, dim=1)


class FusedLSTM(nn.Module):
    """The same LSTM layer as one library call (cuDNN on a GPU): the recurrence inside a fused kernel."""

    def __init__(self, width: int):
        super().__init__()
        self.lstm = nn.LSTM(width, width, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lstm(x)[0]


# ----------------------------------------------------------------------------- transformer


class SelfAttention(nn.Module):
    """Multi-head self-attention, written out: softmax(q @ kᵀ / √d_k) @ v.

    With `trace` on, it keeps q, k, v and the attention weights of its last call, for the
    slides that show them. With `cfg.fast_attention`, it calls PyTorch's fused kernel
    (flash or memory-efficient attention where the device has them) instead.
    """

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        assert cfg.width % cfg.n_heads == 0, "width must split evenly into heads"
        self.cfg = cfg
        self.n_heads = cfg.n_heads
        self.qkv = nn.Linear(cfg.width, 3 * cfg.width)  # query, key and value projections in one
        self.proj = nn.Linear(cfg.width, cfg.width)
        self.dropout = cfg.dropout
        self.trace: dict | None = None  # set to {} to record the next forward pass

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.size()  # batch, time, channels
        d_k = C // self.n_heads
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, d_k).transpose(1, 2)  # (B, nh, T, d_k)
        k = k.view(B, T, self.n_heads, d_k).transpose(1, 2)
        v = v.view(B, T, self.n_heads, d_k).transpose(1, 2)

        if self.cfg.fast_attention and self.trace is None:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=self.cfg.causal,
                                               dropout_p=self.dropout if self.training else 0.0)
        else:
            scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, nh, T, T): how well each query matches each key
            if self.cfg.causal:
                future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
                scores = scores.masked_fill(future, float("-inf"))  # no peeking at later tokens
            weights = F.softmax(scores, dim=-1)  # each row sums to 1
            y = F.dropout(weights, self.dropout, self.training) @ v  # (B, nh, T, d_k): a weighted sum of values
            if self.trace is not None:
                self.trace = {"q": q.detach(), "k": k.detach(), "v": v.detach(),
                              "scores": scores.detach(), "weights": weights.detach(), "out": y.detach()}

        y = y.transpose(1, 2).contiguous().view(B, T, C)  # heads side by side again
        return self.proj(y)


class MLP(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.up = nn.Linear(cfg.width, 4 * cfg.width)
        self.down = nn.Linear(4 * cfg.width, cfg.width)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(self.down(F.gelu(self.up(x))))


class Block(nn.Module):
    """One Transformer layer: every position looks at the others, then thinks on its own."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.width)
        self.attn = SelfAttention(cfg)
        self.ln2 = nn.LayerNorm(cfg.width)
        self.mlp = MLP(cfg)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Transformer(nn.Module):
    """Token + position embeddings → layers of attention and MLP → a linear read-out.

    All positions are computed at once: the only steps that must wait for each other
    are the layers. The token and position tables start small (std 0.02, as in GPT-2): with
    PyTorch's default N(0, 1), a position's vector would be as large as the token's and drown
    which token sits where. The linear layers keep PyTorch's default, scaled to their width.
    """

    EMBEDDING_STD = 0.02

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.width)
        self.pos = nn.Embedding(cfg.max_len, cfg.width)
        self.drop = nn.Dropout(cfg.dropout)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.ln_f = nn.LayerNorm(cfg.width)
        self.head = nn.Linear(cfg.width, cfg.n_out)
        for table in (self.embed, self.pos):
            nn.init.normal_(table.weight, std=self.EMBEDDING_STD)

    def forward(self, idx: torch.Tensor, embedded: torch.Tensor | None = None) -> torch.Tensor:
        T = idx.size(1)
        assert T <= self.cfg.max_len, f"sequence of {T} tokens, but the model has {self.cfg.max_len} positions"
        x = self.embed(idx) if embedded is None else embedded  # (B, T, C)
        x = self.drop(x + self.pos(torch.arange(T, device=idx.device)))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))  # (B, T, n_out)

    def trace_attention(self, on: bool = True) -> None:
        """Record (or stop recording) q, k, v and weights in every layer's `attn.trace`."""
        for block in self.blocks:
            block.attn.trace = {} if on else None


# ----------------------------------------------------------------------------- helpers


def build_model(cfg: ModelConfig) -> nn.Module:
    assert cfg.kind in KINDS, f"unknown model kind {cfg.kind!r}"
    return Transformer(cfg) if cfg.kind == "transformer" else Recurrent(cfg)


def count_parameters(model: nn.Module, non_embedding: bool = False) -> int:
    """Trainable parameters; `non_embedding` leaves out the token and position tables (as Kaplan et al. do)."""
    embeddings = {id(p) for name, m in model.named_modules() if isinstance(m, nn.Embedding) for p in m.parameters()}
    return sum(p.numel() for p in model.parameters() if p.requires_grad and not (non_embedding and id(p) in embeddings))


def matching_width(cfg: ModelConfig, target: int, size: Callable[[nn.Module], int] = count_parameters,
                   widths: range = range(1, 1025)) -> ModelConfig:
    """`cfg` at the width (from `widths`) whose model's `size` is closest to `target`: how an LSTM is
    made about as big as a Transformer. The size must grow with the width."""
    def size_at(width: int) -> int:
        return size(build_model(replace(cfg, width=width)))

    above = bisect_left(widths, target, key=size_at)  # the narrowest at least as big, or len(widths)
    nearest = [widths[i] for i in (above - 1, above) if 0 <= i < len(widths)]
    return replace(cfg, width=min(nearest, key=lambda width: abs(size_at(width) - target)))
