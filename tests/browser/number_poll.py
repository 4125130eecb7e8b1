"""Steps of a number poll in real browsers, for any test with a lecturer's page (led with the
token, tests/browser/classroom.py) and phones: open it (and show the answers on the projector), answer
with a value, what a phone sees while it is open, close it, run the demo, and the measurement drawn
over the class's answers."""
import re

from playwright.sync_api import expect

from tests.browser.widget import TRAINED

# What the poll says once the run has settled it (static/js/demos/number_poll.js).
SETTLED = re.compile(r"^Measured: .+ \(the (mean of the seeds|ratio of the medians)[^)]*\)\. "
                     r"\d+ of \d+ (guess was|guesses were) within the range; the class's median error was .+\.$")


def poll(page, demo: str):
    """The demo's poll: on its slide, or in the presenter view's list."""
    return page.locator(f".poll[data-demo='{demo}']")


def open_poll(lecturer, demo: str, show_answers: bool = True) -> None:
    """Opens the poll; `show_answers`: then presses "Show answers", as a lecturer who wants the hall to
    watch the guesses arrive does (the projector draws them only then; the phones never before Close)."""
    box = poll(lecturer, demo)
    box.locator(".poll-open").click()
    expect(box).to_have_attribute("data-open", "true")
    if show_answers:
        box.locator(".poll-counts").click()
        expect(box.locator(".poll-counts")).to_have_attribute("aria-pressed", "true")


def close_poll(lecturer, demo: str) -> None:
    poll(lecturer, demo).locator(".poll-close").click()
    expect(poll(lecturer, demo)).to_have_attribute("data-open", "false")


def answer(phone, demo: str, value: float, total: int | None = None) -> None:
    """Types the value (the slider follows it) and sends it; waits until the server has it."""
    box = poll(phone, demo)
    expect(box.locator(".poll-value")).to_be_enabled()
    box.locator(".poll-value").fill(str(value))
    expect(box.locator(".poll-range")).to_have_value(str(value))
    box.locator(".poll-send").click()
    expect(box.locator(".poll-status")).to_contain_text(re.compile(rf"Your answer: {re.escape(str(value))}\b"))
    if total is not None:
        expect(box.locator(".poll-status")).to_contain_text(f"{total} answer")


def expect_distribution(page, demo: str, answers: int) -> None:
    """The class's answers are drawn: the histogram's label counts them."""
    box = poll(page, demo)
    expect(box.locator(".poll-spread")).to_be_visible()
    expect(box.locator(".poll-histogram")).to_have_attribute("aria-label", re.compile(rf"^The class's {answers} answers"))


def expect_no_distribution(phone, demo: str) -> None:
    """While the poll is open a phone sees how many answered and its own answer, not the others'."""
    box = poll(phone, demo)
    expect(box.locator(".poll-spread")).to_be_hidden()
    expect(box.locator(".poll-bin")).to_have_count(0)


def run(lecturer, demo: str) -> None:
    """Run, after Close: here the cached result, at once."""
    widget = lecturer.locator(f"#slide-{demo} .demo")
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)


def expect_measured(page, demo: str) -> str:
    """The measured value over the class's answers, as a line and a band, and in words; returns the words."""
    box = poll(page, demo)
    outcome = box.locator(".poll-outcome")
    expect(outcome).to_have_text(SETTLED, timeout=TRAINED)
    expect(box.locator(".poll-histogram .poll-measured")).to_have_count(1)
    expect(box.locator(".poll-histogram .poll-band")).to_have_count(1)
    return outcome.inner_text()
