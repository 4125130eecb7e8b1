"""Anonymous questions with a lecturer and two phones: a phone asks (its refusals said in the
server's words), the other upvotes, the presenter view lists the question with its votes and slide
and marks it answered; the projector shows the list only while the lecturer shows it."""
import pytest
from playwright.sync_api import expect

from tests.browser import questions
from tests.browser.a11y import expect_accessible
from tests.browser.classroom import TOKEN, lead_the_class
from tests.deck import slide_path
from tests.live_server import LiveServer

PHONE = {"width": 390, "height": 844}
LECTURER = {"width": 1024, "height": 768}
QUESTION = "Why does the <b>LSTM</b> forget\nafter 20 characters?"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server with an instructor token: the phones on this machine are students."""
    live = LiveServer(tmp_path_factory.mktemp("questions") / "cache", env={"FLASK_INSTRUCTOR_TOKEN": TOKEN}).start()
    yield live
    live.stop()


def test_a_question_is_asked_upvoted_and_answered(open_page, screenshot_path):
    lecturer = open_page(slide_path("amnesia"), **LECTURER)
    lead_the_class(lecturer)
    expect(lecturer.locator(".control-ask")).to_be_hidden()  # the projector has no Ask button
    presenter = questions.open_presenter(lecturer)
    asker, voter = (open_page("/join", **PHONE) for _ in range(2))

    asker.watch.expect_error("status of 400")
    questions.open_questions(asker)
    asker.locator(".question-send").click()
    expect(asker.locator(".questions-message")).to_have_text("Type a question first.")
    questions.send_question(asker, QUESTION)
    words = questions.phone_item(asker, "LSTM").locator(".question-words")
    expect(words).to_have_text(QUESTION)  # as typed: the tags are text, not bold
    assert words.locator("b").count() == 0
    asker.screenshot(path=screenshot_path("questions-phone-panel.png"))
    expect_accessible(asker, ".questions-panel")

    voter.keyboard.press("q")  # the key opens the panel too
    expect(voter.locator(".question-text")).to_be_focused()
    questions.upvote(voter, "LSTM", votes=1)
    for phone, came_from in ((voter, ".slide:not([hidden])"), (asker, ".control-ask")):  # opened by Q, by the button
        phone.keyboard.press("Escape")
        expect(phone.locator(".questions-panel")).to_be_hidden()
        expect(phone.locator(came_from)).to_be_focused()  # the focus is back where it came from
    voter.screenshot(path=screenshot_path("questions-phone-ask-button.png"))

    presenter.set_viewport_size(LECTURER)
    questions.expect_listed(presenter, "LSTM", votes=1, slide=3, unanswered=1)
    presenter.screenshot(path=screenshot_path("questions-presenter.png"))
    expect_accessible(presenter, ".presenter-questions")
    expect(lecturer.locator(".questions-screen")).to_be_hidden()
    screen = questions.toggle_on_screen(presenter, lecturer, shown=True)
    expect(screen.locator(".question-words")).to_have_text(QUESTION)
    expect(lecturer.locator(".questions-screen .question-meta")).to_have_text("Slide 3")
    lecturer.screenshot(path=screenshot_path("questions-on-screen.png"))
    questions.toggle_on_screen(presenter, lecturer, shown=False)

    questions.mark_answered(presenter, "LSTM", unanswered=0)
    questions.open_questions(asker)
    expect(questions.phone_item(asker, "LSTM").locator(".question-meta")).to_have_text("Slide 3 · answered · yours")
