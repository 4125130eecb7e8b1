"""The scripts that keep the docs' figures and picture current: `benchmarks.figures` rewrites only the
blocks it is asked for, and `benchmarks.screenshot` writes the picture the README shows."""
import pytest

from benchmarks import figures, screenshot
from tests.live_server import ROOT

DOC = """intro
<!-- figures:demo_times -->
old deck times
<!-- /figures:demo_times -->
between
<!-- figures:train_step -->
old steps
<!-- /figures:train_step -->
end
"""


def test_a_block_is_replaced_and_nothing_else():
    text = figures.replace_block(DOC, "demo_times", "new deck times\n")
    assert text == DOC.replace("old deck times", "new deck times")


def test_a_missing_block_is_said_before_anything_runs(tmp_path, monkeypatch):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(DOC.replace("train_step", "something_else"))
    monkeypatch.setattr(figures, "DOC", doc)
    monkeypatch.setattr(figures, "run", lambda name, device: pytest.fail("nothing may run"))
    with pytest.raises(ValueError, match="no <!-- figures:train_step --> block"):
        figures.main(["demo_times", "train_step"])


def test_the_named_benchmarks_are_rerun_and_their_blocks_rewritten(tmp_path, monkeypatch):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(DOC)
    monkeypatch.setattr(figures, "DOC", doc)
    monkeypatch.setattr(figures, "ROOT", tmp_path)
    monkeypatch.setattr(figures, "run", lambda name, device: f"Measured today: {name} on {device}\n")
    assert figures.main(["train_step", "--device", "cpu"]) == 0
    assert doc.read_text() == DOC.replace("old steps", "Measured today: train_step on cpu")


def test_an_unknown_benchmark_is_refused(capsys):
    with pytest.raises(SystemExit) as exit:
        figures.main(["nope"])
    assert exit.value.code == 2 and "unknown benchmark(s): nope" in capsys.readouterr().err


def test_the_screenshot_script_writes_the_picture_the_readme_shows():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"]({screenshot.OUT.relative_to(ROOT).as_posix()})" in readme
