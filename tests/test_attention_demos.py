"""Slides 6 to 9: the attention demos read real weights from a trained model, and the
training progression really learns. Tiny training budgets keep each test to seconds."""
import math

import pytest
import torch

from demos import attention_matrix, attention_web, qkv, training_progression
from demos.__main__ import main as terminal
from demos.corpus import TARGET_SENTENCE
from demos.params import ParamError, validate
from demos.runner import run_demo
from demos.sentence_attention import MAX_TOKENS
from demos.storage import ModelStore

CPU = torch.device("cpu")
TARGET_TOKENS = ["We", "propose", "a", "new", "simple", "network", "architecture", ",", "the", "Transformer"]
FEW = {"steps": 40}  # a language model trained this briefly already attends unevenly
STORE = ModelStore()  # one store for the module: each (seed, steps) model trains once


def run(demo, **params):
    return run_demo(demo, {**FEW, **params}, device=CPU, store=STORE)


def as_tensor(rows):
    return torch.tensor([[0.0 if x is None else x for x in row] for row in rows], dtype=torch.float64)


# ----------------------------------------------------------------------------- the attention matrix


@pytest.mark.parametrize("layer, head", [(1, 1), (2, 4)])
def test_every_row_sums_to_one_and_the_future_is_masked(layer, head):
    result = run(attention_matrix, layer=layer, head=head)
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
    sharp = run(attention_matrix, temperature=0.2)
    plain = run(attention_matrix, temperature=1.0)
    flat = run(attention_matrix, temperature=5.0)
    top = {name: as_tensor(r["weights"]).max(dim=1).values[1:].mean().item()
           for name, r in (("sharp", sharp), ("plain", plain), ("flat", flat))}
    assert top["sharp"] > top["plain"] > top["flat"]
    for result in (sharp, flat):
        assert result["row_sums"] == pytest.approx([1.0] * len(result["tokens"]), abs=1e-5)
    # The browser re-applies the temperature to the scores it is sent: softmax(scores / t) gives the same rows.
    scores = as_tensor(sharp["all_scores"][0][0]).masked_fill(as_tensor(sharp["weights"]) == 0, -math.inf)
    assert torch.allclose(torch.softmax(scores / 0.2, dim=1), as_tensor(sharp["weights"]), atol=1e-5)


def test_weights_come_from_the_model_not_from_constants():
    trained = as_tensor(run(attention_matrix)["weights"])
    other_seed = as_tensor(run(attention_matrix, seed=1)["weights"])
    untrained = run(attention_matrix, steps=0)
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
    run(attention_matrix)
    again = run(attention_matrix, sentence="Our model learns word representations.")
    assert again["model"]["trained_now"] is False
    assert again["tokens"] == ["Our", "model", "learns", "word", "representations", "."]


# ----------------------------------------------------------------------------- sentences


def test_unknown_words_are_shown_flagged_and_named_in_the_summary():
    result = run(attention_web, sentence="We propose a flibbertigibbet network")
    assert result["tokens"][3] == "⟨unk: flibbertigibbet⟩"
    assert result["unknown"] == [False, False, False, True, False]
    assert "flibbertigibbet" in result["summary"] and "⟨unk⟩" in result["summary"]


@pytest.mark.parametrize("sentence, message", [
    ("", "is empty"),
    ("   ", "is empty"),
    ("<b>hi</b> there", "not markup such as <b>"),
    ("We propose &amp; test", "not markup"),
    ("zorblax quuxify", "has no word the model knows"),
    (" ".join(["word"] * (MAX_TOKENS + 1)), f"at most {MAX_TOKENS} fit"),
    ("x" * 161, "at most 160 characters"),
])
def test_a_bad_sentence_is_refused_before_anything_trains(sentence, message):
    for demo in (attention_web, qkv, attention_matrix):
        with pytest.raises(ParamError) as error:
            validate(demo.PARAMS, {"sentence": sentence})
        assert error.value.name == "sentence" and message in error.value.message


def test_the_api_answers_a_markup_sentence_with_400_naming_the_field(client):
    response = client.post("/api/demos/attention_web/run", json={"sentence": "<b>hi</b>"})
    assert response.status_code == 400
    body = response.get_json()
    assert body["param"] == "sentence" and "markup" in body["error"]


def test_layer_head_and_steps_are_bounded():
    for bad in ({"layer": 3}, {"head": 5}, {"head": 0}, {"steps": 401}, {"steps": -1}):
        with pytest.raises(ParamError):
            validate(attention_matrix.PARAMS, bad)


# ----------------------------------------------------------------------------- Q, K, V


def test_the_qkv_steps_are_the_models_own_computation():
    result = run(qkv, query=5, layer=2, head=3)
    matrix = run(attention_matrix, layer=2, head=3)
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
    result = run(qkv)
    T = len(result["tokens"])
    assert result["query"] == T - 1 and len(result["steps"]) == T
    assert [len(step["weights"]) for step in result["steps"]] == list(range(1, T + 1))
    assert run(qkv, query=MAX_TOKENS)["query"] == T - 1, "past the end means the last token"


# ----------------------------------------------------------------------------- the attention web


def test_the_web_shows_the_selected_head_and_the_complexity_table_for_this_sentence():
    result = run(attention_web, layer=2, head=2)
    assert result["weights"] == result["all_weights"][1][1]
    assert len(result["all_weights"]) == 2 and len(result["all_weights"][0]) == 4
    table = result["complexity"]
    assert "Vaswani et al. (2017)" in table["source"]
    assert [row["per_layer"] for row in table["rows"]] == ["O(n²·d)", "O(n·d²)"]
    assert table["attention_ops"] == 10 * 10 * 64 and table["recurrent_ops"] == 10 * 64 * 64
    for link in result["links"]:
        assert link["to"] <= link["from"]
        assert link["weight"] == pytest.approx(max(result["weights"][link["from"]][: link["from"] + 1]))


# ----------------------------------------------------------------------------- the training progression


def test_the_progression_learns_and_streams_every_snapshot_so_far():
    reports = []
    result = run_demo(training_progression, {"epochs": 3, "snapshot_every": 1},
                      progress=lambda f, m, data=None: reports.append(data), device=CPU, store=ModelStore())
    snapshots = result["snapshots"]
    assert [s["epoch"] for s in snapshots] == [0, 1, 2, 3]
    assert snapshots[0]["loss"] > snapshots[-1]["loss"] + 1.0
    assert snapshots[0]["matched"] < len(result["target_tokens"])
    assert result["target_tokens"] == TARGET_TOKENS[1:]
    assert all(len(s["continuation"]) == len(result["target_tokens"]) for s in snapshots)
    assert all(s["matched"] == sum(s["matches"]) for s in snapshots)
    assert result["stopped"] in ("matched", "budget") and "on cpu" in result["summary"]
    streamed = [data for data in reports if data is not None]
    assert [len(data["snapshots"]) for data in streamed] == [1, 2, 3, 4]
    assert streamed[-1]["snapshots"] == snapshots and streamed[0]["snapshots"] == snapshots[:1]
    assert len({id(data) for data in streamed}) == len(streamed), "a fresh object each time"


def test_the_progression_stops_once_the_continuation_is_the_target(monkeypatch):
    """Learning the target takes a few hundred steps; here the model "learns" it at the third snapshot."""
    real_generate, calls = training_progression.generate, []

    def generate(model, prompt, n_tokens):
        calls.append(1)
        return goal if len(calls) == 3 else real_generate(model, prompt, n_tokens)

    from demos.corpus import load
    goal = load().tokenizer.encode(TARGET_SENTENCE)[1:]
    monkeypatch.setattr(training_progression, "generate", generate)
    result = run_demo(training_progression, {"epochs": 10, "snapshot_every": 1}, device=CPU, store=ModelStore())
    assert [s["epoch"] for s in result["snapshots"]] == [0, 1, 2]
    assert result["stopped"] == "matched" and result["snapshots"][-1]["matches"] == [True] * 9
    assert "matched the target at epoch 2" in result["summary"]


# ----------------------------------------------------------------------------- terminal


def test_the_terminal_prints_the_matrix_with_row_sums_and_the_progression(capsys):
    assert terminal(["attention_matrix", "--steps", "40"]) == 0
    out = capsys.readouterr().out
    assert out.count("| Σ=1.00") == 10 and "Transformer" in out
    assert terminal(["training_progression", "--epochs", "1"]) == 0
    out = capsys.readouterr().out
    assert "Epoch   0" in out and "Epoch   1" in out and "Target: " + TARGET_SENTENCE in out
