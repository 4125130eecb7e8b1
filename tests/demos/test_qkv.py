"""Q, K and V: each step of one query's attention is the model's own computation."""
import math

import pytest
import torch

from demos import attention_matrix, qkv
from demos.shared.sentence_attention import MAX_TOKENS
from tests.demos.tiny import run_on_shared_model


def test_the_qkv_steps_are_the_models_own_computation():
    result = run_on_shared_model(qkv, query=5, layer=2, head=3)
    matrix = run_on_shared_model(attention_matrix, layer=2, head=3)
    step = result["steps"][4]
    assert result["query"] == 4 and result["tokens"][4] == "simple"
    assert len(step["dots"]) == 5, "only the query and earlier tokens: the causal mask"
    q, k, v = (torch.tensor(result[name], dtype=torch.float64) for name in ("q", "k", "v"))
    assert step["dots"] == pytest.approx((k[:5] @ q[4]).tolist(), abs=1e-4)
    assert step["scaled"] == pytest.approx([d / math.sqrt(result["d_k"]) for d in step["dots"]], abs=1e-5)
    assert step["weights"] == pytest.approx(matrix["weights"][4][:5], abs=1e-5)
    assert sum(step["weights"]) == pytest.approx(1.0, abs=1e-5) and step["weight_sum"] == pytest.approx(1.0, abs=1e-5)
    output = torch.tensor(step["weights"], dtype=torch.float64) @ v[:5]
    assert step["output"] == pytest.approx(output.tolist(), abs=1e-5)
    assert step["output"] == pytest.approx(result["model_output"][4], abs=1e-5)
    assert result["d_k"] == 16 and len(result["q"][0]) == 16


def test_every_query_is_sent_and_the_default_query_is_the_last_token():
    result = run_on_shared_model(qkv)
    T = len(result["tokens"])
    assert result["query"] == T - 1 and len(result["steps"]) == T
    assert [len(step["weights"]) for step in result["steps"]] == list(range(1, T + 1))
    assert run_on_shared_model(qkv, query=MAX_TOKENS)["query"] == T - 1, "past the end means the last token"
