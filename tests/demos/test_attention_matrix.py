"""The attention matrix: rows of weights from the shared language model that sum to 1, with the future masked."""
import math

import pytest
import torch

from demos import attention_matrix
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore
from demos.shared.sentence_attention import MAX_TOKENS
from tests.demos.tiny import CPU, as_tensor, run_on_shared_model

TARGET_TOKENS = ["We", "propose", "a", "new", "simple", "network", "architecture", ",", "the", "Transformer"]


@pytest.mark.parametrize("layer, head", [(1, 1), (2, 4)])
def test_every_row_sums_to_one_and_the_future_is_masked(layer, head):
    result = run_on_shared_model(attention_matrix, layer=layer, head=head)
    weights = as_tensor(result["weights"])
    T = len(result["tokens"])
    assert result["tokens"] == TARGET_TOKENS
    assert weights.shape == (T, T)
    assert torch.allclose(weights.sum(dim=1), torch.ones(T, dtype=torch.float64), atol=1e-5)
    assert result["row_sums"] == pytest.approx(weights.sum(dim=1).tolist(), abs=1e-6)
    assert (weights.triu(1) == 0).all(), "no token looks at a later one"
    assert (weights[torch.ones(T, T).tril().bool()] > 0).all(), "every earlier token gets some weight"
    assert "the causal mask" in result["summary"] and f"all {T} rows sum to 1" in result["summary"]


def test_the_temperature_sharpens_or_flattens_the_rows_which_still_sum_to_one():
    sharp = run_on_shared_model(attention_matrix, temperature=0.2)
    plain = run_on_shared_model(attention_matrix, temperature=1.0)
    flat = run_on_shared_model(attention_matrix, temperature=5.0)
    top = {name: as_tensor(r["weights"]).max(dim=1).values[1:].mean().item()
           for name, r in (("sharp", sharp), ("plain", plain), ("flat", flat))}
    assert top["sharp"] > top["plain"] > top["flat"]
    for result in (sharp, flat):
        assert result["row_sums"] == pytest.approx([1.0] * len(result["tokens"]), abs=1e-5)
    # The browser re-applies the temperature to the scores it is sent: softmax(scores / t) gives the same rows.
    scores = as_tensor(sharp["all_scores"][0][0]).masked_fill(as_tensor(sharp["weights"]) == 0, -math.inf)
    assert torch.allclose(torch.softmax(scores / 0.2, dim=1), as_tensor(sharp["weights"]), atol=1e-5)


def test_weights_come_from_the_model_not_from_constants():
    trained = as_tensor(run_on_shared_model(attention_matrix)["weights"])
    other_seed = as_tensor(run_on_shared_model(attention_matrix, seed=1)["weights"])
    untrained = run_on_shared_model(attention_matrix, steps=0)
    assert not torch.allclose(trained, other_seed, atol=1e-3)
    assert not torch.allclose(trained, as_tensor(untrained["weights"]), atol=1e-3)
    assert "untrained: random weights" in untrained["summary"]
    assert untrained["model"] == {"trained": False, "seed": 0, "steps": 0,
                                  "parameters": untrained["model"]["parameters"]}


def test_the_same_seed_gives_the_same_weights_even_when_trained_again():
    first = run_demo(attention_matrix, {"steps": 10, "seed": 3}, device=CPU, store=ModelStore())
    second = run_demo(attention_matrix, {"steps": 10, "seed": 3}, device=CPU, store=ModelStore())
    assert first["model"]["trained_now"] and second["model"]["trained_now"]
    assert first["weights"] == second["weights"]


def test_a_new_sentence_reuses_the_trained_model():
    run_on_shared_model(attention_matrix)
    again = run_on_shared_model(attention_matrix, sentence="Our model learns word representations.")
    assert again["model"]["trained_now"] is False
    assert again["tokens"] == ["Our", "model", "learns", "word", "representations", "."]


def test_a_rows_steps_are_the_models_own_computation():
    result = run_on_shared_model(attention_matrix, query=5, layer=2, head=3)
    parts = result["heads"][1][2]
    step = parts["steps"][4]
    assert result["query"] == 4 and result["tokens"][4] == "simple"
    assert len(step["dots"]) == 5, "only the query and earlier tokens: the causal mask"
    q, k, v = (torch.tensor(parts[name], dtype=torch.float64) for name in ("q", "k", "v"))
    assert step["dots"] == pytest.approx((k[:5] @ q[4]).tolist(), abs=1e-4)
    assert step["scaled"] == pytest.approx([d / math.sqrt(result["d_k"]) for d in step["dots"]], abs=1e-5)
    assert step["weights"] == pytest.approx(result["weights"][4][:5], abs=1e-5), "the step's weights are the matrix's row"
    assert sum(step["weights"]) == pytest.approx(1.0, abs=1e-5) and step["weight_sum"] == pytest.approx(1.0, abs=1e-5)
    output = torch.tensor(step["weights"], dtype=torch.float64) @ v[:5]
    assert step["output"] == pytest.approx(output.tolist(), abs=1e-5)
    assert step["output"] == pytest.approx(parts["model_output"][4], abs=1e-5)
    assert result["d_k"] == 16 and len(parts["q"][0]) == 16
    assert "The query of 'simple' matches" in result["summary"]


def test_every_heads_every_row_is_sent_and_the_default_query_is_the_last_token():
    result = run_on_shared_model(attention_matrix)
    T = len(result["tokens"])
    assert result["query"] == T - 1
    assert len(result["heads"]) == result["n_layers"] and all(len(h) == result["n_heads"] for h in result["heads"])
    for layer_heads, layer_scores in zip(result["heads"], result["all_scores"]):
        for parts, scores in zip(layer_heads, layer_scores):
            assert [len(step["weights"]) for step in parts["steps"]] == list(range(1, T + 1))
            for i, (step, row) in enumerate(zip(parts["steps"], scores)):
                assert step["scaled"] == pytest.approx(row[: i + 1], abs=1e-5), "the steps' scores are the matrix's"
    assert run_on_shared_model(attention_matrix, query=MAX_TOKENS)["query"] == T - 1, "past the end means the last token"
