"""Anonymous questions in real browsers, step by step, for tests with a lecturer (the presenter
view and the slides window) and phones: a phone asks, another upvotes, the presenter view lists the
question with its votes and slide, marks it answered, and shows the list on the audience's screen."""
from playwright.sync_api import expect


def open_questions(phone):
    """The phone's Ask panel, open (its text field has the focus)."""
    panel = phone.locator(".questions-panel")
    if panel.is_hidden():
        phone.locator(".control-ask").click()
    expect(phone.locator(".question-text")).to_be_focused()
    return panel


def phone_item(phone, text: str):
    return phone.locator(".questions-item").filter(has=phone.locator(".question-words", has_text=text))


def send_question(phone, text: str):
    """Types `text` into the Ask panel and sends it; the phone's own list shows it, marked as its own."""
    panel = open_questions(phone)
    panel.locator(".question-text").fill(text)
    expect(panel.locator(".question-count")).to_have_text(f"{len(text.strip())} / 280 characters")
    panel.locator(".question-send").click()
    expect(panel.locator(".questions-message")).to_contain_text("Sent")
    expect(phone_item(phone, text).locator(".question-meta")).to_contain_text("yours")


def upvote(phone, text: str, votes: int):
    """Upvotes the question that reads `text` from this phone; it then has `votes` votes."""
    open_questions(phone)
    vote = phone_item(phone, text).locator(".question-vote")
    expect(vote).to_have_attribute("aria-pressed", "false")
    vote.click()
    expect(vote).to_have_attribute("aria-pressed", "true")
    expect(vote).to_have_text(f"▲ {votes}")


def open_presenter(lecturer):
    with lecturer.expect_popup() as popup:
        lecturer.keyboard.press("s")
    return popup.value


def presenter_item(presenter, text: str):
    return presenter.locator(".presenter-question").filter(has=presenter.locator(".question-words", has_text=text))


def expect_listed(presenter, text: str, votes: int, slide: int, unanswered: int):
    """The presenter view lists the question with its votes and the slide it came from."""
    item = presenter_item(presenter, text)
    expect(item.locator(".presenter-question-votes")).to_have_text(f"{votes} vote" + ("" if votes == 1 else "s"))
    expect(item.locator(".question-meta")).to_have_text(f"Slide {slide}")
    expect(presenter.locator(".presenter-questions-count")).to_have_text(str(unanswered))


def mark_answered(presenter, text: str, unanswered: int):
    item = presenter_item(presenter, text)
    item.locator("button[data-action='answered']").click()
    expect(item.locator(".question-meta")).to_contain_text("answered")
    expect(presenter.locator(".presenter-questions-count")).to_have_text(str(unanswered))


def toggle_on_screen(presenter, lecturer, shown: bool):
    """The presenter view's "Show on screen": the list appears over the slide in the slides window, or goes."""
    presenter.locator(".presenter-questions-screen").click()
    expect(presenter.locator(".presenter-questions-screen")).to_have_attribute("aria-pressed", str(shown).lower())
    screen = lecturer.locator(".questions-screen")
    expect(screen).to_be_visible() if shown else expect(screen).to_be_hidden()
    return screen
