"""Predict, then run, in real browsers: a lecturer and three students on phones who joined by the
join address. The class answers the fair fight's poll (a choice poll; the Amnesia Test's number poll
is tests/browser/test_class_in_the_loop.py): the phones see how many answered, the presenter view the
counts, the projector the counts once the lecturer shows them; the lecturer closes the poll and runs
the demo at the slide's own settings, and every screen shows the class's prediction beside the
measured outcome. The result's address reproduces it, and Copy link copies that address. While
the poll is open, no screen shows the result: not the lecturer's, not a phone that joins late or
reloads; Close shows it on all of them.

The server's cache holds a tiny run as the slide's default (the poll's own run, which settles it:
tests/browser/test_poll_keeps_its_word.py), so Run at the slide's settings shows it at once."""
import json
import re

import pytest
from playwright.sync_api import expect

from engine import Engine
from tests.browser.classroom import TOKEN, as_lecturer, lead_the_class
from tests.browser.widget import TRAINED, set_params
from tests.deck import counter, slide_number, slide_path
from tests.demos.tiny import cache_as_default
from tests.live_server import LiveServer

TINY = {"lengths": {5, 10}, "steps": 10, "width": 8, "seeds": 1}
LOOKUP = {"lengths": [5, 10], "steps": 10, "width": 8, "seeds": 1}  # the same, as the API takes them
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server with an instructor token (the students' browsers on this machine are not the lecturer),
    whose cache holds the fair fight's tiny run as its default run."""
    cache = tmp_path_factory.mktemp("polls") / "cache"
    engine = Engine(cache)
    defaults = engine.resolve("recall_vs_length", None)[1]
    cache_as_default(engine, "recall_vs_length", lambda result: result.update(params=defaults))
    with LiveServer(cache, env={"FLASK_INSTRUCTOR_TOKEN": TOKEN}) as live:
        yield live


@pytest.fixture(autouse=True)
def a_fresh_poll_and_nobody_leads_afterwards(server):
    """Each test starts with the poll as if never asked (no answers, nothing hidden), and leaves the
    class free to browse, whatever the test before did."""
    for action in ("reset", "open", "close"):
        as_lecturer(server, "/api/polls/recall_vs_length", {"action": action})
    yield
    as_lecturer(server, "/api/follow", {"on": False})


def choice(page, index: int):
    return page.locator(f"#slide-recall_vs_length .poll-choice[data-choice='{index}']")


def test_the_class_predicts_then_the_demo_settles_it(open_page, server, screenshot_path):
    lecturer = open_page(slide_path("recall_vs_length"), permissions=["clipboard-read", "clipboard-write"])
    lead_the_class(lecturer)
    poll = lecturer.locator("#slide-recall_vs_length .poll")
    expect(poll.locator(".poll-controls")).to_be_visible()

    students = [open_page("/join", **PHONE) for _ in range(3)]
    for student in students:
        expect(student.locator(".counter")).to_have_text(counter("recall_vs_length"))  # /join led to the lecturer's slide
        expect(student.locator("#slide-recall_vs_length .poll-controls")).to_be_hidden()
        expect(choice(student, 0)).to_be_disabled()
        expect(student.locator("#slide-recall_vs_length .poll-status")).to_have_text(
            "The lecturer opens this poll before the demo runs.")

    poll.locator(".poll-open").click()
    for student, pick in zip(students, (0, 1, 0)):
        expect(choice(student, pick)).to_be_enabled()
        choice(student, pick).click()
        expect(choice(student, pick)).to_have_attribute("aria-pressed", "true")
    students[1].locator("#slide-recall_vs_length .poll-choice[data-choice='0']").click()  # a change of mind
    students[1].locator("#slide-recall_vs_length .poll-choice[data-choice='2']").click()  # and another
    expect(choice(students[1], 2)).to_have_attribute("aria-pressed", "true")
    expect(choice(students[1], 1)).to_have_attribute("aria-pressed", "false")
    with lecturer.expect_popup() as popup:  # the presenter view, the lecturer's own screen: the counts, live
        lecturer.keyboard.press("s")
    presenter = popup.value
    expect(presenter.locator(".poll[data-demo='recall_vs_length'] .poll-choice[data-choice='0'] .poll-count")).to_have_text("2 · 67%")
    expect(presenter.locator(".poll[data-demo='dyck']")).to_be_hidden()
    presenter.close()
    for page in [lecturer, *students]:  # how many answered, on every screen; who chose what, on none
        expect(page.locator("#slide-recall_vs_length .poll-status")).to_contain_text("3 answers so far.")
        expect(page.locator("#slide-recall_vs_length .poll-count")).to_have_text(["", "", ""])
    students[0].screenshot(path=screenshot_path("poll-student-phone-open.png"), full_page=True)
    poll.locator(".poll-counts").click()  # the lecturer shows the counts: on the projector only
    expect(choice(lecturer, 0).locator(".poll-count")).to_have_text("2 · 67%")
    expect(choice(lecturer, 2).locator(".poll-count")).to_have_text("1 · 33%")
    expect(choice(lecturer, 1).locator(".poll-count")).to_have_text("0 · 0%")
    for student in students:
        expect(student.locator("#slide-recall_vs_length .poll-count")).to_have_text(["", "", ""])

    poll.locator(".poll-close").click()
    for student in students:  # Close reveals the counts to everyone
        expect(choice(student, 0)).to_be_disabled()
        expect(student.locator("#slide-recall_vs_length .poll-status")).to_contain_text("Closed with 3 answers.")
        expect(choice(student, 0).locator(".poll-count")).to_have_text("2 · 67%")
    students[0].watch.expect_error("status of 409")
    late = students[0].evaluate("""() => fetch('/api/polls/recall_vs_length/answer', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({choice: 1})}).then(r => r.status)""")
    assert late == 409
    expect(choice(lecturer, 1).locator(".poll-count")).to_have_text("0 · 0%")

    widget = lecturer.locator("#slide-recall_vs_length .demo")
    widget.locator(".demo-run").click()  # at the slide's own settings: the run the poll asked about
    expect(widget.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)

    # The prediction beside the outcome: the measured winner decides which choice it supports.
    counts = {0: 2, 1: 0, 2: 1}
    for page in [lecturer, *students]:
        outcome = page.locator("#slide-recall_vs_length .poll-outcome")
        expect(outcome).to_be_visible(timeout=TRAINED)
        supported = outcome.get_attribute("data-choice")
        text = outcome.inner_text()
        assert re.match(r"Measured: (the \w[\w ]* won|neither model was ahead with every seed)\. ", text), text
        k = counts[int(supported)]
        assert f"{round(100 * k / 3)}% of you ({k} of 3) predicted that." in text, text
        assert "(3 seeds)" in text  # the measured numbers of the recap headline
        assert "another run" not in text  # the chart shows the poll's own run
    lecturer.screenshot(path=screenshot_path("poll-lecturer-outcome.png"))
    students[2].screenshot(path=screenshot_path("poll-student-phone-outcome.png"), full_page=True)

    # The result's address (the slide's, at its own settings): a reload or a shared link shows the same
    # cached result, by itself now that the class has predicted.
    expect(lecturer).to_have_url(server.url + slide_path("recall_vs_length"))
    widget.locator(".demo-copy-link").click()
    expect(widget.locator(".demo-copy-link")).to_have_text("Link copied")
    assert lecturer.evaluate("navigator.clipboard.readText()") == lecturer.url
    summary = widget.locator(".demo-summary").inner_text()
    shared = open_page(lecturer.url.removeprefix(server.url))
    expect(shared.locator("#slide-recall_vs_length .demo-badge")).to_contain_text("cached · computed on cpu")
    expect(shared.locator("#slide-recall_vs_length .demo-summary")).to_have_text(summary)
    steps = widget.locator('.demo-params [name="steps"]').input_value()
    expect(shared.locator('#slide-recall_vs_length .demo-params [name="steps"]')).to_have_value(steps)

    # Opened again to ask once more: the last verdict leaves every screen, hidden and gone from the page.
    press(lecturer, "#slide-recall_vs_length .poll-open")
    for page in [lecturer, *students]:
        expect(page.locator("#slide-recall_vs_length .poll")).to_have_attribute("data-open", "true")
        expect(page.locator("#slide-recall_vs_length .poll-outcome")).to_be_hidden()
        expect(page.locator("#slide-recall_vs_length .poll-outcome")).to_have_text("")


def test_the_first_slide_shows_a_scannable_join_code(open_page, screenshot_path):
    page = open_page(slide_path("system_check"))
    join = page.locator("#slide-system_check .join")
    expect(join.locator(".join-address")).to_have_text(re.compile(r"^127\.0\.0\.1:\d+/j$"))
    expect(join.locator(".join-local")).to_contain_text("Only this computer can reach this address")
    qr = join.locator(".join-qr")
    expect(qr).to_have_attribute("alt", "QR code of the address to join the lecture from a phone")
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0"), "the QR code was drawn"
    assert qr.bounding_box()["height"] >= 200
    page.screenshot(path=screenshot_path("slide-01-join.png"))
    page.keyboard.press("j")
    big = page.locator(".join-screen .join-qr")
    expect(big).to_be_visible()
    assert big.bounding_box()["height"] >= 0.7 * 720 - 1  # as large as the screen allows
    page.keyboard.press("Escape")
    expect(page.locator(".join-screen")).to_be_hidden()


def test_a_bad_parameter_in_the_address_is_explained_and_runs_nothing(open_page, server):
    page = open_page(slide_path("system_check"))
    page.watch.expect_error("status of 400")  # the server refuses the address's length, as it should
    page.goto(server.url + slide_path("recall_vs_length") + "?width=1000")
    widget = page.locator("#slide-recall_vs_length .demo")
    expect(widget.locator(".demo-error")).to_contain_text("width")
    expect(widget.locator('.demo-params [name="width"]')).to_have_attribute("aria-invalid", "true")
    expect(widget.locator(".demo-output .demo-placeholder")).to_have_count(1)  # nothing drawn


def test_a_link_to_a_result_not_computed_yet_says_so_and_waits_for_run(open_page):
    page = open_page(slide_path("recall_vs_length") + "?width=9&steps=20")
    widget = page.locator("#slide-recall_vs_length .demo")
    expect(widget.locator(".demo-badge")).to_have_text("not computed with these settings yet: press Run")
    expect(widget.locator('.demo-params [name="width"]')).to_have_value("9")
    expect(widget.locator(".demo-output .demo-placeholder")).to_have_count(1)  # nothing drawn


def focused(page) -> str:
    """The class of the element that has the keyboard focus ("" for the page body)."""
    return page.evaluate("() => document.activeElement === document.body ? '' : document.activeElement.className")


def press(page, selector: str) -> None:
    """Press a button from the keyboard, as a lecturer with a clicker or no mouse would."""
    page.locator(selector).focus()
    page.keyboard.press("Enter")


def expect_no_result(page) -> None:
    """The fair fight shows nothing of its result: no chart, no summary, no badge naming where it ran."""
    widget = page.locator("#slide-recall_vs_length .demo")
    expect(widget.locator(".demo-output .js-plotly-plot")).to_have_count(0)
    expect(widget.locator(".demo-summary")).to_have_text("")
    expect(widget.locator(".demo-badge")).not_to_contain_text("on cpu")
    expect(page.locator("#slide-recall_vs_length .poll-outcome")).to_be_hidden()
    expect(page.locator("#slide-recall_vs_length .poll-outcome")).to_have_text("")  # not even in the page


def expect_kept_from(student) -> None:
    """A student's page during the open poll: the poll and the lecturer's state have arrived, and
    neither it nor its Run, nor a request of its own, gets the result."""
    expect(student.locator(".counter")).to_have_text(counter("recall_vs_length"))
    expect(student.locator(".follow-banner")).to_contain_text("Following the lecturer")
    expect(student.locator("#slide-recall_vs_length .poll-status")).to_contain_text("Open: tap your prediction")
    # The lecturer's state has arrived, with nothing to fetch: the lecturer's screen took its result
    # away at Reset (and the server would send a student only the reason).
    student.wait_for_function(f"() => window.greatShift.follow.state?.n === {slide_number('recall_vs_length')}")
    assert student.evaluate("() => window.greatShift.follow.state.demo?.params") is None
    widget = student.locator("#slide-recall_vs_length .demo")
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-error")).to_have_text(
        "The class is predicting: the result is shown when the lecturer closes the poll.")
    expect(widget.locator(".demo-error")).to_have_attribute("data-kind", "note")  # a wait, not a failure
    expect_no_result(student)
    student.watch.expect_error("status of 409")
    refused = student.evaluate("""(params) => fetch('/api/demos/recall_vs_length/lookup', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify(params)})
        .then(async (r) => [r.status, (await r.json()).reason])""", LOOKUP)
    assert refused == [409, "poll_open"]


def test_an_open_poll_keeps_the_result_from_every_screen_until_it_closes(open_page, server, screenshot_path):
    lecturer = open_page(slide_path("recall_vs_length"), width=1024, height=768)
    lead_the_class(lecturer)
    early = open_page("/join", **PHONE)  # in the room before the rehearsal
    widget = lecturer.locator("#slide-recall_vs_length .demo")
    set_params(widget, **TINY)
    widget.locator(".demo-run").click()  # the rehearsal: the result is cached from now on
    expect(widget.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)
    summary = widget.locator(".demo-summary").inner_text()
    expect(early.locator("#slide-recall_vs_length .demo-summary")).to_have_text(summary)  # following the lecturer

    press(lecturer, "#slide-recall_vs_length .poll-reset")  # to ask the class for real: the rehearsal is hidden again
    expect(lecturer.locator("#slide-recall_vs_length .poll-status")).to_have_text(
        "The lecturer opens this poll before the demo runs.")
    assert focused(lecturer) == "poll-reset"  # still enabled: the focus stays on it
    expect(lecturer.locator("#slide-recall_vs_length .poll-close")).to_be_enabled()  # shows the result without asking again
    expect_no_result(lecturer)
    expect_no_result(early)
    press(lecturer, "#slide-recall_vs_length .poll-open")
    expect(lecturer.locator("#slide-recall_vs_length .poll-open")).to_be_disabled()
    assert focused(lecturer) == "poll-close"  # Open is disabled now: the next step has the focus

    late = open_page("/join", **PHONE)  # joins during the poll
    early.reload()
    for student in (late, early):
        expect_kept_from(student)
    choice(late, 0).click()
    expect(choice(late, 0)).to_have_attribute("aria-pressed", "true")
    late.screenshot(path=screenshot_path("poll-secret-phone-open.png"), full_page=True)

    lecturer.reload()  # the lecturer's screen keeps the secret through a reload too
    expect(lecturer.locator("#slide-recall_vs_length .poll-status")).to_contain_text("Open: tap your prediction")
    expect(lecturer.locator("#slide-recall_vs_length .poll-controls")).to_be_visible()
    expect_no_result(lecturer)
    lecturer.screenshot(path=screenshot_path("poll-secret-lecturer-open.png"))

    press(lecturer, "#slide-recall_vs_length .poll-close")
    expect(lecturer.locator("#slide-recall_vs_length .poll-status")).to_contain_text("Closed with 1 answer.")
    assert focused(lecturer) == "demo-run"  # Close is disabled now: Run, the next step
    lecturer.keyboard.press("Enter")  # Close + Run: the cached result at once, on every screen
    for page in (lecturer, late, early):
        expect(page.locator("#slide-recall_vs_length .demo-summary")).to_have_text(summary)
        expect(page.locator("#slide-recall_vs_length .demo-badge")).to_contain_text("cached · computed on cpu")
        expect(page.locator("#slide-recall_vs_length .poll-outcome")).to_be_visible()
    late.screenshot(path=screenshot_path("poll-secret-phone-closed.png"), full_page=True)


def test_a_run_during_the_poll_trains_while_the_class_votes_and_shows_at_close(open_page, server):
    lecturer = open_page(slide_path("recall_vs_length"), width=1024, height=768)
    lead_the_class(lecturer)
    student = open_page("/join", **PHONE)
    press(lecturer, "#slide-recall_vs_length .poll-open")
    choice(student, 1).click()
    expect(choice(student, 1)).to_have_attribute("aria-pressed", "true")
    widget = lecturer.locator("#slide-recall_vs_length .demo")
    set_params(widget, **{**TINY, "steps": 11})  # not computed yet: it trains, followed by the lecturer's page
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-error")).to_have_text("The result is ready: it is shown when the poll closes.",
                                                       timeout=TRAINED)
    expect_no_result(lecturer)
    expect_no_result(student)
    press(lecturer, "#slide-recall_vs_length .poll-close")  # the result kept for Close appears at once, everywhere
    for page in (lecturer, student):
        expect(page.locator("#slide-recall_vs_length .poll-outcome")).to_be_visible()
        expect(page.locator("#slide-recall_vs_length .demo-summary")).to_contain_text("at most 11 steps each")
    expect(widget.locator(".demo-badge")).to_contain_text("trained just now on cpu")
    expect(widget.locator(".demo-error")).to_be_hidden()
