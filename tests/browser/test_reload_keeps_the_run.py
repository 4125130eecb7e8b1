"""A run belongs to the page that started it: a reload mid-training finds the job again and shows
its result (the lecturer's page and a student's), a run that was stopped says so on its page even
after a reload, and a following student's own run stays theirs until they rejoin the lecturer."""
import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.widget import TRAINED, set_params
from tests.deck import slide_path
from tests.live_server import LiveServer

TOKEN = "reload-keeps-the-run"
TINY = {"seeds": 1, "steps": 300, "length": 40, "width": 16}  # amnesia: a few seconds, with progress on the way


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server with an instructor token: a page is the lecturer's only with it, a student's without."""
    with LiveServer(tmp_path_factory.mktemp("reload") / "cache", env={"FLASK_INSTRUCTOR_TOKEN": TOKEN}) as live:
        yield live


def job_state(server, job_id: str) -> dict:
    with urllib.request.urlopen(f"{server.url}/api/jobs/{job_id}") as response:
        return json.load(response)


def as_lecturer(page) -> None:
    """This browser holds the instructor token (as the instructor panel leaves it)."""
    page.evaluate(f"localStorage.setItem('great-shift-instructor-token', {json.dumps(TOKEN)})")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-instructor", "true")


def start_run(page, **params) -> str:
    """Press Run with `params` on the amnesia slide and wait until it trains; returns its job id."""
    widget = page.locator("#slide-amnesia .demo")
    expect(widget.locator(".demo-run")).to_be_enabled()  # Run, or Rerun beside a result on show
    set_params(widget, **params)
    with page.expect_response(lambda response: response.url.endswith("/api/demos/amnesia/run")) as answer:
        widget.locator(".demo-run").click()
    expect(widget.locator(".demo-progress")).to_be_visible()
    expect(widget.locator(".demo-progress-message")).to_contain_text("step", timeout=TRAINED)
    return answer.value.json()["job"]


@pytest.mark.parametrize("who", ["lecturer", "student"])
def test_a_reload_mid_training_keeps_the_run_and_shows_its_result(open_page, server, who):
    page = open_page(slide_path("amnesia"))
    if who == "lecturer":
        as_lecturer(page)
    params = {**TINY, "seed": 11 if who == "lecturer" else 12}  # settings of its own: not the default job
    job_id = start_run(page, **params)
    page.reload()
    widget = page.locator("#slide-amnesia .demo")
    expect(widget.locator(".demo-badge")).to_contain_text("trained just now on cpu", timeout=TRAINED)
    assert job_state(server, job_id)["status"] == "done", "the job ran to its end"
    expect(widget.locator('.demo-params [name="seed"]')).to_have_value(str(params["seed"]))  # the run's settings
    assert f"seed={params['seed']}" in page.url  # and its link, for the next reload
    expect(widget.locator(".demo-error")).to_be_hidden()


def test_a_cancelled_run_says_so_on_its_page_after_a_reload(open_page, server, screenshot_path):
    page = open_page(slide_path("amnesia"))  # a student
    job_id = start_run(page, **{**TINY, "seed": 13, "steps": 600})
    widget = page.locator("#slide-amnesia .demo")
    widget.locator(".demo-cancel").click()
    expect(widget.locator(".demo-badge")).to_have_text("cancelled", timeout=10_000)
    page.reload()
    expect(widget.locator(".demo-badge")).to_have_text("cancelled")
    expect(widget.locator(".demo-error")).to_have_text("Cancelled. Nothing of this run was kept.")
    expect(widget.locator('.demo-params [name="seed"]')).to_have_value("13")
    expect(widget.locator(".demo-cancel")).to_be_hidden()
    expect(widget.locator(".demo-run")).to_be_enabled()
    page.screenshot(path=screenshot_path("reload-cancelled-run.png"))
    state = job_state(server, job_id)
    assert (state["status"], state["stopped_by"]) == ("cancelled", "cancel")


def lead_the_class(page) -> None:
    page.keyboard.press("i")
    page.locator(".instructor-follow").check()
    expect(page.locator(".instructor-message")).to_contain_text("Follow mode is on")
    page.keyboard.press("Escape")


def test_a_following_students_own_run_stays_theirs_until_they_rejoin(open_page, server, screenshot_path):
    lecturer = open_page(slide_path("amnesia"))
    as_lecturer(lecturer)
    lead_the_class(lecturer)
    try:
        follow_a_lecturer_and_run_ones_own(open_page, server, lecturer, screenshot_path)
    finally:  # follow mode off again: the module's other tests open pages of their own
        request = urllib.request.Request(server.url + "/api/follow", data=b'{"on": false}', method="POST",
                                         headers={"Content-Type": "application/json", "X-Instructor-Token": TOKEN})
        urllib.request.urlopen(request).close()


def follow_a_lecturer_and_run_ones_own(open_page, server, lecturer, screenshot_path):
    student = open_page(slide_path("amnesia"))
    expect(student.locator(".follow-banner")).to_contain_text("Following the lecturer")
    mine = student.locator("#slide-amnesia .demo")
    theirs = lecturer.locator("#slide-amnesia .demo")

    # The lecturer's run reaches the student, who may watch it but has no Cancel for it.
    start_run(lecturer, **{**TINY, "seed": 21})
    expect(mine.locator(".demo-progress")).to_be_visible(timeout=TRAINED)
    expect(mine.locator(".demo-cancel")).to_be_hidden()
    expect(mine.locator('.demo-params [name="seed"]')).to_have_value("21")  # the settings of the run on show
    expect(mine.locator(".demo-progress")).to_be_hidden(timeout=TRAINED)
    expect(mine.locator(".demo-badge")).to_contain_text("on cpu")

    # The student's own run: follow mode lets go, and says so.
    own = start_run(student, **{**TINY, "seed": 22})
    expect(student.locator(".follow-banner")).to_contain_text("Your own run: not following the lecturer")
    expect(mine.locator(".demo-cancel")).to_be_visible()  # the student's own job: theirs to cancel
    student.reload()  # a reload in follow mode: the student's own run is still theirs
    expect(student.locator(".follow-banner")).to_contain_text("Your own run: not following the lecturer")
    expect(mine.locator(".demo-badge")).to_contain_text("trained just now on cpu", timeout=TRAINED)
    assert job_state(server, own)["status"] == "done"

    # The lecturer runs other settings: the student's result stays on the student's screen.
    start_run(lecturer, seed=23)
    expect(theirs.locator(".demo-progress")).to_be_hidden(timeout=TRAINED)
    expect(theirs.locator(".demo-badge")).to_contain_text("trained just now on cpu")
    expect(mine.locator('.demo-params [name="seed"]')).to_have_value("22")
    expect(mine.locator(".demo-badge")).to_contain_text("trained just now on cpu")
    assert "seed=22" in student.url
    student.screenshot(path=screenshot_path("follow-own-run.png"))

    # Rejoining shows the lecturer's result, with the lecturer's settings in the form.
    student.locator(".follow-rejoin").click()
    expect(student.locator(".follow-banner")).to_contain_text("Following the lecturer")
    expect(mine.locator('.demo-params [name="seed"]')).to_have_value("23")
    expect(mine.locator(".demo-badge")).to_contain_text("cached")
    assert "seed=23" in student.url
