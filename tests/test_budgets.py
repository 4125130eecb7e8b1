"""Budgets per device class (demos/runtime/budgets.py): a server with a CUDA GPU gets a demo's GPU
default and prepared run, anything else the CPU's; the engine, `flask warm --full`, the schema the
Settings form gets and the slide's page all follow the server's class, and a result names its budget.
No GPU is needed: a device only has to look like CUDA (constructing one allocates nothing)."""
import html
import json
import re
from types import ModuleType

import pytest
import torch

from demos import DEMOS, system_check
from demos.runtime.budgets import budget_label, described, full_params, tier, which_run
from demos.runtime.params import Param, seed_param, validate
from demos.runtime.runner import effective_params, run_demo
from engine import Engine
from tests import line_fit
from tests.deck import slide_path

CUDA = torch.device("cuda")  # a device that looks like a GPU; nothing runs on it here


def fake_demo(budgets: dict | None) -> ModuleType:
    """A demo module with a schema and, unless None, these BUDGETS."""
    demo = ModuleType("fake_demo")
    demo.ID = "fake_demo"
    demo.PARAMS = [seed_param(), Param("steps", "int", 100, "Training steps", 1, 10_000),
                   Param("width", "int", 16, "Model width", 4, 128)]
    if budgets is not None:
        demo.BUDGETS = budgets
    return demo


BOTH = fake_demo({"cpu": {"full": {"steps": 500}},
                  "gpu": {"default": {"steps": 2000}, "full": {"steps": 8000, "width": 64}}})


@pytest.mark.parametrize("device, expected", [
    (CUDA, "gpu"), (torch.device("cuda:1"), "gpu"), ("cuda", "gpu"),
    (torch.device("cpu"), "cpu"), ("cpu", "cpu"), (torch.device("mps"), "cpu"), ("mps", "cpu"),
])
def test_the_device_class_is_chosen_by_the_device(device, expected):
    assert tier(device) == expected


def test_a_gpu_server_gets_the_gpu_default_and_a_cpu_the_cpus():
    assert effective_params(BOTH, None, CUDA) == {"seed": 0, "steps": 2000, "width": 16}
    assert effective_params(BOTH, None, "cuda")["steps"] == 2000
    assert effective_params(BOTH, None, torch.device("cpu")) == {"seed": 0, "steps": 100, "width": 16}
    assert effective_params(BOTH, {}, "mps")["steps"] == 100, "a laptop's Apple GPU counts as a CPU"


def test_a_value_asked_for_wins_over_the_class_default():
    assert effective_params(BOTH, {"steps": 50}, CUDA) == {"seed": 0, "steps": 50, "width": 16}
    assert effective_params(BOTH, {"width": 32}, CUDA)["steps"] == 2000, "the rest keep the class's default"


def test_a_class_the_demo_does_not_name_uses_the_cpus_entries():
    cpu_only = fake_demo({"cpu": {"default": {"steps": 300}, "full": {"steps": 900}}})
    assert effective_params(cpu_only, None, CUDA)["steps"] == 300
    assert full_params(cpu_only, CUDA) == full_params(cpu_only, "cpu") == {"steps": 900}


def test_the_prepared_run_is_the_classs_and_none_where_there_is_none():
    assert full_params(BOTH, CUDA) == {"steps": 8000, "width": 64}
    assert full_params(BOTH, "cpu") == {"steps": 500}
    assert full_params(fake_demo(None), CUDA) is None and full_params(fake_demo(None), "cpu") is None
    gpu_default_only = fake_demo({"gpu": {"default": {"steps": 2000}}})
    assert full_params(gpu_default_only, CUDA) is None and full_params(gpu_default_only, "cpu") is None
    assert effective_params(fake_demo(None), None, CUDA) == validate(fake_demo(None).PARAMS, None), \
        "no BUDGETS: the schema's defaults everywhere"


def test_the_schema_the_browser_gets_carries_the_classs_defaults():
    on_gpu = {param["name"]: param["default"] for param in described(BOTH, CUDA)}
    on_cpu = {param["name"]: param["default"] for param in described(BOTH, "cpu")}
    assert on_gpu == {"seed": 0, "steps": 2000, "width": 16} and on_cpu == {"seed": 0, "steps": 100, "width": 16}


@pytest.mark.parametrize("device, raw, run, text", [
    (CUDA, None, "default", "the GPU default"),
    (CUDA, {"steps": 8000, "width": 64}, "full", "the GPU prepared run"),
    (CUDA, {"steps": 100}, "chosen", "settings chosen in class (on a GPU)"),
    ("cpu", None, "default", "the CPU default"),
    ("cpu", {"steps": 500}, "full", "the CPU prepared run"),
    ("cpu", {"steps": 2000}, "chosen", "settings chosen in class (on a CPU)"),  # the GPU's default, on a CPU
])
def test_a_run_is_named_by_its_budget(device, raw, run, text):
    params = effective_params(BOTH, raw, device)
    assert which_run(BOTH, params, device) == run
    assert budget_label(BOTH, params, device) == {"tier": tier(device), "run": run, "text": text}


def test_a_result_names_its_budget():
    result = run_demo(line_fit, {"steps": 5, "points": 8}, device=torch.device("cpu"))
    assert result["budget_run"] == {"tier": "cpu", "run": "chosen", "text": "settings chosen in class (on a CPU)"}
    assert run_demo(system_check, None, device=torch.device("cpu"))["budget_run"]["text"] == "the CPU default"


# ---- the server: its engine's device picks the class

LINE_FIT_BUDGETS = {"cpu": {"default": {"steps": 40}, "full": {"steps": 7}},
                    "gpu": {"default": {"steps": 60}, "full": {"steps": 9, "points": 16}}}


@pytest.fixture
def line_fit_budgets(monkeypatch):
    monkeypatch.setattr(line_fit, "BUDGETS", LINE_FIT_BUDGETS, raising=False)


def on_a_gpu(app, monkeypatch) -> None:
    """The app's engine looks like a GPU server's: its device is CUDA, and it names one."""
    monkeypatch.setattr(app.extensions["engine"], "device", CUDA)
    monkeypatch.setattr(Engine, "device_label", property(lambda self: "cuda: a test GPU"))


def test_an_engine_on_cuda_resolves_no_settings_to_the_gpu_default(tmp_path, line_fit_budgets):
    engine = Engine(tmp_path / "cache", device="cpu")  # then made to look like CUDA: only resolving follows it
    demo, params, key = engine.resolve("line_fit", None)
    assert params["steps"] == 40 and key == engine.default_key(demo)
    engine.device = CUDA
    demo, params, key = engine.resolve("line_fit", None)
    assert params == validate(line_fit.PARAMS, {"steps": 60})
    assert key == engine.default_key(demo) == engine.key(demo, params)
    assert engine.resolve("line_fit", {"steps": 12})[1]["steps"] == 12


def test_warm_full_prepares_the_gpu_run_on_a_gpu_server(app, monkeypatch, line_fit_budgets):
    on_a_gpu(app, monkeypatch)
    trained = []

    def compute(self, demo, params, key, progress=None):  # nothing trains: the runs warm would train
        trained.append((demo.ID, params))
        return None, True
    monkeypatch.setattr(Engine, "compute", compute)
    outcome = app.test_cli_runner().invoke(args=["warm", "--full", "line_fit", "system_check"])
    assert outcome.exit_code == 0, outcome.output
    assert "Warming 3 demo runs on cuda: a test GPU" in outcome.output
    assert "line_fit (full)" in outcome.output and "system_check (full)" not in outcome.output
    assert trained == [("line_fit", validate(line_fit.PARAMS, {"steps": 60})),
                       ("system_check", validate(system_check.PARAMS, None)),
                       ("line_fit", validate(line_fit.PARAMS, {"steps": 9, "points": 16}))]


def test_warm_help_names_the_prepared_run_of_the_device_class(app):
    outcome = app.test_cli_runner().invoke(args=["warm", "--help"])
    assert outcome.exit_code == 0 and "FULL_PARAMS" not in outcome.output
    assert "prepared longer run" in outcome.output and "CPU or GPU" in outcome.output


@pytest.mark.parametrize("gpu, steps", [(False, 40), (True, 60)], ids=["cpu", "gpu"])
def test_the_schema_the_browser_gets_has_the_servers_defaults(app, client, monkeypatch, line_fit_budgets, gpu, steps):
    if gpu:
        on_a_gpu(app, monkeypatch)
    else:  # whatever this machine has
        monkeypatch.setattr(app.extensions["engine"], "device", torch.device("cpu"))
    schema = {param["name"]: param for param in client.get("/api/demos/line_fit").get_json()["params"]}
    assert schema["steps"]["default"] == steps
    assert schema["steps"]["min"] == 1 and schema["steps"]["max"] == 5000, "the rest of the schema is the demo's"
    listed = next(row for row in client.get("/api/demos").get_json()["demos"] if row["id"] == "line_fit")
    assert listed["params"] == list(schema.values())


def widget_html(page: str, demo_id: str) -> str:
    start = page.index(f'data-demo="{demo_id}"')
    return page[start:page.index('class="demo-summary"', start)]


def test_the_slides_settings_and_longer_run_follow_the_servers_class(app, client, monkeypatch):
    """The Settings form holds this server's defaults (Defaults puts them back), and the "Longer run"
    button looks up this server's prepared run."""
    monkeypatch.setattr(system_check, "BUDGETS", {"gpu": {"default": {"size": 2048},
                                                          "full": {"size": 2048, "repeats": 31}}}, raising=False)
    on_a_gpu(app, monkeypatch)
    widget = widget_html(client.get(slide_path("system_check")).get_data(as_text=True), "system_check")
    assert re.search(r'name="size"[^>]*value="2048"', widget) and re.search(r'name="repeats"[^>]*value="7"', widget)
    full = re.search(r'data-full-params="([^"]*)"', widget)
    assert full and json.loads(html.unescape(full.group(1))) == {"size": 2048, "repeats": 31}


def test_on_a_cpu_server_the_slide_keeps_the_cpus_defaults_and_prepared_run(app, client, monkeypatch):
    monkeypatch.setattr(app.extensions["engine"], "device", torch.device("cpu"))
    widget = widget_html(client.get(slide_path("index_lookup")).get_data(as_text=True), "index_lookup")
    index_lookup = DEMOS["index_lookup"]
    defaults = validate(index_lookup.PARAMS, None)
    assert re.search(rf'name="steps"[^>]*value="{defaults["steps"]}"', widget)
    full = re.search(r'data-full-params="([^"]*)"', widget)
    assert full and json.loads(html.unescape(full.group(1))) == full_params(index_lookup, "cpu")
    assert "data-full-params" not in widget_html(client.get(slide_path("system_check")).get_data(as_text=True),
                                                 "system_check"), "no prepared run: no Longer run to look up"


def test_a_prepared_run_this_installation_cannot_make_is_named_by_warm_and_offered_nowhere(app, client, monkeypatch):
    """A GPU's prepared run may need what this installation lacks (a sweep's learning rates not chosen
    yet): `warm --full` says why it failed, and the slide, the presenter view and the recap carry on."""
    on_a_gpu(app, monkeypatch)
    monkeypatch.setattr(line_fit, "BUDGETS", {"gpu": {"full": {"steps": 10**6}}}, raising=False)
    monkeypatch.setattr(system_check, "BUDGETS", {"gpu": {"full": {"size": 10**6}}}, raising=False)
    engine = app.extensions["engine"]
    assert engine.full_params(system_check) is None and engine.cached_full("system_check") is None
    monkeypatch.setattr(Engine, "compute", lambda self, demo, params, key, progress=None: (None, True))
    outcome = app.test_cli_runner().invoke(args=["warm", "--full", "line_fit"])
    assert outcome.exit_code == 1 and "Traceback" not in outcome.output
    assert re.search(r"line_fit \(full\) +FAILED: steps", outcome.output)
    widget = widget_html(client.get(slide_path("system_check")).get_data(as_text=True), "system_check")
    assert "data-full-params" not in widget
    assert client.get("/api/measured").status_code == 200 and client.get("/api/recap").status_code == 200
