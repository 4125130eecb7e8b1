"""The presenter view as the lecturer uses it: pictures of the slide on screen and the next one,
notes scrolled from the keyboard, its own list of keys, and the numbers the notes leave out: the
current slide's cached result with its device and date. (Counting the students: test_classroom.)"""
import re

from playwright.sync_api import expect

from slides import load_deck
from tests.deck import counter, slide_number, slide_path


def open_presenter(page):
    with page.expect_popup() as popup:
        page.keyboard.press("s")
    presenter = popup.value
    presenter.set_viewport_size({"width": 1280, "height": 800})
    return presenter


def test_the_presenter_shows_pictures_of_the_slide_on_screen_and_the_next(open_page, screenshot_path):
    deck = load_deck()
    page = open_page(slide_path("attention_matrix"), width=1600, height=900)
    presenter = open_presenter(page)
    now_frame = presenter.locator(".presenter-picture-now")
    # Each picture is a page of its own (the copy's poll and buttons are not the presenter's).
    now, following = (presenter.frame_locator(f".presenter-picture-{which} iframe").locator("body") for which in ("now", "next"))
    n = slide_number("attention_matrix")
    expect(now.locator(".slide-title")).to_have_text(deck[n - 1].title)
    expect(following.locator(".slide-title")).to_have_text(deck[n].title)
    expect(presenter.locator(".presenter-next-title")).to_have_text(f"{n + 1}. {deck[n].title}")
    assert now_frame.get_attribute("role") == "img" and deck[n - 1].title in now_frame.get_attribute("aria-label")
    # Small, but the whole slide: as wide as its frame, 16:9.
    frame, slide = now_frame.bounding_box(), now_frame.locator("iframe").bounding_box()
    assert abs(slide["width"] - frame["width"]) < 2 and abs(slide["height"] / slide["width"] - 9 / 16) < 0.01
    # The formula on the slide is typeset in the picture too.
    expect(now.locator("math msqrt")).to_have_count(1)

    page.keyboard.press("ArrowRight")
    expect(now.locator(".slide-title")).to_have_text(deck[n].title)
    expect(following.locator(".slide-title")).to_have_text(deck[n + 1].title)
    # What changes on the slides window's screen shows in the picture: the Settings opened there.
    page.locator(".slide:visible .demo-settings summary").click()
    expect(now.locator(".demo-settings[open]")).to_have_count(1)
    presenter.screenshot(path=screenshot_path("presenter-1280x800.png"))


def test_the_presenter_keys_scroll_the_notes_move_the_slides_and_have_their_own_help(open_page):
    page = open_page(slide_path("context_scaling"))
    presenter = open_presenter(page)
    notes = presenter.locator(".presenter-notes")
    expect(notes.locator("p").first).to_be_visible()
    presenter.set_viewport_size({"width": 1000, "height": 500})  # the notes no longer fit
    presenter.wait_for_function("() => { const pane = document.querySelector('.presenter-notes');"
                                " return pane.scrollHeight > pane.clientHeight; }")
    presenter.keyboard.press("ArrowDown")
    presenter.wait_for_function("() => document.querySelector('.presenter-notes').scrollTop > 0")
    presenter.keyboard.press("j")
    after_two = notes.evaluate("pane => pane.scrollTop")
    presenter.keyboard.press("k")
    presenter.wait_for_function(f"() => document.querySelector('.presenter-notes').scrollTop < {after_two}")
    expect(page.locator(".counter")).to_have_text(counter("context_scaling"))  # arrows up and down moved no slide
    presenter.keyboard.press("ArrowRight")
    expect(page.locator(".counter")).to_have_text(counter("context_scaling", 1))

    presenter.keyboard.press("?")
    help_overlay = presenter.locator(".help")
    expect(help_overlay).to_be_visible()
    expect(help_overlay).to_contain_text("Scroll the notes down")
    expect(help_overlay).to_contain_text("Blank the audience's screen")
    expect(help_overlay).not_to_contain_text("Instructor panel")  # the slides window's keys are not listed here
    presenter.keyboard.press("Escape")
    expect(help_overlay).to_be_hidden()

    presenter.keyboard.press("g")  # the go-to prompt is a dialog here too: it takes the focus
    expect(presenter.locator(".goto")).to_be_focused()
    presenter.keyboard.type(str(slide_number("signal_decay")))
    presenter.keyboard.press("Enter")
    expect(presenter.locator(".goto")).to_be_hidden()
    expect(page.locator(".counter")).to_have_text(counter("signal_decay"))


def test_the_presenter_shows_the_measured_summary_with_its_device_budget_and_date(open_page):
    """Speaker notes hold no figures: the presenter view shows the slide's cached result instead."""
    page = open_page(slide_path("system_check"))
    presenter = open_presenter(page)
    measured = presenter.locator(".presenter-measured")
    expect(measured).not_to_be_empty()  # cached already (another test ran it) or "Not measured yet"
    page.locator("#slide-system_check .demo-run").click()  # the lecturer runs the demo: the presenter follows
    summary = page.locator("#slide-system_check .demo-summary")
    expect(page.locator("#slide-system_check .demo-badge")).to_contain_text("on cpu", timeout=60_000)
    run = measured.locator(".presenter-measured-run")
    expect(run).to_have_count(1)
    expect(run.locator(".presenter-measured-where")).to_have_text(
        re.compile(r"^Measured on cpu \(the CPU default\), .*\d{4}.*\d:\d\d.*: $"))  # the device, its budget, the date
    assert summary.text_content().strip() in run.text_content(), "the summary the slide shows, as measured"
    presenter.keyboard.press("End")  # the closing slide has no demo of its own
    expect(measured).to_have_text("This slide recaps the others' cached results.")


def test_on_the_recap_the_presenter_does_not_say_a_demo_is_waiting_to_run(open_page):
    page = open_page(slide_path("speed_race"))
    presenter = open_presenter(page)
    expect(presenter.locator(".presenter-demo-status")).to_have_text("not run yet on this slide")
    presenter.keyboard.press("End")  # the closing recap runs no demo of its own
    expect(presenter.locator(".presenter-title")).to_have_text(load_deck()[-1].title)
    expect(presenter.locator(".presenter-demo-status")).to_have_text("the recap: every slide's cached result")
