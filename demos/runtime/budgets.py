"""Budgets per device class: what a demo's default and its prepared run train depends on what the
server has. A 2-core laptop must rerun a slide in class within about a minute and a half; an H100
does the same work in a second or two and can answer questions a laptop cannot (larger models,
longer contexts, more steps) in the same few seconds.

A demo declares its budgets as data, beside its schema:

    BUDGETS = {
        "cpu": {"full": {"steps": 3000}},                       # the CPU's prepared run
        "gpu": {"default": {"steps": 2000}, "full": {...}},     # the GPU's default and prepared run
    }

Each entry lists only the parameters it sets; the rest keep the schema's defaults (an entry never
inherits another's). A device class the demo does not name uses the CPU's entries; a demo with no
BUDGETS has its schema's defaults everywhere and no prepared run. "default" is what a slide shows
and reruns; "full" is what `flask warm --full` prepares the night before.
"""
from types import ModuleType

import torch

TIERS = ("cpu", "gpu")  # device classes: a CUDA GPU, or anything else (a CPU, a laptop's Apple GPU)
RUNS = ("default", "full")
TIER_NAMES = {"cpu": "CPU", "gpu": "GPU"}
RUN_NAMES = {"default": "default", "full": "prepared run", "chosen": "settings chosen in class"}


def tier(device: torch.device | str) -> str:
    """The device class whose budgets `device` gets: "gpu" for a CUDA device, else "cpu"."""
    return "gpu" if torch.device(device).type == "cuda" else "cpu"


def overrides(demo: ModuleType, device: torch.device | str, run: str = "default") -> dict | None:
    """The parameters `demo`'s `run` sets on `device`'s class beyond its schema's defaults ({} for a
    default that keeps them); None where the demo has no such run (no prepared run)."""
    assert run in RUNS, f"unknown run {run!r}; one of {RUNS}"
    budgets = getattr(demo, "BUDGETS", {})
    entries = budgets.get(tier(device), budgets.get("cpu", {}))
    if run == "default":
        return dict(entries.get("default", {}))
    full = entries.get("full")
    return None if full is None else dict(full)


def full_params(demo: ModuleType, device: torch.device | str) -> dict | None:
    """The raw parameters of `demo`'s prepared run on `device`'s class (None: it has none)."""
    return overrides(demo, device, "full")


def described(demo: ModuleType, device: torch.device | str) -> list[dict]:
    """The demo's schema as JSON for the browser, each default the one of `device`'s class."""
    defaults = overrides(demo, device)
    return [{**param.describe(), "default": defaults.get(param.name, param.default)} for param in demo.PARAMS]


def which_run(demo: ModuleType, params: dict, device: torch.device | str) -> str:
    """"default" or "full" where `params` (effective) are that run's on `device`'s class, else "chosen"."""
    from demos.runtime.params import ParamError, validate  # here, not at the top: params imports nothing of ours

    for run in RUNS:
        raw = overrides(demo, device, run)
        try:
            if raw is not None and validate(demo.PARAMS, raw) == params:
                return run
        except ParamError:  # a run this installation cannot make yet (e.g. its recipes are not chosen)
            continue
    return "chosen"


def run_text(device_class: str, run: str) -> str:
    """A class's run in words: "the GPU default", "the CPU prepared run", "settings chosen in class (on a GPU)"."""
    return (f"the {TIER_NAMES[device_class]} {RUN_NAMES[run]}" if run != "chosen"
            else f"{RUN_NAMES[run]} (on a {TIER_NAMES[device_class]})")


def budget_label(demo: ModuleType, params: dict, device: torch.device | str) -> dict:
    """How a result names its budget: {"tier": "gpu", "run": "default", "text": "the GPU default"}."""
    run, device_class = which_run(demo, params, device), tier(device)
    text = run_text(device_class, run)
    return {"tier": device_class, "run": run, "text": text}


def budget_text(result: dict) -> str | None:
    """The budget a result names ("the GPU default"); None for a result computed before budgets were named."""
    return result.get("budget_run", {}).get("text")
