"""The attention web: the selected head's arcs and Table 1 filled in for this sentence, drawn from the
shared language model, which has learned (below the unigram on held-out abstracts) and reads each word
with the words before it only."""
import math
from dataclasses import replace

import pytest

from demos import attention_web
from demos.core.corpus import load
from demos.runtime.storage import using_store
from demos.shared.language_models import SHARED, language_model
from tests.demos.tiny import (CPU, FEW_STEPS, SHARED_MODELS, as_tensor, held_out_sentences, reads_only_the_past,
                              run_on_shared_model, unigram_nats)

# After FEW_STEPS (40) steps, seeds 0-3 scored 5.66-5.72 nats on the held-out abstracts; the unigram 5.96
# (add-one), a model with random weights 7.4 (ln of the 1,343 words is 7.2).
HELD_OUT_MARGIN = 0.1  # nats below the unigram


def test_the_web_shows_the_selected_head_and_the_complexity_table_for_this_sentence():
    result = run_on_shared_model(attention_web, layer=2, head=2)
    assert result["weights"] == result["all_weights"][1][1]
    assert len(result["all_weights"]) == 2 and len(result["all_weights"][0]) == 4
    table = result["complexity"]
    assert "Vaswani et al. (2017)" in table["source"]
    assert [row["per_layer"] for row in table["rows"]] == ["O(n²·d)", "O(n·d²)"]
    assert table["attention_ops"] == 10 * 10 * 64 and table["recurrent_ops"] == 10 * 64 * 64
    for link in result["links"]:
        assert link["to"] <= link["from"]
        assert link["weight"] == pytest.approx(max(result["weights"][link["from"]][: link["from"] + 1]))


@pytest.mark.parametrize("layer, head", [(1, 1), (2, 4)])
def test_every_token_draws_on_earlier_words_only(layer, head):
    result = run_on_shared_model(attention_web, layer=layer, head=head)
    for heads in result["all_weights"]:
        for weights in heads:
            assert (as_tensor(weights).triu(1) == 0).all(), "a word gives weight to a later one"


def test_the_shared_model_has_learned_beyond_word_frequencies():
    about = run_on_shared_model(attention_web)["model"]
    corpus = load()
    unigram = unigram_nats(corpus.train_ids, corpus.held_out_ids, len(corpus.tokenizer))
    assert about["trained"] and about["steps"] == FEW_STEPS["steps"]
    assert about["held_out_loss"] < unigram - HELD_OUT_MARGIN, (about["held_out_loss"], unigram)
    assert about["held_out_perplexity"] == pytest.approx(math.exp(about["held_out_loss"]))


def test_the_shared_model_reads_each_word_with_the_words_before_it_only():
    with using_store(SHARED_MODELS):
        model, _, _ = language_model(replace(SHARED, seed=0, **FEW_STEPS), CPU)
    assert reads_only_the_past(model, held_out_sentences(), len(load().tokenizer))
