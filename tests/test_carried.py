"""Results that travel (engine/carried.py, web/carry.py): `flask results save` on the machine that
measured them, `flask results load` on the one that presents them. A loaded result is shown as
measured elsewhere, never retrained; a file that does not check out is refused whole and changes
nothing; loading a file twice changes nothing the second time."""
import json
import re
from pathlib import Path

import pytest

from engine.carried import checksum
from tests.demos.tiny import cache_as_default
from tests.fixture_app import create_app

QUICK = {"steps": 20, "points": 16}  # line_fit (the tests' own demo) at settings that take a moment


def installation(folder: Path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(folder)})
    return app, app.extensions["engine"]


def cli(app, *args):
    return app.test_cli_runner().invoke(args=list(args))


def snapshot(folder: Path) -> dict:
    """Every file under `folder` and its bytes (locks aside: they are no state)."""
    return {path: path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file() and "locks" not in path.parts}


@pytest.fixture
def saved(tmp_path) -> Path:
    """A file written on installation A holding line_fit's default run and the demo at other settings."""
    app, engine = installation(tmp_path / "a")
    engine.compute(*engine.resolve("line_fit", None))
    answer = cli(app, "results", "save", str(tmp_path / "results.json"), "line_fit")
    assert answer.exit_code == 0, answer.output
    assert "saved line_fit" in answer.output and "Saved 1 results" in answer.output
    return tmp_path / "results.json"


def test_a_saved_file_loads_into_another_installation_labelled_with_where_and_when(tmp_path, saved):
    data = json.loads(saved.read_text())
    assert {"device", "torch", "python", "project", "corpus", "written"} <= set(data["provenance"])
    record = data["results"][0]
    assert record["demo"] == "line_fit" and record["params"]["steps"] == 300 and record["code"] and record["created"]

    app, engine = installation(tmp_path / "b")
    answer = cli(app, "results", "load", str(saved))
    assert answer.exit_code == 0, answer.output
    assert "Loaded 1 results" in answer.output
    entry = engine.cached("line_fit")
    assert entry is not None, "the same settings and code give the same key on every machine: nothing to retrain"
    assert entry.result["slope"] == record["result"]["slope"] and entry.created == record["created"]
    day = int(record["created"][8:10])
    assert entry.result["carried"]["text"].startswith(f"measured on a CPU, {day} ")


def test_loading_the_same_file_twice_changes_nothing_the_second_time(tmp_path, saved):
    app, _ = installation(tmp_path / "b")
    assert cli(app, "results", "load", str(saved)).exit_code == 0
    before = snapshot(tmp_path / "b")
    again = cli(app, "results", "load", str(saved))
    assert again.exit_code == 0 and "Loaded 0 results" in again.output and "1 were here already" in again.output
    assert snapshot(tmp_path / "b") == before


def test_a_result_measured_here_under_the_same_key_is_kept(tmp_path, saved):
    app, engine = installation(tmp_path / "b")
    own = engine.compute(*engine.resolve("line_fit", None))[0]
    answer = cli(app, "results", "load", str(saved))
    assert answer.exit_code == 0 and "measured here too, kept" in answer.output
    assert "carried" not in engine.cached("line_fit").result and engine.cached("line_fit").created == own.created


def rewritten(path: Path, change) -> Path:
    """The file with `change(data)` applied and its checksum made right again: a file that reads as
    intact but comes from elsewhere (another version, another corpus, another project)."""
    data = json.loads(path.read_text())
    change(data)
    data["checksum"] = checksum(data)
    out = path.with_name("foreign.json")
    out.write_text(json.dumps(data))
    return out


def truncated(path: Path) -> Path:
    out = path.with_name("truncated.json")
    out.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    return out


def hand_edited(path: Path) -> Path:
    data = json.loads(path.read_text())
    data["results"][0]["result"]["slope"] = 3.0  # a better-looking number, typed in
    out = path.with_name("edited.json")
    out.write_text(json.dumps(data))
    return out


def written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def without(field):
    def change(data):
        del data["results"][0]["result"][field]
    return change


REFUSALS = {
    "truncated": (truncated, "ends too soon"),
    "cut inside a number": (lambda path: written(path.with_name("n.json"), path.read_bytes()[
        :re.search(rb": -?\d+\.", path.read_bytes()).end()]), "ends too soon"),  # "…": 0.
    "cut inside an exponent": (lambda path: written(path.with_name("e.json"), b'{"format": 1, "results": [1e-'),
                               "ends too soon"),
    "not text": (lambda path: written(path.with_name("x.json"), b"\xff\xfe\x00 garbage"), "it is not text"),
    "not JSON": (lambda path: written(path.with_name("y.json"), b"<html>a captive portal's page</html>"),
                 "it is not JSON (line 1, column 1"),
    "hand-edited": (hand_edited, "changed after it was written"),
    "another format": (lambda path: rewritten(path, lambda d: d.update(format="something else 2")),
                       "not a results file of this project"),
    "another corpus": (lambda path: rewritten(path, lambda d: d["provenance"].update(corpus="0123456789abcdef")),
                       "measured on another corpus"),
    "another demo version": (lambda path: rewritten(path, lambda d: d["results"][0].update(code="feedfacefeedface")),
                             "another version of its code"),
    "an unknown demo": (lambda path: rewritten(path, lambda d: d["results"][0].update(demo="crystal_ball")),
                        "unknown demo, 'crystal_ball'"),
    "settings out of bounds": (lambda path: rewritten(path, lambda d: d["results"][0]["params"].update(steps=10**9)),
                               "settings are not ones this demo accepts"),
    "a result without a summary": (lambda path: rewritten(path, without("summary")),
                                   "lacks what every result says"),
    "a garbled label": (lambda path: rewritten(path, lambda d: d["results"][0]["result"].update(carried={"text": 1})),
                        "says it was carried from elsewhere, but not where or when"),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_file_that_does_not_check_out_is_refused_whole_and_changes_nothing(tmp_path, saved, case):
    make, words = REFUSALS[case]
    app, engine = installation(tmp_path / "b")
    cache_as_default(engine, "system_check")  # something already here, which must stay as it is
    before = snapshot(tmp_path / "b")
    answer = cli(app, "results", "load", str(make(saved)))
    assert answer.exit_code != 0 and "Traceback" not in answer.output
    assert words in answer.output and "Nothing was loaded." in answer.output, answer.output
    assert snapshot(tmp_path / "b") == before


def test_a_result_its_own_demo_cannot_read_is_refused(tmp_path):
    """The demo's own code must read the result: a signal_decay result without its models is not one."""
    app, engine = installation(tmp_path / "a")
    engine.compute(*engine.resolve("signal_decay", {"length": 10, "seeds": 1, "sequences": 2, "width": 8}))
    assert cli(app, "results", "save", "--all", str(tmp_path / "r.json"), "signal_decay").exit_code == 0
    other, _ = installation(tmp_path / "b")
    answer = cli(other, "results", "load", str(rewritten(tmp_path / "r.json", without("models"))))
    assert answer.exit_code != 0 and "signal_decay: its result is not one this demo can read" in answer.output
    assert not (tmp_path / "b" / "results").exists()


def test_bad_commands_say_what_is_wrong(tmp_path):
    app, _ = installation(tmp_path / "b")
    missing = cli(app, "results", "load", str(tmp_path / "nowhere.json"))
    assert missing.exit_code != 0 and "cannot read" in missing.output and "Traceback" not in missing.output
    unknown = cli(app, "results", "save", str(tmp_path / "x.json"), "crystal_ball")
    assert unknown.exit_code != 0 and "unknown demo(s): crystal_ball" in unknown.output


def test_a_carried_run_under_other_settings_is_the_slides_prepared_run_until_retrained_here(tmp_path):
    """A run measured elsewhere at settings this machine does not default to (to a laptop, a GPU's
    budget; here a run at other settings) is what `Engine.prepared` offers the slide, while the
    laptop's own default stays its own; a Retrain here with those settings makes it this machine's."""
    app_a, engine_a = installation(tmp_path / "a")
    engine_a.compute(*engine_a.resolve("line_fit", QUICK))
    assert cli(app_a, "results", "save", "--all", str(tmp_path / "r.json"), "line_fit").exit_code == 0
    app_b, engine_b = installation(tmp_path / "b")
    assert engine_b.prepared("line_fit") is None
    assert cli(app_b, "results", "load", str(tmp_path / "r.json")).exit_code == 0
    prepared = engine_b.prepared("line_fit")
    assert prepared is not None and prepared.result["params"]["steps"] == QUICK["steps"]
    assert prepared.result["carried"]["short"].startswith("CPU run, ")
    assert engine_b.cached("line_fit") is None, "its own default is not measured yet: Run trains it here"
    with app_b.app_context():  # a static copy freezes it as the slide's prepared run, labelled
        from web.export import frozen_results
        _, frozen_prepared, missing = frozen_results(["line_fit"])
    assert missing == [] and frozen_prepared["line_fit"]["carried"] == prepared.result["carried"]
    engine_b.compute(*engine_b.resolve("line_fit", QUICK), force=True)  # Retrain with those settings here
    assert engine_b.prepared("line_fit") is None


@pytest.mark.parametrize("device, short", [("cuda: NVIDIA H100 80GB HBM3", "H100"), ("cuda: NVIDIA A100-SXM4-80GB", "A100"),
                                           ("cuda: NVIDIA GeForce RTX 4090", "RTX 4090"), ("cpu", "CPU"),
                                           ("mps: Apple GPU", "Apple GPU")])
def test_a_carried_run_names_its_device_in_a_word_or_two_on_its_button(device, short):
    from datetime import datetime

    from engine.carried import label

    named = label(device, datetime(2026, 11, 26, 21, 5), {})
    assert named["short"] == f"{short} run, 26 Nov" and named["text"].endswith(", 26 Nov")
