"""The live demos, one module each: `ls demos/` is the lecture's list of demos. Pure Python and
PyTorch, never Flask, so each also runs from a terminal (`python -m demos <id>`) and on a GPU
machine that has only PyTorch. What they share lives in three subpackages:

  core/      what a student reads to learn: the three models, the training loop, the tasks,
             the corpus and tokenizer, curve fits;
  runtime/   how any demo runs: parameters, device, seeding and timing, the model store,
             code versions, files, progress;
  shared/    experiment code several demos use: the contenders, classifier training and
             scoring, the language models, the recap's headlines.

A demo module `demos/<id>.py` has:
  ID, TITLE                      its id (the module's name; the slide `slides/NN-<id>.md`, the renderer
                                 `static/js/demos/renderers/<id>.js` and the test `tests/demos/test_<id>.py`
                                 share it, and each is found by that name alone) and a title;
  PARAMS                         a list of `demos.runtime.params.Param`, always including `seed`;
  TINY                           the parameters it changes for a test: a run of seconds on a CPU
                                 (tests/demos/tiny.py; the contract tests run every demo on them);
  run(params, progress, device)  → a JSON-safe dict (numbers, strings, lists), with a
                                 one-paragraph `summary` of what was measured;
  format_text(result)            → the result as text for the terminal;
and, where they apply,
  headline(result)               → the recap row for the last slide (`demos.shared.recap.headline`),
                                 its winner one of `demos.shared.contenders.OUTCOMES`;
  CONTEST = False                its headline is an illustration: shown in the recap, never counted;
  QUANTITIES                     what a slide may quote from a result, by name
                                 (`demos.shared.quantities.declared(reader, ...)`: small functions
                                 of the result, each with a one-line docstring); a number poll's
                                 `measured:` names one;
  BUDGETS                        its defaults and prepared run per device class ("cpu", "gpu": a CUDA
                                 GPU), `demos.runtime.budgets`: {"cpu": {"full": {...}}, "gpu":
                                 {"default": {...}, "full": {...}}}, each entry only the parameters
                                 it changes from PARAMS' defaults. "default" is what the slide shows
                                 and reruns on that class; "full" the longer run `flask warm --full`
                                 prepares. A class not named uses the CPU's entries; without BUDGETS
                                 the schema's defaults hold everywhere and there is no prepared run.
"""
import pkgutil
from importlib import import_module
from pathlib import Path
from types import ModuleType

SUBPACKAGES = ("core", "runtime", "shared")


def _demo_modules() -> list[ModuleType]:
    names = [info.name for info in pkgutil.iter_modules([str(Path(__file__).parent)])
             if not info.ispkg and not info.name.startswith("_")]
    return [import_module(f"{__name__}.{name}") for name in sorted(names)]


DEMOS: dict[str, ModuleType] = {module.ID: module for module in _demo_modules()}


class UnknownDemo(KeyError):
    pass


def get_demo(demo_id: str) -> ModuleType:
    try:
        return DEMOS[demo_id]
    except KeyError:
        raise UnknownDemo(demo_id) from None
