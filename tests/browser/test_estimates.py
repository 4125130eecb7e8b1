"""Estimates on a fresh server, and a time left that moves: the slide says how long a demo will take
before its first run (from the server's own speed test), and while a run goes on its time left counts
down between the job's reports."""
import json
import re
import time
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests.deck import slide_path
from tests.live_server import LiveServer

JOB = "0123456789abcdef"
START = datetime(2030, 1, 1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A fresh server that measures its speed when it starts, as a lecturer's does."""
    with LiveServer(tmp_path_factory.mktemp("estimates") / "cache", env={"FLASK_CALIBRATE": "1"}) as live:
        yield live


def speed_test_done(server, timeout: float = 120) -> None:
    """Wait until the server has measured its speed (a second or two on a quiet machine; a page asking
    sooner waits for it up to 10 s, then shows no figure until its next question)."""
    deadline = time.monotonic() + timeout
    while not (server.cache_dir / "calibration.json").exists():
        assert time.monotonic() < deadline, "the speed test did not finish"
        time.sleep(0.1)


def test_a_demo_never_run_here_has_an_estimate_from_the_speed_test(open_page, server, screenshot_path):
    speed_test_done(server)
    page = open_page(slide_path("signal_decay"), 1024, 768)
    widget = page.locator("#slide-signal_decay .demo")
    expect(widget.locator(".demo-estimate")).to_have_text(re.compile(r"^(about \d+ (s|min( \d+ s)?)|under a second) on cpu$"), timeout=30_000)
    expect(widget.locator(".demo-estimate")).to_have_attribute("title", re.compile("speed test"))
    expect(widget.locator(".demo-placeholder")).to_contain_text(re.compile(r"Press Run to measure it on cpu: (about \d+ (s|min( \d+ s)?)|under a second)\."))
    page.screenshot(path=screenshot_path("estimate-before-first-run-1024.png"))


def test_the_time_left_counts_down_between_reports(open_page, server, screenshot_path):
    speed_test_done(server)
    page = open_page(slide_path("signal_decay"), 1024, 768)
    page.clock.install(time=START)
    page.clock.pause_at(START + timedelta(seconds=1))  # from here on, time moves only when the test says
    events = f"/api/jobs/{JOB}/events"
    # A job that reports once, 20 s before its end, and then says nothing more (as the speed race
    # does between two timings); the stream asks the browser not to reconnect for ten minutes.
    page.route("**/api/demos/signal_decay/run", lambda route: route.fulfill(
        status=202, content_type="application/json",
        body=json.dumps({"job": JOB, "status": "queued", "progress": 0, "message": "waiting", "events": events,
                         "cancel": f"/api/jobs/{JOB}/cancel", "cancel_token": "x"})))
    report = {"job": JOB, "status": "running", "progress": 0.2, "message": "step 20/100", "eta_seconds": 20.0}
    page.route(f"**{events}", lambda route: route.fulfill(
        status=200, content_type="text/event-stream",
        body=f"retry: 600000\nevent: progress\ndata: {json.dumps(report)}\n\n"))
    widget = page.locator("#slide-signal_decay .demo")
    message = widget.locator(".demo-progress-message")
    widget.locator(".demo-run").click()
    expect(message).to_have_text("20% · step 20/100 · about 20 s left")
    page.clock.run_for(6_000)
    expect(message).to_have_text("20% · step 20/100 · about 14 s left")
    page.screenshot(path=screenshot_path("time-left-counting-down-1024.png"))
    page.clock.run_for(14_000)
    expect(message).to_have_text("20% · step 20/100 · almost done")
    page.clock.run_for(5_000)  # the run outlasts its estimate: said, rather than "almost done" for ever
    expect(message).to_have_text("20% · step 20/100 · taking longer than estimated")
