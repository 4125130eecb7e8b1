"""Prepared on a GPU server, presented from a laptop: results saved by `flask results save` on one
installation and loaded by `flask results load` into another are what the second's slide shows,
labelled with the device and the date they were measured on, without retraining; Run still trains
at the laptop's own budget, and the carried run stays one button away.

This machine has no GPU, so installation A pretends to be one where a result names its device and
budget (its device label and its device class); what it computes, saves and what B checks and shows
are the real code."""
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from demos import DEMOS
from tests.deck import slide_path
from tests.live_server import ROOT, LiveServer

H100 = "cuda: NVIDIA H100 80GB HBM3"
GPU_DEFAULT = {"length": 30, "seeds": 1, "sequences": 4, "width": 8}  # A's "GPU" default: seconds on a CPU


@pytest.fixture
def laptop(tmp_path, monkeypatch):
    """Installation B, a CPU server, with the file written on A loaded into its cache; its URL."""
    import demos.runtime.budgets as budgets
    import demos.runtime.runner as runner
    import engine.engine as engine_module
    from tests.fixture_app import create_app

    with monkeypatch.context() as gpu:  # A: results labelled as an H100's, at its class's budget
        gpu.setattr(budgets, "tier", lambda device: "gpu")
        gpu.setattr(runner, "device_label", lambda device: H100)
        gpu.setattr(engine_module, "device_label", lambda device: H100)
        gpu.setattr(DEMOS["signal_decay"], "BUDGETS", {"gpu": {"default": GPU_DEFAULT}}, raising=False)
        app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "a")})
        app.extensions["engine"].compute(*app.extensions["engine"].resolve("signal_decay", None))
        saved = app.test_cli_runner().invoke(args=["results", "save", str(tmp_path / "h100.json"), "signal_decay"])
        assert saved.exit_code == 0 and "saved signal_decay" in saved.output, saved.output

    loaded = subprocess.run([sys.executable, "-m", "flask", "--app", "tests.fixture_app", "results", "load",
                             str(tmp_path / "h100.json")], cwd=ROOT, capture_output=True, text=True,
                            env={"FLASK_CACHE_DIR": str(tmp_path / "b"), "PATH": "/usr/bin:/bin"})
    assert loaded.returncode == 0 and "Loaded 1 results" in loaded.stdout, loaded.stdout + loaded.stderr
    with LiveServer(tmp_path / "b") as live:
        yield live


def test_a_carried_result_is_shown_labelled_and_run_trains_here_beside_it(browser, laptop, screenshot_path):
    from tests.browser.watch import watched_page

    context, page, watch = watched_page(browser, laptop.url, 1024, 768)
    page.goto(laptop.url + slide_path("signal_decay"))
    widget = page.locator("#slide-signal_decay .demo")
    badge = widget.locator(".demo-badge")
    carried_badge = re.compile(r"^carried · measured on NVIDIA H100 80GB HBM3, \d{1,2} [A-Z][a-z]{2}, in [\d.]+ s · the GPU default$")
    expect(badge).to_have_text(carried_badge)
    expect(widget.locator(".demo-longer")).to_be_hidden()  # no run of this laptop's to go back to yet
    expect(widget.locator(".demo-run")).to_have_text("Run here")
    expect(widget.locator(".demo-output .main-svg").first).to_be_visible()  # its chart, drawn
    page.screenshot(path=screenshot_path("carried-result-1024.png"))
    listed = page.request.get(laptop.url + "/api/demos/signal_decay").json()
    assert listed["job"] is None and listed["cached"] is False, "shown without training anything here"

    measured = page.request.get(laptop.url + "/api/measured").json()["slides"]
    row = next(runs for runs in measured.values() if any(run["device"] == H100 for run in runs))
    assert row[0]["run"] == "carried run" and row[0]["budget"] == "the GPU default"
    recap = {row["demo"]: row for row in page.request.get(laptop.url + "/api/recap").json()["rows"]}
    assert recap["signal_decay"]["device"] == H100 and recap["signal_decay"]["carried"].startswith("measured on NVIDIA H100")

    widget.locator(".demo-run").click()  # this laptop's own run, at its own budget
    expect(badge).to_have_text(re.compile(r"^trained just now on cpu in [\d.]+ s · the CPU default$"), timeout=120_000)
    button = widget.locator(".demo-longer")
    expect(button).to_have_text(re.compile(r"^H100 run, \d{1,2} [A-Z][a-z]{2}$"))
    button.click()
    expect(badge).to_have_text(carried_badge)
    expect(button).to_have_text("Back to the quick run")
    button.click()
    expect(badge).to_have_text(re.compile(r"· the CPU default$"))
    page.keyboard.press("End")  # the closing recap says which of its rows were measured elsewhere
    expect(page.locator("#slide-recap .recap-device")).to_have_text(
        "Measured on cuda: NVIDIA H100 80GB HBM3 · the GPU default; 1 of 1 rows carried in from another machine, "
        "each saying where and when.")
    context.close()
    assert not watch.errors, watch.errors
    assert not watch.outside_requests, watch.outside_requests
