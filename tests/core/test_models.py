"""The three models: recurrent ones read left to right, a causal Transformer never reads the future,
attention is the slide's formula (and what PyTorch's own layer computes), positions are what tell a
Transformer the order of its tokens, dropout acts only in training, the forget bias is where the
LSTM's gates read it, and widths are matched to a parameter count."""
from dataclasses import replace

import pytest
import torch
from torch import nn

from demos.core.models import (
    KINDS,
    Block,
    FusedLSTM,
    LoopLSTM,
    ModelConfig,
    SelfAttention,
    build_model,
    count_parameters,
    matching_width,
    set_forget_bias,
)


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
        assert not any(torch.allclose(gate, torch.full((6,), 2.5)) for gate in (input_gate, cell, output_gate))
    plain = build_model(replace(cfg, forget_bias=None)).rnn
    assert plain.bias_ih_l0[6:12].abs().max() < 1  # PyTorch's own start: small and random
    before = {name: bias.detach().clone() for name, bias in plain.named_parameters() if name.startswith("bias")}
    set_forget_bias(plain, -1.0)
    assert torch.allclose((plain.bias_ih_l0 + plain.bias_hh_l0)[6:12].detach(), torch.full((6,), -1.0))
    for name, bias in plain.named_parameters():
        if name.startswith("bias"):  # the input, cell and output gates keep PyTorch's start
            assert torch.equal(bias[:6], before[name][:6]) and torch.equal(bias[12:], before[name][12:])


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


def test_the_matched_width_is_the_closest_whether_narrower_or_wider():
    cfg = ModelConfig(kind="lstm", vocab_size=5, n_out=5)
    sizes = {width: count_parameters(build_model(replace(cfg, width=width))) for width in (20, 21)}
    assert matching_width(cfg, sizes[21] - 1).width == 21
    assert matching_width(cfg, sizes[20] + 1).width == 20


def tiny(kind: str, **changes) -> ModelConfig:
    return replace(ModelConfig(kind=kind, vocab_size=11, n_out=7, width=16, n_heads=2, max_len=12), **changes)


@pytest.mark.parametrize("kind", KINDS)
def test_every_model_gives_one_vector_of_logits_per_position(kind):
    model = build_model(tiny(kind, n_layers=2)).eval()
    assert model(torch.randint(11, (3, 9))).shape == (3, 9, 7)


@pytest.mark.parametrize("kind", ["rnn", "lstm"])
def test_a_recurrent_model_reads_left_to_right(kind):
    """Changing a later token leaves every earlier output alone; changing an early one reaches every later one."""
    torch.manual_seed(0)
    model = build_model(tiny(kind)).eval()
    tokens = torch.randint(11, (1, 10))
    later, earlier = tokens.clone(), tokens.clone()
    later[0, 6] = (later[0, 6] + 1) % 11
    earlier[0, 1] = (earlier[0, 1] + 1) % 11
    out = model(tokens)
    assert torch.equal(model(later)[0, :6], out[0, :6]) and not torch.allclose(model(later)[0, 6], out[0, 6])
    assert torch.equal(model(earlier)[0, :1], out[0, :1])
    assert all(not torch.allclose(model(earlier)[0, t], out[0, t]) for t in range(1, 10))


def test_the_rnns_state_is_squashed_by_tanh():
    torch.manual_seed(0)
    model = build_model(tiny("rnn", width=8)).eval()
    with torch.no_grad():
        model.embed.weight.mul_(100)  # inputs far beyond tanh's range
    states, _ = model.rnn(model.embed(torch.randint(11, (2, 6))))
    assert states.abs().max() <= 1 and (states < 0).any()  # a ReLU RNN would be unbounded and never negative
    assert isinstance(build_model(tiny("lstm")).rnn, nn.LSTM) and not isinstance(model.rnn, nn.LSTM)


@pytest.mark.parametrize("kind", KINDS)
def test_a_model_reads_given_embeddings_as_it_reads_their_tokens(kind):
    """signal_decay.py feeds the embeddings itself, to follow the gradient back to each input."""
    torch.manual_seed(0)
    model = build_model(tiny(kind)).eval()
    tokens = torch.randint(11, (2, 8))
    assert torch.allclose(model(tokens, embedded=model.embed(tokens)), model(tokens))
    assert not torch.allclose(model(tokens, embedded=torch.zeros(2, 8, 16)), model(tokens))


def test_the_speed_races_two_lstms_compute_the_same_thing():
    torch.manual_seed(0)
    loop, fused = LoopLSTM(6), FusedLSTM(6)
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(fused.lstm, f"{name}_l0").copy_(getattr(loop.cell, name))
    x = torch.randn(3, 7, 6)
    assert loop(x).shape == (3, 7, 6) and torch.allclose(loop(x), fused(x), atol=1e-6)


def test_the_traced_attention_is_the_formula_on_the_slide():
    """scores = q kᵀ / √d_k, weights = softmax(scores) row by row, out = weights v; the future masked off."""
    torch.manual_seed(0)
    model = build_model(tiny("transformer", width=16, n_heads=4, causal=True)).eval()
    model.trace_attention()
    model(torch.randint(11, (2, 5)))
    trace = model.blocks[0].attn.trace
    q, k, v = trace["q"], trace["k"], trace["v"]
    assert q.shape == k.shape == v.shape == (2, 4, 5, 4)  # (B, heads, T, d_k)
    future = torch.ones(5, 5, dtype=torch.bool).triu(1)
    assert torch.allclose(trace["scores"][..., ~future], (q @ k.transpose(-2, -1) / 2)[..., ~future], atol=1e-6)
    assert (trace["scores"][..., future] == float("-inf")).all()
    assert torch.allclose(trace["weights"], torch.softmax(trace["scores"], dim=-1))
    assert torch.allclose(trace["weights"][:, :, 0, 0], torch.ones(2, 4))  # the first token sees only itself
    assert torch.allclose(trace["out"], trace["weights"] @ v, atol=1e-6)
    model.trace_attention(False)
    model(torch.randint(11, (2, 5)))
    assert model.blocks[0].attn.trace is None
    assert build_model(tiny("transformer")).blocks[0].attn.trace is None  # nothing is kept unless asked for
    fast = build_model(tiny("transformer", fast_attention=True))
    fast.trace_attention()  # the slides that show weights get them from a fast model too
    fast(torch.randint(11, (2, 5)))
    assert fast.blocks[0].attn.trace["weights"].shape == (2, 2, 5, 5)


def test_without_positions_a_transformer_cannot_tell_the_order_of_its_tokens():
    """Attention alone treats its input as a set: permute the tokens and the outputs permute with them.
    The position embeddings are what make order matter."""
    torch.manual_seed(0)
    model = build_model(tiny("transformer", n_layers=2)).eval()
    tokens, order = torch.randint(11, (1, 8)), torch.randperm(8)
    assert not torch.allclose(model(tokens[:, order]), model(tokens)[:, order], atol=1e-4)
    with torch.no_grad():
        model.pos.weight.zero_()
    assert torch.allclose(model(tokens[:, order]), model(tokens)[:, order], atol=1e-5)


def test_the_embedding_tables_start_small_as_in_gpt2():
    torch.manual_seed(0)
    model = build_model(tiny("transformer", vocab_size=200, width=64, max_len=200))
    for table in (model.embed.weight, model.pos.weight):
        assert 0.018 < table.std().item() < 0.022 and abs(table.mean().item()) < 0.002


@pytest.mark.parametrize("kind", KINDS)
def test_dropout_acts_only_in_training(kind):
    torch.manual_seed(0)
    model = build_model(tiny(kind, dropout=0.5, n_layers=2)).eval()  # an RNN drops out between its layers
    tokens = torch.randint(11, (2, 8))
    assert torch.equal(model(tokens), model(tokens))
    model.train()
    assert not torch.allclose(model(tokens), model(tokens))


@pytest.mark.parametrize("fast", [False, True])
def test_attention_drops_weights_only_in_training(fast):
    torch.manual_seed(0)
    attention = SelfAttention(tiny("transformer", dropout=0.5, fast_attention=fast)).eval()
    x = torch.randn(2, 6, 16)
    assert torch.equal(attention(x), attention(x))
    attention.train()
    assert not torch.allclose(attention(x), attention(x))


def test_a_layer_computes_what_pytorchs_own_pre_norm_transformer_layer_computes():
    """x + attention(LayerNorm(x)), then + MLP(LayerNorm(x)): checked against torch.nn's independent code."""
    torch.manual_seed(0)
    block = Block(tiny("transformer", width=16, n_heads=4)).eval()
    reference = nn.TransformerEncoderLayer(16, 4, dim_feedforward=64, dropout=0.0, activation="gelu",
                                           batch_first=True, norm_first=True).eval()
    with torch.no_grad():
        reference.self_attn.in_proj_weight.copy_(block.attn.qkv.weight)
        reference.self_attn.in_proj_bias.copy_(block.attn.qkv.bias)
        reference.self_attn.out_proj.weight.copy_(block.attn.proj.weight)
        reference.self_attn.out_proj.bias.copy_(block.attn.proj.bias)
        for ours, theirs in ((block.mlp.up, reference.linear1), (block.mlp.down, reference.linear2),
                             (block.ln1, reference.norm1), (block.ln2, reference.norm2)):
            theirs.weight.copy_(ours.weight)
            theirs.bias.copy_(ours.bias)
    x = torch.randn(2, 7, 16)
    assert torch.allclose(block(x), reference(x), atol=1e-5)


def test_a_transformer_refuses_more_tokens_than_it_has_positions_and_a_model_an_unknown_kind():
    model = build_model(tiny("transformer", max_len=6))
    assert model(torch.zeros(1, 6, dtype=torch.long)).shape == (1, 6, 7)
    with pytest.raises(AssertionError, match="6 positions"):
        model(torch.zeros(1, 7, dtype=torch.long))
    with pytest.raises(AssertionError, match="unknown model kind"):
        build_model(tiny("gru"))
    with pytest.raises(AssertionError, match="^width must split evenly into heads$"):
        build_model(tiny("transformer", width=10, n_heads=4))


@pytest.mark.parametrize("kind", KINDS)
def test_a_model_keeps_its_config_so_a_saved_one_can_be_rebuilt(kind):
    cfg = tiny(kind)
    model = build_model(cfg)
    assert model.cfg == cfg
    rebuilt = build_model(model.cfg)
    rebuilt.load_state_dict(model.state_dict())
    tokens = torch.randint(11, (1, 5))
    assert torch.equal(rebuilt.eval()(tokens), model.eval()(tokens))


def test_parameters_are_counted_with_or_without_the_embedding_tables():
    model = build_model(tiny("transformer"))
    embeddings = 11 * 16 + 12 * 16  # tokens × width, positions × width
    total = sum(p.numel() for p in model.parameters())
    assert count_parameters(model) == total
    assert count_parameters(model, non_embedding=True) == total - embeddings
    model.head.weight.requires_grad_(False)  # a frozen table is not trained, so not counted
    assert count_parameters(model) == total - 7 * 16
    lstm = build_model(tiny("lstm"))
    assert count_parameters(lstm, non_embedding=True) == count_parameters(lstm) - 11 * 16
