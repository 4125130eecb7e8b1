"""Parameter schemas: defaults, bounds, types, and messages that name what is allowed."""
import math

import pytest

from demos import DEMOS
from demos.runtime.params import Param, ParamError, seed_param, validate

SCHEMA = [
    seed_param(),
    Param("steps", "int", 100, "Training steps", 1, 1000),
    Param("lr", "float", 0.01, "Learning rate", 1e-4, 1.0),
    Param("greedy", "bool", True, "Pick the likeliest token"),
    Param("prompt", "str", "We propose a", "Text to continue", 1, 50),
    Param("width", "choice", 64, "Model width", choices=(32, 64, 128)),
    Param("lengths", "multi", [64, 256], "Lengths to time", 1, 3, choices=(64, 128, 256, 512)),
]


def test_defaults_fill_in_what_is_not_given_in_schema_order():
    params = validate(SCHEMA, {"steps": 5})
    assert list(params) == [p.name for p in SCHEMA]
    assert params == {"seed": 0, "steps": 5, "lr": 0.01, "greedy": True, "prompt": "We propose a",
                      "width": 64, "lengths": [64, 256]}
    assert validate(SCHEMA, None) == validate(SCHEMA, {})


def test_values_are_normalised_so_equal_requests_share_one_cache_key():
    assert validate(SCHEMA, {"steps": 5.0})["steps"] == 5 and isinstance(validate(SCHEMA, {"steps": 5.0})["steps"], int)
    assert isinstance(validate(SCHEMA, {"lr": 1})["lr"], float)
    assert validate(SCHEMA, {"lengths": [512, 64]})["lengths"] == [64, 512]


@pytest.mark.parametrize("raw, name, words", [
    ({"steps": 0}, "steps", "enter a whole number between 1 and 1,000; 0 is too small"),
    ({"steps": 1001}, "steps", "between 1 and 1,000; 1,001 is too large"),
    ({"seed": 10**30}, "seed", "between 0 and 2,147,483,647; that is too large"),
    ({"steps": ""}, "steps", "is empty: enter a whole number between 1 and 1,000"),
    ({"steps": 2.5}, "steps", "whole number between 1 and 1,000, without a fraction"),
    ({"steps": "10"}, "steps", "enter a whole number between 1 and 1,000"),
    ({"steps": True}, "steps", "enter a whole number"),
    ({"steps": None}, "steps", "enter a whole number"),
    ({"lr": math.nan}, "lr", "finite"),
    ({"lr": math.inf}, "lr", "finite"),
    ({"lr": 2.0}, "lr", "between 0.0001 and 1"),
    ({"greedy": "yes"}, "greedy", "true or false"),
    ({"prompt": "x" * 51}, "prompt", "at most 50 characters"),
    ({"prompt": "   "}, "prompt", "at least 1"),
    ({"prompt": "a\x00b"}, "prompt", "control characters"),
    ({"prompt": ["a"]}, "prompt", "must be text"),
    ({"width": 48}, "width", "one of 32, 64, 128"),
    ({"width": "64"}, "width", "one of"),
    ({"lengths": 64}, "lengths", "list"),
    ({"lengths": []}, "lengths", "between 1 and 3"),
    ({"lengths": [64, 64]}, "lengths", "twice"),
    ({"lengths": [64, 100]}, "lengths", "one of"),
    ({"lengths": [64, 128, 256, 512]}, "lengths", "between 1 and 3"),
    ({"seed": -1}, "seed", "between 0 and"),
    ({"bogus": 1}, "bogus", "not a parameter"),
])
def test_bad_values_are_refused_with_a_message_naming_the_parameter(raw, name, words):
    with pytest.raises(ParamError) as caught:
        validate(SCHEMA, raw)
    assert caught.value.name == name
    assert words in str(caught.value)


@pytest.mark.parametrize("raw", [[1, 2], "seed=1", 3])
def test_parameters_must_be_an_object(raw):
    with pytest.raises(ParamError, match="JSON object"):
        validate(SCHEMA, raw)


def test_a_schema_with_an_invalid_default_is_a_bug_caught_at_import():
    with pytest.raises(ParamError):
        Param("steps", "int", 0, "Training steps", 1, 10)


@pytest.mark.parametrize("demo", DEMOS.values(), ids=list(DEMOS))
def test_every_demo_schema_is_bounded_and_has_a_seed(demo):
    names = [p.name for p in demo.PARAMS]
    assert "seed" in names and len(set(names)) == len(names)
    for param in demo.PARAMS:
        assert param.help
        if param.type in ("int", "float", "str"):
            assert param.max is not None, f"{demo.ID}.{param.name} needs an upper bound"
        if param.type in ("int", "float"):
            assert param.min is not None, f"{demo.ID}.{param.name} needs a lower bound"
