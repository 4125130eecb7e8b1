"""A poll that keeps its word, in real browsers: a lecturer leading from a 1024×768 projector and a
student's phone at 390×844 that joined through /join.

- The poll is settled by the run it asked about (the slide's own settings): a Retrain at other
  settings afterwards changes the chart, not the verdict or the class's score, and the poll says the
  chart shows another run.
- The class's answers are the lecturer's while the poll is open: the phones never see them before
  Close; the projector draws them only once the lecturer presses "Show answers" (or "Show counts").
- Back on a closed poll's slide after a reload, the projector shows the result the phones show.
- Everything a hall reads of a poll, of the follow banner and of the question panel is at least 16 px
  on the projector, and the banner covers no control of any poll slide.

The server's cache holds each poll slide's tiny run as its default run (tests/demos/tiny.py), so Run
at the slide's settings shows it at once. Screenshots: artifacts/screenshots/kept-*.png.
"""
import re

import pytest
from playwright.sync_api import expect

from engine import Engine
from slides import load_deck
from tests.browser import number_poll, questions
from tests.browser.classroom import TOKEN, as_lecturer, lead_the_class
from tests.browser.legibility import MIN_PX
from tests.browser.widget import TRAINED, set_params
from tests.deck import slide_path
from tests.demos.tiny import cache_as_default
from tests.live_server import LiveServer

PROJECTOR = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
POLL_SLIDES = [slide for slide in load_deck() if slide.poll]
CHOICE = "recall_vs_length"  # the fair fight: a choice poll (the example of a Retrain that re-scored it)
NUMBER = next(slide.demo for slide in POLL_SLIDES if slide.poll.kind == "number")
# The class's score in the verdict: the one student's answer, whichever choice the run supports.
SCORED = re.compile(r"\([01] of 1\) predicted that\.")
# Other settings than the fair fight's own, tiny enough to train in seconds.
OTHER = {"lengths": {5, 10}, "steps": 10, "width": 8, "seeds": 1}

# Every piece of text shown inside `selector`, with its on-screen font size: the font size times the
# canvas's scale for text on the slide, as tests/browser/legibility.py measures it.
TEXTS = """(selector) => {
  const found = [];
  for (const root of document.querySelectorAll(selector)) {
    const slide = root.closest('.slide');
    const scale = slide ? slide.getBoundingClientRect().width / slide.offsetWidth : 1;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!node.textContent.trim() || !element.checkVisibility({ checkVisibilityCSS: true })) continue;
      found.push({ text: node.textContent.trim(), px: parseFloat(getComputedStyle(element).fontSize) * scale });
    }
  }
  return found;
}"""

# The follow banner's box and every control of the slide on screen (and its poll), as on-screen boxes.
BOXES = """(slideId) => {
  const box = (element) => { const r = element.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  const slide = document.getElementById(slideId);
  const controls = [...slide.querySelectorAll('button, input, select, summary, a, .poll')]
    .filter((element) => element.checkVisibility({ checkVisibilityCSS: true }) && element.getBoundingClientRect().width > 0)
    .map((element) => ({ name: element.className || element.tagName, ...box(element) }));
  const scale = slide.getBoundingClientRect().width / slide.offsetWidth;
  const style = getComputedStyle(slide), edge = slide.getBoundingClientRect();
  const content = { top: edge.top + parseFloat(style.paddingTop) * scale, bottom: edge.bottom - parseFloat(style.paddingBottom) * scale };
  return { banner: box(document.querySelector('.follow-banner')), controls, poll: box(slide.querySelector('.poll')), content };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server with an instructor token (the students' browsers on this machine are not the
    lecturer), whose cache holds every poll slide's tiny run as its default run."""
    cache = tmp_path_factory.mktemp("kept") / "cache"
    engine = Engine(cache)
    for slide in POLL_SLIDES:
        defaults = engine.resolve(slide.demo, None)[1]
        cache_as_default(engine, slide.demo, lambda result: result.update(params=defaults))
    with LiveServer(cache, env={"FLASK_INSTRUCTOR_TOKEN": TOKEN}) as live:
        yield live


def as_a_student(server, path: str, body: dict) -> None:
    """An answer from a new browser (no cookie: a new voter each time)."""
    as_lecturer(server, path, body, token=False)


@pytest.fixture(autouse=True)
def every_poll_as_never_asked_and_nobody_leads_afterwards(server):
    for slide in POLL_SLIDES:
        for action in ("reset", "open", "close"):
            as_lecturer(server, f"/api/polls/{slide.demo}", {"action": action})
    yield
    as_lecturer(server, "/api/follow", {"on": False})


def poll(page, demo: str):
    return page.locator(f"#slide-{demo} .poll")


def lecturer_and_phone(open_page, demo: str):
    """The lecturer's projector on the slide of `demo`, leading, and a phone that followed it there."""
    lecturer = open_page(slide_path(demo), **PROJECTOR)
    lead_the_class(lecturer)
    phone = open_page("/join", **PHONE)
    expect(poll(phone, demo)).to_have_attribute("data-open", "false")
    phone.wait_for_function(f"() => window.greatShift.deck.current.id === 'slide-{demo}'")
    return lecturer, phone


def ask_and_close(lecturer, phone, demo: str, choice: int) -> None:
    """Open, the phone answers, Close."""
    poll(lecturer, demo).locator(".poll-open").click()
    answer = phone.locator(f"#slide-{demo} .poll-choice[data-choice='{choice}']")
    expect(answer).to_be_enabled()
    answer.click()
    expect(answer).to_have_attribute("aria-pressed", "true")
    poll(lecturer, demo).locator(".poll-close").click()
    expect(poll(phone, demo).locator(".poll-status")).to_contain_text("Closed with 1 answer.")


def run_at_the_slides_settings(lecturer, demo: str) -> str:
    """Run after Close: the poll's own run, cached; returns the summary under its chart."""
    widget = lecturer.locator(f"#slide-{demo} .demo")
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-badge")).to_contain_text("cached · computed on cpu", timeout=TRAINED)
    return widget.locator(".demo-summary").inner_text()


def test_a_retrain_at_other_settings_changes_the_chart_not_the_polls_verdict(open_page, screenshot_path):
    lecturer, phone = lecturer_and_phone(open_page, CHOICE)
    ask_and_close(lecturer, phone, CHOICE, choice=0)
    own_summary = run_at_the_slides_settings(lecturer, CHOICE)
    verdicts = {}
    for page in (lecturer, phone):
        expect(poll(page, CHOICE).locator(".poll-outcome strong")).to_contain_text(SCORED)
        expect(poll(page, CHOICE).locator(".poll-outcome-run")).to_have_count(0)  # the chart shows the poll's run
        verdicts[page] = poll(page, CHOICE).locator(".poll-outcome").inner_text()

    widget = lecturer.locator(f"#slide-{CHOICE} .demo")
    set_params(widget, **OTHER)
    widget.locator(".demo-retrain").click()
    expect(widget.locator(".demo-badge")).to_contain_text("trained just now on cpu", timeout=TRAINED)
    for page in (lecturer, phone):  # the phone follows the lecturer's run
        expect(page.locator(f"#slide-{CHOICE} .demo-summary")).not_to_have_text(own_summary, timeout=TRAINED)
        expect(poll(page, CHOICE).locator(".poll-outcome-run")).to_have_text(
            "The chart shows another run: the poll was settled at the slide's own settings.")
        said = poll(page, CHOICE).locator(".poll-outcome").inner_text()
        assert said.startswith(verdicts[page]), (said, verdicts[page])  # the same verdict and score, and the line
    lecturer.screenshot(path=screenshot_path("kept-projector-another-run.png"))
    phone.screenshot(path=screenshot_path("kept-phone-another-run.png"), full_page=True)


def test_while_open_the_phones_never_see_the_answers_and_the_projector_only_once_shown(open_page, screenshot_path):
    lecturer, phone = lecturer_and_phone(open_page, NUMBER)
    number_poll.open_poll(lecturer, NUMBER, show_answers=False)
    number_poll.answer(phone, NUMBER, 40, total=1)
    expect(poll(lecturer, NUMBER).locator(".poll-status")).to_contain_text("1 answer so far.")
    for page in (lecturer, phone):  # how many answered, and nothing of what they answered
        number_poll.expect_no_distribution(page, NUMBER)
        expect(poll(page, NUMBER).locator(".poll-status")).not_to_contain_text("Median")
    lecturer.screenshot(path=screenshot_path("kept-projector-open-hidden.png"))

    show = poll(lecturer, NUMBER).locator(".poll-counts")
    expect(show).to_have_text("Show answers")
    show.click()  # the lecturer's choice: the projector draws them from now on
    number_poll.expect_distribution(lecturer, NUMBER, 1)
    number_poll.answer(phone, NUMBER, 60, total=1)  # a change of mind, drawn live on the projector
    expect(poll(lecturer, NUMBER).locator(".poll-status")).to_contain_text("Median guess: 60%.")
    number_poll.expect_no_distribution(phone, NUMBER)  # never on a phone before Close
    expect(phone.locator(f"#slide-{NUMBER} .poll-controls")).to_be_hidden()
    lecturer.screenshot(path=screenshot_path("kept-projector-open-shown.png"))
    phone.screenshot(path=screenshot_path("kept-phone-open.png"), full_page=True)
    expect(show).to_have_text("Hide answers")
    show.click()  # and hidden again
    number_poll.expect_no_distribution(lecturer, NUMBER)

    number_poll.close_poll(lecturer, NUMBER)  # Close reveals them to everyone
    for page in (lecturer, phone):
        number_poll.expect_distribution(page, NUMBER, 1)
    expect(show).to_be_hidden()  # after Close the counts are everyone's: nothing to choose


def test_back_on_a_closed_polls_slide_after_a_reload_the_projector_shows_what_the_phones_show(open_page):
    lecturer, phone = lecturer_and_phone(open_page, CHOICE)
    ask_and_close(lecturer, phone, CHOICE, choice=1)
    summary = run_at_the_slides_settings(lecturer, CHOICE)
    expect(phone.locator(f"#slide-{CHOICE} .demo-summary")).to_have_text(summary)

    lecturer.keyboard.press("ArrowRight")
    phone.wait_for_function(f"() => window.greatShift.deck.current.id !== 'slide-{CHOICE}'")
    lecturer.reload()
    lecturer.wait_for_function("() => window.greatShift !== undefined")
    lecturer.keyboard.press("ArrowLeft")
    phone.wait_for_function(f"() => window.greatShift.deck.current.id === 'slide-{CHOICE}'")
    for page in (lecturer, phone):
        expect(page.locator(f"#slide-{CHOICE} .demo-summary")).to_have_text(summary)
        expect(poll(page, CHOICE).locator(".poll-outcome strong")).to_contain_text(SCORED)
    expect(lecturer.locator(f"#slide-{CHOICE} .demo-placeholder")).to_have_count(0)


def poll_problems(page, slide) -> list[str]:
    """What a hall would notice on this slide now: poll text under MIN_PX on the projector, the poll
    reaching below the slide's content (into the margin the banner and the buttons use), the follow
    banner over a control."""
    texts = page.evaluate(TEXTS, f"#slide-{slide.demo} .poll")
    found = [f"{slide.demo}: {t['text']!r} is {t['px']:.1f} px" for t in texts if t["px"] < MIN_PX - 0.05]
    boxes = page.evaluate(BOXES, f"slide-{slide.demo}")
    below = boxes["poll"]["bottom"] - boxes["content"]["bottom"]
    if below > 1:
        found.append(f"{slide.demo}: the poll reaches {below:.0f} px below the slide's content")
    banner = boxes["banner"]
    for control in boxes["controls"]:
        if control["left"] < banner["right"] and banner["left"] < control["right"] \
                and control["top"] < banner["bottom"] and banner["top"] < control["bottom"]:
            found.append(f"{slide.demo}: the follow banner covers {control['name']!r}")
    return found


def test_every_poll_slide_reads_from_the_hall_and_the_banner_covers_no_control(open_page, server, screenshot_path):
    lecturer = open_page(slide_path(POLL_SLIDES[0].demo), **PROJECTOR)
    lead_the_class(lecturer)
    expect(lecturer.locator(".follow-banner")).to_be_visible()
    banner_texts = lecturer.evaluate(TEXTS, ".follow-banner")
    assert banner_texts and all(t["px"] >= MIN_PX for t in banner_texts), banner_texts
    found = []
    for slide in POLL_SLIDES:
        lecturer.evaluate("(n) => window.greatShift.deck.goTo(n)", slide.n)
        box = poll(lecturer, slide.demo)
        expect(box).to_have_attribute("data-open", "false")
        found += poll_problems(lecturer, slide)  # before: the question and the lecturer's controls

        box.locator(".poll-open").click()
        expect(box).to_have_attribute("data-open", "true")  # the server has opened it: a student may answer
        as_a_student(server, f"/api/polls/{slide.demo}/answer",
                     {"value": slide.poll.min} if slide.poll.kind == "number" else {"choice": 0})
        box.locator(".poll-counts").click()  # the tallest open poll: the answers drawn
        expect(box.locator(".poll-status")).to_contain_text("1 answer so far.")
        found += poll_problems(lecturer, slide)
        lecturer.screenshot(path=screenshot_path(f"kept-{slide.demo}-open.png"))

        box.locator(".poll-close").click()
        run_at_the_slides_settings(lecturer, slide.demo)
        expect(box).to_have_attribute("data-judged", "true")
        found += poll_problems(lecturer, slide)
        lecturer.screenshot(path=screenshot_path(f"kept-{slide.demo}-after.png"))
    assert not found, "\n".join(found)


def test_the_question_panel_and_the_questions_on_screen_read_from_the_hall(open_page):
    lecturer = open_page(slide_path(CHOICE), **PROJECTOR)
    lead_the_class(lecturer)
    student = open_page("/join", **PROJECTOR)  # a laptop in the hall
    questions.send_question(student, "Why does the LSTM forget?")
    texts = student.evaluate(TEXTS, ".questions-panel")
    assert any(t["text"].endswith("yours") for t in texts), texts
    small = [t for t in texts if t["px"] < MIN_PX - 0.05]
    assert not small, small
    presenter = questions.open_presenter(lecturer)
    screen = questions.toggle_on_screen(presenter, lecturer, shown=True)
    expect(screen.locator(".question-words")).to_have_text("Why does the LSTM forget?")
    small = [t for t in lecturer.evaluate(TEXTS, ".questions-screen") if t["px"] < MIN_PX - 0.05]
    assert not small, small
    questions.toggle_on_screen(presenter, lecturer, shown=False)
