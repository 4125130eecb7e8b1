"""The lecture as a class lives it: a presenter window beside the slides, students following
the lecturer's slide and demo results, and only the instructor moving the class."""
import json
import re
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.classroom import TOKEN, lead_the_class
from tests.browser.widget import TRAINED
from tests.deck import LECTURE, counter, slide_number, slide_path
from tests.live_server import LiveServer

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server with an instructor token, so that being on localhost is not enough to lead."""
    with LiveServer(tmp_path_factory.mktemp("classroom") / "cache", env={"FLASK_INSTRUCTOR_TOKEN": TOKEN}) as live:
        yield live


def test_a_student_opening_the_presenter_view_gets_no_notes(browser, server):
    context = browser.new_context()
    try:
        student = context.new_page()
        student.goto(server.url + "/presenter")
        expect(student.locator(".presenter-notes")).to_contain_text("Speaker notes are for the instructor")
        assert "gradient" not in student.content()
    finally:
        context.close()


def test_the_presenter_view_shows_notes_and_next_slide_and_moves_with_the_deck(open_page):
    page = open_page(slide_path("signal_decay"))
    page.evaluate("token => localStorage.setItem('great-shift-instructor-token', token)", TOKEN)
    with page.expect_popup() as popup:
        page.keyboard.press("s")
    presenter = popup.value
    expect(presenter.locator(".presenter-title")).to_have_text("The Two Flaws of the LSTM")
    expect(presenter.locator(".presenter-notes")).to_contain_text("gradient")
    expect(presenter.locator(".presenter-preview h3")).to_have_text(f"{slide_number('amnesia')}. The Amnesia Test")
    expect(presenter.locator(".presenter-elapsed")).to_have_text(re.compile(r"^00:00:\d\d$"))  # counting from zero since it opened

    page.keyboard.press("ArrowRight")  # the slides window moves the presenter
    expect(presenter.locator(".presenter-title")).to_have_text("The Amnesia Test")
    expect(presenter.locator(".presenter-preview h3")).to_have_text(f"{slide_number('recall_vs_length')}. Is It Really Amnesia? A Fair Fight")

    presenter.keyboard.press("ArrowRight")  # and the presenter window moves the slides
    expect(page.locator(".counter")).to_have_text(counter("signal_decay", 2))
    presenter.keyboard.press("End")
    expect(page.locator(".counter")).to_have_text(counter(LECTURE[-1]))
    expect(presenter.locator(".presenter-preview")).to_have_text("This is the last slide.")
    presenter.keyboard.press("b")  # blanks the audience's screen
    expect(page.locator(".blank")).to_be_visible()
    presenter.keyboard.press("b")
    expect(page.locator(".blank")).to_be_hidden()

    presenter.locator(".presenter-pause").click()
    expect(presenter.locator(".presenter-pause")).to_have_text("Resume")
    expect(presenter.locator(".presenter-elapsed")).to_have_attribute("data-paused", "true")


def test_the_presenter_shows_the_slides_window_demo_without_running_it(open_page, server):
    page = open_page(slide_path("system_check"))
    with page.expect_popup() as popup:
        page.keyboard.press("s")
    presenter = popup.value
    expect(presenter.locator(".presenter-demo-status")).to_have_text("not run yet on this slide")
    requests = []
    presenter.on("request", lambda request: requests.append(request.url))
    page.locator("#slide-system_check .demo-run").click()
    expect(presenter.locator(".presenter-demo")).to_have_attribute("data-status", "done", timeout=60_000)
    expect(presenter.locator(".presenter-demo-status")).to_contain_text("on cpu")
    asked = [url for url in requests if "/api/demos" in url or "/api/jobs" in url]
    assert not asked, "the presenter window asked the server for no demo: it mirrors the slides window"
    # Its picture of the slide is the slides window's, result and all.
    picture = presenter.frame_locator(".presenter-picture-now iframe")
    expect(picture.locator(".demo-badge")).to_contain_text("on cpu")
    expect(picture.locator(".js-plotly-plot .bars .point")).to_have_count(3)


def test_students_follow_the_lecturer_and_can_leave_and_rejoin(open_page, server):
    lecturer = open_page(slide_path("system_check"))
    students = [open_page(slide_path("system_check")), open_page(slide_path("signal_decay"))]
    lead_the_class(lecturer)
    expect(lecturer.locator(".follow-banner")).to_contain_text("You are leading")
    for _ in range(4):
        lecturer.keyboard.press("ArrowRight")
    for student in students:
        expect(student.locator(".counter")).to_have_text(counter("system_check", 4), timeout=10_000)
        expect(student.locator(".follow-banner")).to_contain_text("Following the lecturer")

    leaver, stayer = students
    leaver.keyboard.press("ArrowRight")  # browsing on their own now
    expect(leaver.locator(".follow-rejoin")).to_be_visible()
    lecturer.keyboard.press("Home")
    expect(stayer.locator(".counter")).to_have_text(counter(LECTURE[0]), timeout=10_000)
    expect(leaver.locator(".counter")).to_have_text(counter("system_check", 5))
    leaver.keyboard.press("r")
    expect(leaver.locator(".counter")).to_have_text(counter(LECTURE[0]), timeout=10_000)

    # The lecturer's demo result reaches the students, who run nothing themselves.
    lecturer.locator("#slide-system_check .demo-run").click()
    for student in students:
        expect(student.locator("#slide-system_check .facts")).to_be_visible(timeout=60_000)
        expect(student.locator("#slide-system_check .demo-run")).to_have_text("Rerun")

    # A student who reloads (or whose connection dropped) catches up at once.
    lecturer.keyboard.press("ArrowRight")
    lecturer.keyboard.press("ArrowRight")
    stayer.reload()
    expect(stayer.locator(".counter")).to_have_text(counter(LECTURE[0], 2), timeout=10_000)


def test_the_presenter_counts_the_students_following(open_page, server, browser):
    lecturer = open_page(slide_path("signal_decay"))
    lead_the_class(lecturer)
    with lecturer.expect_popup() as popup:
        lecturer.keyboard.press("s")
    presenter = popup.value
    audience = presenter.locator(".presenter-audience")
    # The server notices a closed stream at its next heartbeat (1 s here), and the view asks twice a second.
    noticed = 15_000
    expect(audience).to_have_text("0 students following", timeout=noticed)  # the lecturer's own windows are not counted
    students = [open_page(slide_path("system_check")) for _ in range(2)]
    for student in students:
        expect(student.locator(".follow-banner")).to_contain_text("Following the lecturer")
    expect(audience).to_have_text("2 students following", timeout=noticed)
    students[0].context.close()  # a student leaves
    expect(audience).to_have_text("1 student following", timeout=noticed)
    lecturer.keyboard.press("i")
    lecturer.locator(".instructor-follow").uncheck()
    expect(audience).to_have_text("1 student connected · follow mode is off", timeout=noticed)


def test_only_the_instructor_token_moves_the_class(server, open_page):
    def post(body, token=None):
        headers = {"Content-Type": "application/json", **({"X-Instructor-Token": token} if token else {})}
        request = urllib.request.Request(server.url + "/api/follow", data=json.dumps(body).encode(), headers=headers)
        try:
            with urllib.request.urlopen(request) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    n = slide_number("attention_web")
    assert post({"on": True, "n": n}) == 403  # localhost alone is not enough once a token is set
    assert post({"on": True, "n": n}, token="wrong") == 403
    assert post({"on": True, "n": n}, token=TOKEN) == 200
    student = open_page(slide_path("system_check"))
    student.watch.expect_error("status of 403")
    expect(student.locator(".counter")).to_have_text(counter("attention_web"), timeout=10_000)
    status = student.evaluate("""(n) => fetch('/api/follow', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                              body: JSON.stringify({n})}).then(r => r.status)""",
                              slide_number("signal_decay"))
    assert status == 403
    with urllib.request.urlopen(server.url + "/api/follow") as response:
        assert json.load(response)["n"] == n
    assert post({"on": False}, token=TOKEN) == 200


def test_students_do_not_see_the_lecturers_controls_and_the_lecturer_does(browser, server):
    def open_as(token):
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        if token:
            context.add_init_script(f"localStorage.setItem('great-shift-instructor-token', {json.dumps(token)})")
        page = context.new_page()
        page.goto(server.url + slide_path("system_check"))
        return context, page

    student_context, student = open_as(None)
    widget = student.locator("#slide-system_check .demo")
    widget.locator(".demo-run").click()  # Run, or Rerun if an earlier test cached it: the result either way
    expect(widget.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)
    expect(student.locator("body")).to_have_attribute("data-instructor", "false")
    expect(widget.locator(".demo-retrain")).to_be_hidden()
    student_context.close()

    lecturer_context, lecturer = open_as(TOKEN)
    expect(lecturer.locator("body")).to_have_attribute("data-instructor", "true")
    widget = lecturer.locator("#slide-system_check .demo")
    expect(widget.locator(".demo-badge")).to_contain_text("cached")  # shown at once: the default is cached
    expect(widget.locator(".demo-retrain")).to_be_visible()
    lecturer_context.close()
