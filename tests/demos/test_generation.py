"""The generative showdown on tiny settings: both models continue the prompt one character at a time
with their top-5 at every step, stand beside their test bits per character over seeds and the
ladder of counting models scored on the same test characters, each with the recipe chosen on the
validation text, and the summary's, the recap's and the poll's words follow those numbers. Both
models learn: below the unigram with every seed, the Transformer reading only the characters before
each one it predicts."""
import json
from pathlib import Path

import pytest
import torch

from demos import generation
from demos.core.python_docs import load
from demos.runtime.params import ParamError, validate
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore, using_store
from demos.shared import tuning
from demos.shared.char_models import CharLM, document_windows, target_positions, trained_models
from demos.shared.contenders import label
from demos.shared.seeds import spread_text
from tests.demos.tiny import TINY as TINY_ALL
from tests.demos.tiny import reads_only_the_past

# Five times the contract's steps: at 20 both models are still about at the unigram (4.7 bits); at 100,
# seeds 0-2 scored 3.43-3.50 bits per character (LSTM) and 3.81-3.84 (Transformer). Untrained: above
# log2(96) = 6.58, chance.
TINY = {**TINY_ALL["generation"], "steps": 100}
MARGIN = 0.5  # bits per character below the unigram, for every seed of both models
CPU = torch.device("cpu")
STORE = ModelStore()  # each (kind, seed, steps) model trains once for the module


def run(**params):
    return run_demo(generation, {**TINY, **params}, device=CPU, store=STORE)


@pytest.fixture(scope="module")
def result():
    return run()


def test_each_model_continues_the_prompt_with_its_top_5_at_every_step(result):
    assert result["read_as"] == "The function returns" and result["n_characters"] == 10
    for model in result["models"].values():
        assert len(model["picks"]) == 10 and model["text"] == "".join(p["char"] for p in model["picks"])
        for pick in model["picks"]:
            probabilities = [c["probability"] for c in pick["top"]]
            assert len(probabilities) == 5 and probabilities == sorted(probabilities, reverse=True)
            assert pick["char"] == pick["top"][0]["char"] and pick["rank"] == 1  # greedy takes the most probable


def test_the_ladder_is_scored_on_the_test_characters_of_the_models_and_each_rung_helps(result):
    b = result["baselines"]
    assert b["test_characters"] == len(target_positions(load(), "test", CharLM.context))
    assert [rung["name"] for rung in b["ngrams"]] == ["unigram", "bigram", "trigram", "4-gram", "5-gram"]
    scores = [b["uniform"]] + [rung["test_bits"] for rung in b["ngrams"]]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 1
    assert result["corpus"]["characters"]["test"] == len(load().texts["test"])


def test_both_models_learn_the_text_beyond_counting_single_characters(result):
    unigram = result["baselines"]["ngrams"][0]
    assert unigram["name"] == "unigram" and unigram["test_bits"] < result["baselines"]["uniform"]
    for kind, model in result["models"].items():
        worst = model["test_bits"]["max"]
        assert worst < unigram["test_bits"] - MARGIN, f"{kind}: {worst:.2f} bits, unigram {unigram['test_bits']:.2f}"
        assert generation.beaten(result, kind) >= 1
        assert f"{label(kind)} {generation.baseline_words(result, kind)}" in result["summary"]


def test_the_transformer_predicts_each_character_from_the_ones_before_it_only():
    with using_store(STORE):
        [(model, _)] = trained_models([CharLM(kind="transformer", seed=0, steps=TINY["steps"])], CPU,
                                      lambda *args: None)
    windows, _ = document_windows(load(), "test", model.cfg.max_len, most=8)
    assert reads_only_the_past(model, windows[:, :-1], model.cfg.vocab_size)


def test_scores_are_test_bits_over_seeds_and_the_summary_quotes_them(result):
    for kind, model in result["models"].items():
        assert len(model["test_bits"]["by_seed"]) == len(result["seeds"])
        assert f"{model['test_bits']['mean']:.2f}" in result["summary"]
        assert all(1 <= step <= TINY["steps"] for step in model["best_step"])
    trigram, five = result["baselines"]["ngrams"][2], result["baselines"]["ngrams"][-1]
    assert f"trigram {trigram['test_bits']:.2f}, 5-gram {five['test_bits']:.2f}" in result["summary"]


def test_each_family_trains_with_the_recipe_chosen_on_validation_and_says_how(result):
    assert result["how_chosen"] == tuning.how_chosen("generation")
    for kind, model in result["models"].items():
        chosen = tuning.chosen("generation", kind)
        assert {key: model["recipe"][key] for key in chosen} == chosen
    assert result["budget"]["characters_per_step"] == CharLM.batch_size * CharLM.context


def test_the_verdict_of_the_summary_the_recap_and_the_poll_is_the_same(result):
    words = {"transformer": "The Transformer was ahead", "lstm": "The LSTM was ahead", "tie": "Neither model"}
    assert result["winner"] == generation.winner(result) == generation.headline(result)["winner"]
    assert words[result["winner"]] in result["summary"]
    transformer, lstm = (result["models"][kind]["test_bits"] for kind in ("transformer", "lstm"))
    assert (f"Transformer {spread_text(transformer, '.2f')}, LSTM {spread_text(lstm, '.2f')}"
            in generation.headline(result)["detail"])


def test_the_words_about_baselines_follow_the_worst_seed():
    ladder = [{"name": name, "test_bits": bits} for name, bits in
              (("unigram", 4.7), ("bigram", 3.7), ("trigram", 2.8), ("4-gram", 2.1), ("5-gram", 1.9))]

    def shaped(worst):
        return {"models": {"lstm": {"test_bits": {"max": worst}}}, "baselines": {"ngrams": ladder}}
    assert generation.baseline_words(shaped(2.5), "lstm") == "beat the trigram with every seed but not the 4-gram"
    assert generation.baseline_words(shaped(2.0), "lstm") == "beat the 4-gram with every seed but not the 5-gram"
    assert generation.baseline_words(shaped(1.8), "lstm") == "beat every counting model up to the 5-gram with every seed"
    assert generation.baseline_words(shaped(4.9), "lstm") == "did not beat even the unigram with every seed"


def test_the_winner_is_named_only_when_every_seed_agrees():
    def shaped(t, l):
        return {"models": {"transformer": {"test_bits": t}, "lstm": {"test_bits": l}}}
    assert generation.winner(shaped({"min": 2.0, "max": 2.1}, {"min": 2.2, "max": 2.3})) == "transformer"
    assert generation.winner(shaped({"min": 2.0, "max": 2.25}, {"min": 2.2, "max": 2.3})) == "tie"
    assert generation.winner(shaped({"min": 2.5, "max": 2.6}, {"min": 2.2, "max": 2.3})) == "lstm"


def test_sampling_follows_the_seed():
    sampled = {"decoding": "sample", "temperature": 2.0, "characters": 30}
    first, again = run(**sampled), run(**sampled)
    assert first["models"]["lstm"]["text"] == again["models"]["lstm"]["text"]
    assert any(p["rank"] > 1 for kind in ("transformer", "lstm") for p in first["models"][kind]["picks"])


def test_the_longest_copied_run_is_found_in_the_training_text():
    training = "the quick brown fox jumps"
    assert generation.longest_copy("a brown fox!", training) == {"start": 1, "length": 10, "text": " brown fox",
                                                                 "printed": 8}
    assert generation.longest_copy("zzz", training)["length"] == 0


def test_a_copied_run_of_indentation_is_not_called_memorised():
    training = "def f():\n" + " " * 60 + "return the value\n"
    assert generation.longest_copy(" " * 55 + "zq", training)["printed"] == 0  # only spaces in common
    assert generation.longest_copy(" " * 55 + "zq" + "  return the val", training)["text"] == "  return the val"


@pytest.mark.parametrize("prompt, words", [("", "empty"), ("   ", "empty"), ("<b>hi</b>", "markup"),
                                           ("x" * 81, "at most 80")])
def test_a_bad_prompt_is_refused_naming_the_prompt_field(prompt, words):
    with pytest.raises(ParamError, match=words) as refused:
        validate(generation.PARAMS, {"prompt": prompt})
    assert refused.value.name == "prompt"


def test_the_terminal_version_prints_both_continuations_and_the_baselines(result):
    text = generation.format_text(result)
    assert "Counting baselines on the same" in text and text.count("The function returns") >= 2
    assert "5-gram" in text and "recipe (chosen on the validation text)" in text


def test_the_summary_calls_a_continuation_memorised_by_the_printed_characters_it_copied():
    result = json.loads((Path(__file__).parents[1] / "browser" / "sweep_results" / "generation.json").read_text())
    assert "Both beat every counting model up to the 5-gram with every seed." in generation.summarize(result)
    lstm = result["models"]["lstm"]
    lstm["copied"] = {"start": 60, "length": 53, "text": " " * 53, "printed": 0}  # the indentation of a code sample
    assert "memorised" not in generation.summarize(result)
    lstm["copied"] = {"start": 0, "length": 45, "text": "x" * 45, "printed": 45}
    assert "The LSTM's continuation repeats 45 characters of the training text word for word: memorised" in (
        generation.summarize(result))
