"""The terminal side: `python -m demos`, `flask warm`, and demos that never need Flask."""
import json
import os
import subprocess
import sys

import pytest

from demos.__main__ import main as demos_main
from demos.runtime.device import DeviceError, device_label, pick_device
from tests.fixture_app import create_app
from tests.live_server import ROOT


def run(*args, env=None):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def test_the_demos_package_never_imports_flask():
    code = "import sys, demos, demos.__main__, engine; import demos.runtime.runner; assert 'flask' not in sys.modules, 'flask imported'"
    assert run("-c", code).returncode == 0


def test_python_m_demos_lists_the_lectures_demos_and_no_test_fixture():
    out = run("-m", "demos")
    assert out.returncode == 0 and "system_check" in out.stdout and "generation" in out.stdout
    assert "line_fit" not in out.stdout, "the engine's test demo is registered by the tests alone"


def test_the_served_list_of_demos_has_no_test_fixture_either(tmp_path):
    code = ("from app import create_app; "
            f"client = create_app({{'TESTING': True, 'CACHE_DIR': {str(tmp_path)!r}}}).test_client(); "
            "print(sorted(d['id'] for d in client.get('/api/demos').get_json()['demos']))")
    out = run("-c", code)
    assert out.returncode == 0, out.stderr
    assert "'system_check'" in out.stdout and "line_fit" not in out.stdout


# The terminal version runs in this process (`main(argv)` is what `python -m demos` calls), so the
# tests below import PyTorch once; the subprocess tests above show that the command itself starts.
def test_python_m_demos_runs_a_demo_with_a_progress_bar(capsys):
    assert demos_main(["line_fit", "--steps", "40", "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert "After 40 steps the fitted line is" in out
    assert "(cpu," in out and "seed 3" in out
    assert "[" in err and "100%" in err, "a progress bar on stderr"


def test_python_m_demos_json_matches_the_engine(tmp_path, capsys):
    assert demos_main(["line_fit", "--steps", "25", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    client = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path)}).test_client()
    response = client.post("/api/demos/line_fit/run", json={"steps": 25})
    job = client.get(response.get_json()["events"]).get_data(as_text=True)
    served = json.loads(job.strip().split("data: ")[-1])["result"]
    drop = lambda r: {k: v for k, v in r.items() if k != "train_seconds"}
    assert drop(result) == drop(served), "the same demo, parameters and seed give the same result"


@pytest.mark.parametrize("args, words", [
    (["line_fit", "--steps", "0"], "steps: enter a whole number between 1 and 5,000; 0 is too small"),
    (["line_fit", "--steps", "many"], "invalid int value"),
    (["nope"], "unknown demo"),
    (["line_fit", "--device", "cuda"], "no CUDA GPU"),
])
def test_python_m_demos_explains_bad_arguments(args, words, capsys):
    try:
        code = demos_main(args)
    except SystemExit as exit:  # argparse refuses a value it cannot parse
        code = exit.code
    assert code == 2
    assert words in capsys.readouterr().err


def test_flask_warm_trains_everything_once_then_finds_it_cached(tmp_path):
    env = {"FLASK_CACHE_DIR": str(tmp_path / "cache")}
    first = run("-m", "flask", "--app", "tests.fixture_app", "warm", "system_check", "line_fit", env=env)
    assert first.returncode == 0, first.stderr
    assert {row[0]: row[1] for row in warm_table(first.stdout)} == {"system_check": "trained", "line_fit": "trained"}
    # Before it trains it says how long it expects here (from the speed test it runs first), then what it took.
    assert "Timing this machine first" in first.stdout and "Expect up to about" in first.stdout
    assert "Warmed in" in first.stdout and "(expected up to about" in first.stdout
    second = run("-m", "flask", "--app", "tests.fixture_app", "warm", "system_check", "line_fit", env=env)
    assert {row[0]: row[1] for row in warm_table(second.stdout)} == {"system_check": "cached", "line_fit": "cached"}
    assert "Timing this machine" not in second.stdout, "the speed test is kept for the next start"
    assert "Expect up to about 0 s on cpu (2 of 2 already cached)" in second.stdout


def warm_table(stdout: str) -> list[list[str]]:
    """The rows of the table `flask warm` prints last: demo, outcome, seconds."""
    lines = stdout.splitlines()
    header = max(i for i, line in enumerate(lines) if line.startswith("demo "))
    end = next(i for i, line in enumerate(lines) if i > header and line.startswith("total"))
    return [line.split() for line in lines[header + 1:end]]


def test_the_device_can_be_chosen_and_is_named():
    assert pick_device("auto").type == "cpu"  # this machine has no GPU
    assert pick_device("CPU").type == "cpu"
    assert device_label(pick_device("cpu")) == "cpu"
    for bad in ["cuda", "mps", "tpu", "banana"]:
        with pytest.raises(DeviceError):
            pick_device(bad)


def test_flask_device_setting_reaches_the_engine(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "DEVICE": "cpu"})
    assert app.extensions["engine"].device_label == "cpu"
    with pytest.raises(DeviceError):
        create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "DEVICE": "cuda"})


def test_flask_warm_refuses_an_unknown_demo(tmp_path):
    out = run("-m", "flask", "--app", "app", "warm", "nope", env={"FLASK_CACHE_DIR": str(tmp_path)})
    assert out.returncode != 0 and "unknown demo(s): nope" in out.stderr


def test_flask_warm_without_demo_ids_warms_the_deck_in_slide_order(app, monkeypatch):
    from slides import demo_ids
    from web.deck import get_deck
    from web.engine import get_engine

    with app.app_context():
        engine, on_slides = get_engine(), demo_ids(get_deck())
    computed = []
    monkeypatch.setattr(type(engine), "compute", lambda self, demo, params, key, progress=None: computed.append(
        demo.ID) or (None, True))
    result = app.test_cli_runner().invoke(args=["warm"])
    assert result.exit_code == 0, result.output
    assert computed[:len(on_slides)] == on_slides and "recap" not in computed
