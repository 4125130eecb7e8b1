"""Time is visible and controllable: before Run a slide says how long its settings take here,
a long run asks first, a run shows the time left and can be cancelled (or is, when its page
closes). (Who sees the lecturer's controls: tests/browser/test_classroom.py.)"""
import json
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from demos import DEMOS
from demos.runtime.runner import effective_params

from tests.browser.widget import TRAINED, demo_on, set_params
from tests.deck import slide_path
from tests.live_server import LiveServer

SLOW = {"seed": 7, "size": 64, "repeats": 3}  # quick to run; the history below says it took 95 s
LONG_RUN = {"seeds": 1, "steps": 600, "length": 200, "width": 64}  # amnesia: long enough to cancel halfway


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of this module's own, with a history of runs in its cache folder."""
    cache = tmp_path_factory.mktemp("control") / "cache"
    cache.mkdir()
    history = [{"demo": "system_check", "device": "cpu", "seconds": 95.0, "work": 64 ** 3 * 3,
                "params": {"seed": 7, "size": 64, "repeats": 3}},
               # The long run took 15 s before (under the 20 s that asks first): its time left is known
               # from its first report, not only once its own pace is (5% of the run, many seconds here).
               {"demo": "amnesia", "device": "cpu", "seconds": 15.0,
                "params": effective_params(DEMOS["amnesia"], LONG_RUN)}]
    (cache / "timings.jsonl").write_text("".join(json.dumps(run) + "\n" for run in history))
    with LiveServer(cache, env={"FLASK_CONFIRM_JOB_SECONDS": "20"}) as live:
        yield live


def job_state(server, job_id: str) -> dict:
    with urllib.request.urlopen(f"{server.url}/api/jobs/{job_id}") as response:
        return json.load(response)


def job_status(server, job_id: str) -> str:
    return job_state(server, job_id)["status"]


def job_on(page, demo_id: str) -> str:
    """The id of the job the demo's widget on this page follows."""
    return page.evaluate("(id) => window.greatShift.demos.get(document.querySelector(`#slide-${id}`)).state.job", demo_id)


def test_a_long_run_asks_first_and_says_how_long_and_why(open_page):
    page = open_page(slide_path("system_check"))
    widget = demo_on(page, "system_check")
    set_params(widget, **SLOW)
    expect(widget.locator(".demo-estimate")).to_have_text("about 1 min 40 s on cpu")
    widget.locator(".demo-run").click()
    confirm = widget.locator(".demo-confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("This run will take about 1 min 40 s on cpu (1 earlier run with these settings).")
    expect(confirm).to_contain_text("flask --app app warm")  # this browser is the lecturer's (localhost)
    expect(confirm.locator(".demo-confirm-run")).to_be_focused()
    confirm.locator(".demo-confirm-cancel").click()
    expect(confirm).to_be_hidden()
    expect(widget.locator(".demo-run")).to_be_focused()
    expect(widget.locator(".demo-badge")).to_have_text("")  # nothing started
    widget.locator(".demo-run").click()
    confirm.locator(".demo-confirm-run").click()
    expect(widget.locator(".demo-badge")).to_contain_text("trained just now on cpu", timeout=TRAINED)
    expect(widget.locator(".demo-settings")).not_to_have_attribute("open", "")  # put away after the run
    expect(widget.locator(".demo-estimate")).to_have_text("")  # the badge says the time of the result on show


def test_a_run_shows_the_time_left_and_cancel_stops_it(open_page, server):
    page = open_page(slide_path("amnesia"))
    widget = demo_on(page, "amnesia")
    set_params(widget, **LONG_RUN)
    widget.locator(".demo-run").click()
    message = widget.locator(".demo-progress-message")
    expect(message).to_contain_text("left", timeout=TRAINED)  # "12% · step 40 · about 50 s left"
    job_id = job_on(page, "amnesia")
    cancel = widget.locator(".demo-cancel")
    expect(cancel).to_be_visible()
    cancel.click()
    # The deadline only ends a hang: the run would take about a minute, and ends cancelled, by Cancel.
    expect(widget.locator(".demo-badge")).to_have_text("cancelled", timeout=TRAINED)
    state = job_state(server, job_id)
    assert (state["status"], state["stopped_by"]) == ("cancelled", "cancel"), state
    assert state["progress"] < 1
    expect(widget.locator(".demo-error")).to_have_text("Cancelled. Nothing of this run was kept.")
    expect(cancel).to_be_hidden()
    expect(widget.locator(".demo-run")).to_be_enabled()
    lookup = page.request.post(f"{server.url}/api/demos/amnesia/lookup", data=LONG_RUN)
    assert lookup.json() == {"status": "missing"}, "nothing partial was cached"


def test_closing_the_page_cancels_the_run_nobody_watches_any_more(open_page, server):
    page = open_page(slide_path("amnesia"))
    widget = demo_on(page, "amnesia")
    set_params(widget, **{**LONG_RUN, "seed": 3})
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-progress-message")).to_contain_text("step", timeout=TRAINED)
    job_id = job_on(page, "amnesia")
    assert job_id and job_status(server, job_id) == "running"
    page.close()
    deadline = time.monotonic() + TRAINED / 1000  # only ends a hang
    while (state := job_state(server, job_id))["status"] not in ("done", "failed", "cancelled"):
        assert time.monotonic() < deadline, "the job never ended"
        time.sleep(0.2)
    assert (state["status"], state.get("stopped_by")) == ("cancelled", "unwatched"), "it ran on after its only page closed"

