"""The live demos: pure Python and PyTorch, never Flask, so each also runs from a terminal
(`python -m demos <id>`) and on a GPU machine that has only PyTorch.

A demo is a module with:
  ID, TITLE                      its id (as the slides name it) and a human title;
  PARAMS                         a list of `demos.params.Param`, always including `seed`;
  run(params, progress, device)  → a JSON-safe dict (numbers, strings, lists), with a
                                 one-paragraph `summary` of what was measured;
  format_text(result)            → the result as text for the terminal;
and, if its parameters need more checking than their schema gives,
  check_params(params)           raising demos.params.ParamError (run before any job is queued).
"""
from types import ModuleType

from demos import (amnesia, attention_matrix, attention_web, context_scaling, dyck, generation, index_lookup,
                   line_fit, qkv, recall_vs_length, signal_decay, speed_race, system_check, training_progression)

DEMOS: dict[str, ModuleType] = {module.ID: module for module in (
    system_check, signal_decay, amnesia, recall_vs_length, index_lookup,
    attention_web, qkv, attention_matrix, training_progression, speed_race, context_scaling, generation, dyck,
    line_fit)}


class UnknownDemo(KeyError):
    pass


def get_demo(demo_id: str) -> ModuleType:
    try:
        return DEMOS[demo_id]
    except KeyError:
        raise UnknownDemo(demo_id) from None


def describe(demo: ModuleType) -> dict:
    """A demo's id, title and parameter schema, as JSON for the browser."""
    return {"id": demo.ID, "title": demo.TITLE, "params": [p.describe() for p in demo.PARAMS]}
