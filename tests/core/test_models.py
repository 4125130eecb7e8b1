"""The three models: the fused attention kernel computes what the written-out attention does,
the forget bias is where the LSTM's gates read it, and widths are matched to a parameter count."""
from dataclasses import replace

import pytest
import torch

from demos.core.models import ModelConfig, build_model, count_parameters, matching_width, set_forget_bias


@pytest.mark.parametrize("causal", [False, True])
def test_the_fused_attention_kernel_equals_the_written_out_one(causal):
    cfg = ModelConfig(kind="transformer", vocab_size=11, n_out=7, width=32, n_heads=4, max_len=20, causal=causal)
    torch.manual_seed(0)
    written_out = build_model(cfg).eval()
    fused = build_model(replace(cfg, fast_attention=True)).eval()
    fused.load_state_dict(written_out.state_dict())
    tokens = torch.randint(11, (3, 20))
    assert torch.allclose(fused(tokens), written_out(tokens), atol=1e-5)
    written_out.trace_attention()
    written_out(tokens)
    weights = written_out.blocks[0].attn.trace["weights"]  # (B, heads, T, T)
    assert torch.allclose(weights.sum(-1), torch.ones(3, 4, 20), atol=1e-6)
    assert bool((weights.triu(1) == 0).all()) == causal


def test_a_causal_model_never_reads_the_future():
    cfg = ModelConfig(kind="transformer", vocab_size=11, n_out=11, width=16, n_heads=2, max_len=12, causal=True)
    model = build_model(cfg).eval()
    tokens = torch.randint(11, (1, 12))
    changed = tokens.clone()
    changed[0, 8:] = (changed[0, 8:] + 1) % 11
    assert torch.allclose(model(tokens)[0, :8], model(changed)[0, :8], atol=1e-6)
    assert not torch.allclose(model(tokens)[0, 8:], model(changed)[0, 8:])


def test_the_forget_bias_starts_every_forget_gate_there():
    cfg = ModelConfig(kind="lstm", vocab_size=5, n_out=5, width=6, forget_bias=2.5, n_layers=2)
    lstm = build_model(cfg).rnn
    for layer in range(2):
        total = getattr(lstm, f"bias_ih_l{layer}") + getattr(lstm, f"bias_hh_l{layer}")  # the gates add both
        input_gate, forget_gate, cell, output_gate = total.detach().chunk(4)  # PyTorch's packing order
        assert torch.allclose(forget_gate, torch.full((6,), 2.5))
        assert not torch.allclose(input_gate, torch.full((6,), 2.5))
    plain = build_model(replace(cfg, forget_bias=None)).rnn
    assert plain.bias_ih_l0[6:12].abs().max() < 1  # PyTorch's own start: small and random
    set_forget_bias(plain, -1.0)
    assert torch.allclose((plain.bias_ih_l0 + plain.bias_hh_l0)[6:12].detach(), torch.full((6,), -1.0))


def test_an_lstm_is_sized_to_the_transformers_parameter_count():
    transformer = ModelConfig(kind="transformer", vocab_size=30, n_out=30, width=48, n_heads=4, max_len=64)
    target = count_parameters(build_model(transformer))
    lstm = matching_width(replace(transformer, kind="lstm"), target)
    size = count_parameters(build_model(lstm))
    narrower = count_parameters(build_model(replace(lstm, width=lstm.width - 1)))
    wider = count_parameters(build_model(replace(lstm, width=lstm.width + 1)))
    assert abs(size - target) <= min(abs(narrower - target), abs(wider - target))
    assert abs(size - target) / target < 0.05


def test_a_target_beyond_the_widest_gives_the_widest_not_an_error():
    cfg = ModelConfig(kind="lstm", vocab_size=5, n_out=5)
    assert matching_width(cfg, 10**12, widths=range(1, 9)).width == 8
    assert matching_width(cfg, 0, widths=range(1, 9)).width == 1
