"""The class in the loop, as a lecture gives it: a lecturer at a 1024×768 projector (and the
presenter view) and three phones at 390×844 that joined through /join and follow.

On slide 3 the class guesses a number: the projector and the presenter view draw the answers live
while the phones see only how many answered; the lecturer points and the phones see the pointer
where it points; a phone asks a question (as plain text), another upvotes it, the presenter view lists
it with its votes and slide, shows it on the projector and marks it answered; then Close and Run, and
every screen draws the measured value over the class's answers.
Screenshots: artifacts/screenshots/loop-*.png.
"""
import csv
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from engine import Engine
from tests.browser import number_poll, questions
from tests.browser.a11y import expect_accessible
from tests.browser.cached_results import PARAMS
from tests.browser.classroom import TOKEN, lead_the_class
from tests.browser.pointer import (expect_no_pointer, expect_pointer_at, phones_see_the_pointer, point_from_presenter,
                                   point_holding_l, release_l)
from tests.deck import slide_number, slide_path
from tests.live_server import LiveServer

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1024, "height": 768}
DEMO = "amnesia"
GUESSES = (30, 4, 60)
QUESTION = "Why does the <b>LSTM</b> forget\nafter 20 characters?"

# The whole poll is on the phone's screen, above the follow banner and the bottom bar.
ON_SCREEN = """(demo) => {
  const poll = document.querySelector(`.poll[data-demo='${demo}']`).getBoundingClientRect();
  return poll.top >= 0 && poll.bottom <= document.querySelector('.follow-banner').getBoundingClientRect().top;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server with an instructor token (the phones, on this machine too, are students) whose cache
    holds a tiny Amnesia result under the default settings: Run shows it at once."""
    cache = tmp_path_factory.mktemp("class-loop") / "cache"
    engine = Engine(cache)
    entry, _ = engine.compute(*engine.resolve(DEMO, PARAMS[DEMO]))
    _, params, key = engine.resolve(DEMO, None)
    engine.cache.put(DEMO, key, params, entry.result)
    with LiveServer(cache, env={"FLASK_INSTRUCTOR_TOKEN": TOKEN}) as live:
        yield live


def test_the_class_guesses_asks_and_sees_the_pointer_then_the_run_settles_the_guess(open_page, screenshot_path):
    n = slide_number(DEMO)
    lecturer = open_page(slide_path(DEMO), **PROJECTOR)
    lead_the_class(lecturer)
    expect(lecturer.locator(".control-ask")).to_be_hidden()  # the projector has no Ask button
    phones = [open_page("/join", **PHONE) for _ in GUESSES]
    for phone in phones:
        phone.wait_for_function(f"() => window.greatShift.deck.n === {n}")  # following the lecturer

    # A number, guessed: the projector draws the answers live, the phones see only how many.
    number_poll.open_poll(lecturer, DEMO)
    for phone in phones:  # below the slide's words on a phone: it comes up on the screen when it opens
        phone.wait_for_function(ON_SCREEN, arg=DEMO)
    for total, (phone, guess) in enumerate(zip(phones, GUESSES), start=1):
        number_poll.answer(phone, DEMO, guess, total=total)
    number_poll.expect_distribution(lecturer, DEMO, len(GUESSES))
    for phone in phones:
        number_poll.expect_no_distribution(phone, DEMO)
    lecturer.screenshot(path=screenshot_path("loop-projector-poll-open.png"))
    phones[0].screenshot(path=screenshot_path("loop-phone-poll-open.png"))
    expect_accessible(phones[0], f".poll[data-demo='{DEMO}']")  # the slider, the typed value and Send
    expect_accessible(lecturer, f".poll[data-demo='{DEMO}']")  # the histogram

    # The pointer: L held on the projector; every phone draws it at the same place of the slide.
    phones_see_the_pointer(lecturer, phones, 0.3, 0.2)
    phones[1].screenshot(path=screenshot_path("loop-phone-pointer.png"))
    posts = []
    lecturer.on("request", lambda request: posts.append(request) if request.url.endswith("/api/follow/pointer") else None)
    started = time.monotonic()
    point_holding_l(lecturer, 0.62, 0.35, steps=20)  # the dot follows the mouse...
    lecturer.wait_for_function("() => window.greatShift.pointer.sent?.x === 0.62")  # ...and the last place is sent
    moving_ms = (time.monotonic() - started) * 1000
    assert 1 <= len(posts) <= moving_ms / 50 + 2, f"{len(posts)} posts in {moving_ms:.0f} ms: at most one per 50 ms"
    expect_pointer_at(phones[2], 0.62, 0.35)
    release_l(lecturer)
    for page in (lecturer, *phones):
        expect_no_pointer(page)

    # The presenter view: the answers live, and its own pointer toggle over the "On screen" picture.
    presenter = questions.open_presenter(lecturer)
    presenter.set_viewport_size(PROJECTOR)
    number_poll.expect_distribution(presenter, DEMO, len(GUESSES))
    point_from_presenter(presenter, 0.5, 0.4)
    expect_pointer_at(phones[0], 0.5, 0.4)
    presenter.locator(".presenter-pointer").click()  # off
    expect_no_pointer(phones[0])

    # A question: asked (refused first with the server's words), upvoted, listed, shown, answered.
    asker, voter = phones[0], phones[1]
    asker.watch.expect_error("status of 400")
    questions.open_questions(asker)
    asker.locator(".question-send").click()
    expect(asker.locator(".questions-message")).to_have_text("Type a question first.")
    questions.send_question(asker, QUESTION)
    words = questions.phone_item(asker, "LSTM").locator(".question-words")
    expect(words).to_have_text(QUESTION)  # as typed: the tags are text, not bold
    assert words.locator("b").count() == 0
    asker.screenshot(path=screenshot_path("loop-phone-question.png"))
    expect_accessible(asker, ".questions-panel")
    voter.evaluate("() => { document.activeElement.dataset.focusedBeforeQ = ''; }")  # its poll's Send, last pressed
    voter.keyboard.press("q")  # the key opens the panel too
    questions.upvote(voter, "LSTM", votes=1)
    for phone, came_from in ((voter, "[data-focused-before-q]"), (asker, ".control-ask")):  # opened by Q, by the button
        phone.keyboard.press("Escape")
        expect(phone.locator(".questions-panel")).to_be_hidden()
        expect(phone.locator(came_from)).to_be_focused()  # the focus is back where it came from
    questions.expect_listed(presenter, "LSTM", votes=1, slide=n, unanswered=1)
    expect(lecturer.locator(".questions-screen")).to_be_hidden()  # not on the projector until shown
    presenter.screenshot(path=screenshot_path("loop-presenter.png"))
    assert presenter.evaluate("""() => {  // what was measured is not squeezed by the open poll: five lines, or all of it
        const box = document.querySelector(".presenter-measured"), line = parseFloat(getComputedStyle(box).lineHeight);
        return box.textContent.trim() !== "" && box.clientHeight >= Math.min(box.scrollHeight, 5 * line) - 1;
    }""")
    expect_accessible(presenter, ".presenter-questions")
    screen = questions.toggle_on_screen(presenter, lecturer, shown=True)
    expect(screen.locator(".question-words")).to_have_text(QUESTION)
    lecturer.screenshot(path=screenshot_path("loop-projector-questions.png"))
    lecturer.reload()  # a reloaded slides window gets the list back from the presenter view
    expect(screen.locator(".question-words")).to_have_text(QUESTION)
    questions.toggle_on_screen(presenter, lecturer, shown=False)
    questions.mark_answered(presenter, "LSTM", unanswered=0)
    with presenter.expect_download() as saved:
        presenter.locator(".presenter-questions-csv").click()
    assert QUESTION in Path(saved.value.path()).read_text(encoding="utf-8")
    expect(presenter.locator(".presenter-questions-message")).to_have_text("Saved the questions as questions.csv.")
    questions.open_questions(asker)
    expect(questions.phone_item(asker, "LSTM").locator(".question-meta")).to_have_text(f"Slide {n} · answered · yours")
    asker.keyboard.press("Escape")

    # Close, then Run: the measured value over the class's answers, on every screen.
    number_poll.close_poll(lecturer, DEMO)
    for phone in phones:
        number_poll.expect_distribution(phone, DEMO, len(GUESSES))
    number_poll.run(lecturer, DEMO)
    for page in (lecturer, *phones):
        words = number_poll.expect_measured(page, DEMO)
    assert f"of {len(GUESSES)} guesses were within the range" in words
    lecturer.screenshot(path=screenshot_path("loop-projector-settled.png"))
    phones[2].screenshot(path=screenshot_path("loop-phone-settled.png"))
    lecturer.keyboard.press("i")  # the class's answers, saved from the instructor panel
    with lecturer.expect_download() as saved:
        lecturer.locator(".instructor-csv").click()
    rows = list(csv.DictReader(Path(saved.value.path()).open(encoding="utf-8")))
    assert [row["answers"] for row in rows if row["demo"] == DEMO] == [str(len(GUESSES))]
    expect(lecturer.locator(".instructor-message")).to_have_text("Saved the class's predictions as predictions.csv.")
    lecturer.keyboard.press("Escape")

    # The lecturer closes the slides window while pointing, mid-move: the pointer leaves the phones
    # too, even when the last move is still on its way as the window's hide is sent.
    point_holding_l(lecturer, 0.5, 0.5)
    expect_pointer_at(phones[0], 0.5, 0.5)
    point_holding_l(lecturer, 0.8, 0.8, steps=10)
    lecturer.close(run_before_unload=True)  # as a browser closes a window: its pagehide runs
    expect_no_pointer(phones[0])
