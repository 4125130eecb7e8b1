"""Each demo's `work(params)`: a run's cost in units of the server's speed test, which the estimates
before a first run are made of; less when a model the run needs is kept from an earlier slide."""
from dataclasses import asdict, replace

import pytest

from demos import DEMOS, generation, signal_decay
from demos.core.models import ModelConfig, build_model
from demos.runtime.params import validate
from demos.runtime.storage import ModelStore, using_store
from demos.shared import language_models
from demos.shared.char_models import CharLM, store_key
from demos.shared.language_models import SHARED
from slides import demo_ids, load_deck

TINY = build_model(ModelConfig(kind="lstm", vocab_size=5, n_out=5, width=8))


def defaults(demo_id: str) -> dict:
    return validate(DEMOS[demo_id].PARAMS, None)


@pytest.mark.parametrize("demo_id", demo_ids(load_deck()))
def test_every_slide_demo_counts_its_work(demo_id):
    with using_store(ModelStore()):
        assert DEMOS[demo_id].work(defaults(demo_id)) > 0


def test_slide_twos_training_steps_cost_far_more_than_its_measurement():
    # The case: 30 training steps were estimated at "about 3 s" and took 28.8 s.
    default = defaults("signal_decay")
    assert signal_decay.work({**default, "train_steps": 30}) > 8 * signal_decay.work(default)


@pytest.mark.parametrize("demo_id", ["attention_web", "attention_matrix"])
def test_the_attention_slides_cost_little_once_the_shared_model_is_kept(demo_id):
    params, store = defaults(demo_id), ModelStore()
    with using_store(store):
        untrained = DEMOS[demo_id].work(params)
        settings = replace(SHARED, seed=params["seed"], steps=params["steps"])
        store.keep("language_model", asdict(settings), language_models.__name__, TINY, {})
        assert DEMOS[demo_id].work(params) < untrained / 20


def test_the_showdown_costs_less_for_each_character_model_kept():
    params, store = defaults("generation"), ModelStore()
    with using_store(store):
        none_kept = generation.work(params)
        kept = CharLM(kind="lstm", seed=params["seed"], steps=params["steps"])
        store.keep("char_lm", store_key(kept), "demos.shared.char_models", TINY, {})
        one_kept = generation.work(params)
    assert one_kept < none_kept and DEMOS["context_scaling"].work(defaults("context_scaling")) > 0
