"""Slide 12, the generative showdown: both language models continue a prompt token by token, every
step with its top-5 candidates and the token taken, beside each model's held-out perplexity.
Tiny training budgets keep each test to seconds; one model store lets the tests share models."""
import copy
import json
import math

import pytest
import torch

from demos import attention_matrix, generation
from demos.params import ParamError, validate
from demos.runner import run_demo
from demos.sentence_attention import MAX_TOKENS
from demos.storage import ModelStore

CPU = torch.device("cpu")
TINY = {"steps": 10, "tokens": 7}
STORE = ModelStore()  # each (seed, steps) pair of models trains once for the module


def run(**params):
    return run_demo(generation, {**TINY, **params}, device=CPU, store=STORE)


def test_generation_returns_the_requested_tokens_each_with_its_top_5():
    result = run()
    assert result["n_tokens"] == 7
    for kind in ("transformer", "lstm"):
        model = result["models"][kind]
        assert len(model["tokens"]) == len(model["picks"]) == 7
        for token, pick in zip(model["tokens"], model["picks"]):
            probabilities = [candidate["probability"] for candidate in pick["top"]]
            assert len(probabilities) == 5
            assert all(0 <= p <= 1 for p in probabilities) and sum(probabilities) <= 1 + 1e-6
            assert probabilities == sorted(probabilities, reverse=True)
            # Greedy: the token taken is the most probable one.
            assert pick["token"] == token == pick["top"][0]["token"] and pick["rank"] == 1
            assert pick["probability"] == pytest.approx(probabilities[0])
    json.dumps(result, allow_nan=False)  # JSON-safe, every number finite


def test_sampling_follows_the_seed_and_may_take_a_token_outside_the_top_5():
    sampled = {**TINY, "decoding": "sample", "temperature": 2.0, "tokens": 20}
    # Trained from scratch twice in a row (not taken from the module's store, whose models earlier
    # tests may have trained with another number of CPU threads, which changes the last bits of the
    # weights): the same models, so the same draws.
    first = run_demo(generation, sampled, device=CPU, store=ModelStore())
    again = run_demo(generation, sampled, device=CPU, store=ModelStore())
    other_seed = run(decoding="sample", temperature=2.0, tokens=20, seed=1)
    for kind in ("transformer", "lstm"):
        assert first["models"][kind]["tokens"] == again["models"][kind]["tokens"]
        assert first["models"][kind]["tokens"] != other_seed["models"][kind]["tokens"]
    picks = first["models"]["transformer"]["picks"] + first["models"]["lstm"]["picks"]
    for pick in picks:
        assert 0 <= pick["probability"] <= 1 and pick["rank"] >= 1
        in_top = [candidate["token"] for candidate in pick["top"]]
        assert (pick["token"] in in_top) == (pick["rank"] <= 5)
    assert any(pick["rank"] > 5 for pick in picks), "a hot, barely trained model draws outside its top 5"
    assert first["models"]["transformer"]["tokens"] != first["models"]["lstm"]["tokens"], "each model draws its own"


def test_the_temperature_sharpens_or_flattens_what_is_sampled_from():
    def first_top(**params) -> float:
        return run(tokens=1, **params)["models"]["transformer"]["picks"][0]["top"][0]["probability"]

    top = {t: first_top(decoding="sample", temperature=t) for t in (0.5, 1.0, 2.0)}
    assert top[0.5] > top[1.0] > top[2.0]
    assert first_top() == pytest.approx(top[1.0]), "greedy shows the plain softmax"


def test_each_model_stands_beside_its_measured_held_out_perplexity():
    result = run()
    transformer, lstm = result["models"]["transformer"], result["models"]["lstm"]
    for model in (transformer, lstm):
        assert model["train_steps"] == 10
        assert math.isfinite(model["held_out_perplexity"]) and model["held_out_perplexity"] > 1
        assert model["held_out_perplexity"] == pytest.approx(math.exp(model["held_out_loss"]))
        assert model["held_out_curve"][-1] == [10, pytest.approx(model["held_out_perplexity"])]
    assert abs(transformer["parameters"] - lstm["parameters"]) / transformer["parameters"] < 0.05, "about the same size"
    assert (f"Transformer {transformer['held_out_perplexity']:.0f}, LSTM {lstm['held_out_perplexity']:.0f}"
            in result["summary"])


def test_the_headline_names_the_model_with_the_lower_perplexity():
    result = run()
    row = generation.headline(result)
    losses = {kind: result["models"][kind]["held_out_loss"] for kind in ("transformer", "lstm")}
    if abs(losses["transformer"] - losses["lstm"]) < generation.CLEAR_GAP:
        assert row["winner"] == "tie"
    else:
        assert row["winner"] == min(losses, key=losses.get)
    assert row["test"] == "Held-out perplexity (lower is better)"
    for kind in ("transformer", "lstm"):
        assert f"{result['models'][kind]['held_out_perplexity']:.0f}" in row["detail"]


def test_an_unknown_word_is_shown_and_named_not_dropped():
    result = run(prompt="We propose a zorblax network")
    prompt = result["prompt"]
    assert prompt["tokens"] == ["We", "propose", "a", "⟨unk: zorblax⟩", "network"]
    assert prompt["unknown"] == [False, False, False, True, False]
    assert result["unknown_words"] == ["zorblax"]
    assert "read as ⟨unk⟩: zorblax" in result["summary"]
    assert result["models"]["lstm"]["text"].startswith("We propose a ⟨unk: zorblax⟩ network")


@pytest.mark.parametrize("prompt, message", [
    ("", "is empty"),
    ("<b>We</b> propose", "not markup such as <b>"),
    ("zorblax quuxify", "has no word the model knows"),
    (" ".join(["model"] * (MAX_TOKENS + 1)), f"at most {MAX_TOKENS} fit"),
])
def test_a_bad_prompt_is_refused_naming_the_prompt_field(prompt, message):
    with pytest.raises(ParamError) as error:
        validate(generation.PARAMS, {"prompt": prompt})
    assert error.value.name == "prompt" and message in error.value.message


def test_the_api_answers_a_markup_prompt_with_400_naming_the_field(client):
    response = client.post("/api/demos/generation/run", json={"prompt": "<script>x</script> We"})
    assert response.status_code == 400
    assert response.get_json()["param"] == "prompt"


@pytest.mark.parametrize("bad", [{"tokens": 0}, {"tokens": 41}, {"steps": 9}, {"steps": 301},
                                 {"temperature": 0}, {"temperature": 2.5}, {"decoding": "beam"}])
def test_every_number_is_bounded(bad):
    with pytest.raises(ParamError):
        validate(generation.PARAMS, bad)


def test_the_models_come_from_the_store_shared_with_the_attention_slides():
    store = ModelStore()
    run_demo(attention_matrix, {"steps": 10}, device=CPU, store=store)  # trains the shared Transformer, 10 steps
    first = run_demo(generation, TINY, device=CPU, store=store)
    assert first["models"]["transformer"]["trained_now"] is False, "the attention slides' Transformer, reused"
    assert first["models"]["lstm"]["trained_now"] is True
    other_prompt = run_demo(generation, {**TINY, "prompt": "Our model learns"}, device=CPU, store=store)
    assert not any(other_prompt["models"][kind]["trained_now"] for kind in ("transformer", "lstm"))
    assert other_prompt["models"]["lstm"]["held_out_perplexity"] == first["models"]["lstm"]["held_out_perplexity"]


def test_progress_streams_the_whole_generation_so_far_after_every_token():
    reports = []
    result = run_demo(generation, {**TINY, "tokens": 4}, progress=lambda f, m, data=None: reports.append((f, data)),
                      device=CPU, store=STORE)
    fractions = [fraction for fraction, _ in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1
    streamed = [data for _, data in reports if data is not None]
    assert [len(data["models"]["transformer"]["picks"]) for data in streamed] == [1, 2, 3, 4]
    assert [len(data["models"]["lstm"]["tokens"]) for data in streamed] == [1, 2, 3, 4]
    assert streamed[-1]["models"]["lstm"]["picks"] == result["models"]["lstm"]["picks"]
    assert len(streamed[0]["models"]["lstm"]["picks"]) == 1, "an earlier report is never changed afterwards"


def test_the_longest_copied_run_is_found_in_the_training_text():
    train = torch.tensor([1, 2, 3, 4, 5, 2, 3])
    assert generation.longest_copy([9, 2, 3, 4, 7], train) == {"start": 1, "length": 3}
    assert generation.longest_copy([5, 2, 3], train) == {"start": 0, "length": 3}
    assert generation.longest_copy([8, 9], train) == {"start": 0, "length": 0}


def test_spaces_follow_the_tokenizer():
    tokens = ["We", "propose", "(", "a", ")", ",", "model", "."]
    assert generation.spaces_before(tokens) == [False, True, True, False, False, False, True, False]


def test_the_terminal_version_prints_both_continuations_and_every_step():
    result = run(tokens=3)
    text = generation.format_text(result)
    for kind in ("transformer", "lstm"):
        model = result["models"][kind]
        assert model["text"] in text and f"held-out perplexity {model['held_out_perplexity']:.1f}" in text
    assert text.count("Transformer:") == 3 and text.count("LSTM:") == 3
    assert result["summary"] in text


def test_the_summary_follows_the_numbers_a_tie_and_an_overfitted_model():
    result = copy.deepcopy(run())
    for kind, perplexity, best in (("transformer", 300.0, {"step": 100, "perplexity": 237.0}),
                                   ("lstm", 305.0, {"step": 10, "perplexity": 305.0})):
        model = result["models"][kind]
        model.update(held_out_perplexity=perplexity, held_out_loss=math.log(perplexity), best=best)
    text = generation.summarize(result, [])
    assert "Transformer 300, LSTM 305; lower is better, within 5%: too close to call." in text
    assert "The Transformer's was 237 at step 100, then rose: overfitting." in text
    assert "The LSTM's" not in text
    assert generation.headline(result)["winner"] == "tie"
