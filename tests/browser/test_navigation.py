"""Presenting the deck in a real browser: keys, URLs, history, overlays, touch and window sizes."""
import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.deck import LECTURE, SLIDES, counter, slide_number, slide_path
from tests.live_server import ROOT

SITE = " · The Great Shift"


@pytest.fixture(scope="module")
def titles(server):
    with urllib.request.urlopen(server.url + "/api/slides") as response:
        return {s["n"]: s["title"] for s in json.load(response)["slides"]}


def expect_slide(page, n, titles):
    expect(page.locator(".counter")).to_have_text(f"{n} / {SLIDES}")
    expect(page).to_have_url(re.compile(rf"/slides/{n}$"))
    expect(page).to_have_title(titles[n] + SITE)
    expect(page.locator(f".slide[data-n=\"{n}\"]")).to_be_visible()
    assert page.locator(".slide:visible").count() == 1


def test_arrow_right_walks_through_all_the_slides(open_page, titles):
    page = open_page(slide_path(LECTURE[0]))
    expect(page.locator(".counter")).to_have_text(counter(LECTURE[0]))
    for demo_id in LECTURE[1:]:
        page.keyboard.press("ArrowRight")
        expect_slide(page, slide_number(demo_id), titles)
    page.keyboard.press("ArrowRight")  # nothing after the last slide
    expect_slide(page, slide_number(LECTURE[-1]), titles)


def test_the_other_next_and_previous_keys(open_page, titles):
    page = open_page(slide_path("index_lookup"))
    start = slide_number("index_lookup")
    for key, offset in [("PageDown", 1), ("Space", 2), ("n", 3), ("PageUp", 2), ("Shift+Space", 1), ("p", 0), ("ArrowLeft", -1)]:
        page.keyboard.press(key)
        expect_slide(page, start + offset, titles)


def test_home_end_and_go_to_slide(open_page, titles):
    page = open_page(slide_path("recall_vs_length"))
    page.keyboard.press("End")
    expect_slide(page, slide_number(LECTURE[-1]), titles)
    page.keyboard.press("Home")
    expect_slide(page, slide_number(LECTURE[0]), titles)
    page.keyboard.press("g")
    expect(page.locator(".goto")).to_be_visible()
    expect(page.locator(".goto")).to_be_focused()  # a dialog: it has the focus, so a screen reader names it
    page.keyboard.type(str(slide_number("attention_web")))
    page.keyboard.press("Enter")
    expect(page.locator(".goto")).to_be_hidden()
    expect_slide(page, slide_number("attention_web"), titles)
    # Two digits, and Escape cancels without moving.
    two_digits = slide_number("context_scaling")
    assert two_digits >= 10
    page.keyboard.press("g")
    page.keyboard.type(str(two_digits))
    page.keyboard.press("Enter")
    expect_slide(page, two_digits, titles)
    page.keyboard.press("g")
    page.keyboard.type(str(slide_number("amnesia")))
    page.keyboard.press("Escape")
    expect(page.locator(".goto")).to_be_hidden()
    expect_slide(page, two_digits, titles)
    expect(page.locator(f'.slide[data-n="{two_digits}"]')).to_be_focused()  # the focus back where it was


def test_the_progress_bar_grows_with_the_slide_number(open_page, titles):
    page = open_page(slide_path("system_check"))
    bar = page.locator(".progress-bar")
    expect(bar).to_have_attribute("style", "width: 0%;")
    page.keyboard.press("End")
    expect(bar).to_have_attribute("style", "width: 100%;")
    page.keyboard.press("g")
    n = slide_number("attention_web")
    page.keyboard.type(str(n))
    page.keyboard.press("Enter")
    expect(page.locator(".counter")).to_have_text(counter("attention_web"))  # moved: the bar with it
    width = float(bar.get_attribute("style").removeprefix("width: ").removesuffix("%;"))
    assert width == pytest.approx(100 * (n - 1) / (SLIDES - 1), abs=1e-3)  # written to 6 figures: 46.1538% of 14 slides


def test_the_overview_jumps_by_click_and_by_keyboard(open_page, titles):
    page = open_page(slide_path("amnesia"))
    overview = page.locator(".overview")
    page.keyboard.press("o")
    expect(overview).to_be_visible()
    expect(page.locator(".overview-card")).to_have_count(SLIDES)
    expect(page.locator('.overview-card[aria-current="page"]')).to_have_attribute("data-n", str(slide_number("amnesia")))
    page.locator(f'.overview-card[data-n="{slide_number("training_progression")}"]').click()
    expect(overview).to_be_hidden()
    expect_slide(page, slide_number("training_progression"), titles)

    page.keyboard.press("Escape")
    expect(overview).to_be_visible()
    page.keyboard.press("ArrowRight")  # to the next card
    page.keyboard.press("ArrowDown")  # one row down: no card there, so the last card
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(overview).to_be_hidden()
    expect_slide(page, slide_number(LECTURE[-1]) - 1, titles)  # the card left of the last

    page.keyboard.press("o")
    page.keyboard.press("Escape")  # closes without moving
    expect(overview).to_be_hidden()
    expect_slide(page, slide_number(LECTURE[-1]) - 1, titles)


def test_the_help_overlay_lists_every_key_and_the_readme_agrees(open_page):
    page = open_page(slide_path("signal_decay"))
    help_overlay = page.locator(".help")
    page.keyboard.press("?")
    expect(help_overlay).to_be_visible()
    rows = help_overlay.locator("tbody tr")
    listed = rows.all_inner_texts()
    for action in ["Next slide", "Previous slide", "First slide", "Last slide", "Go to slide",
                   "Overview", "Full screen", "Blank", "list of keys"]:
        assert any(action in row for row in listed), f"help does not list {action}"
    keys = [k.strip() for k in help_overlay.locator("kbd").all_inner_texts()]
    for key in ["→", "Space", "PageDown", "N", "←", "Shift + Space", "PageUp", "P", "Home", "End", "G", "O", "Esc", "F", "B", ".", "?"]:
        assert key in keys, f"help does not show the key {key}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for row in listed:
        label = row.split("\t")[-1].strip()
        assert label in readme, f"README's keyboard map lacks: {label}"
    page.keyboard.press("ArrowRight")  # no movement while the help is open
    expect(page.locator(".counter")).to_have_text(counter("signal_decay"))
    page.keyboard.press("Escape")
    expect(help_overlay).to_be_hidden()
    page.locator(".control-help").click()
    expect(help_overlay).to_be_visible()


def test_blank_screen_and_back(open_page):
    page = open_page(slide_path("attention_web"))
    for key in ["b", "."]:
        page.keyboard.press(key)
        expect(page.locator(".blank")).to_be_visible()
        page.keyboard.press("ArrowRight")  # nothing moves behind a blank screen
        expect(page.locator(".counter")).to_have_text(counter("attention_web"))
        page.keyboard.press(key)
        expect(page.locator(".blank")).to_be_hidden()


def test_f_toggles_full_screen(open_page):
    page = open_page(slide_path("signal_decay"))
    page.keyboard.press("f")
    page.wait_for_function("() => document.fullscreenElement !== null")
    page.keyboard.press("f")
    page.wait_for_function("() => document.fullscreenElement === null")


def test_back_and_forward_buttons_and_reload(open_page, titles):
    page = open_page(slide_path("system_check"))
    start = slide_number("system_check")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect_slide(page, start + 2, titles)
    page.go_back()
    expect_slide(page, start + 1, titles)
    page.go_back()
    expect_slide(page, start, titles)
    page.go_forward()
    expect_slide(page, start + 1, titles)
    page.reload()
    expect_slide(page, start + 1, titles)


def test_moving_between_slides_does_not_reload_the_page(open_page):
    page = open_page(slide_path("system_check"))
    page.evaluate("() => { window.stillTheSamePage = true; }")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    expect(page.locator(".counter")).to_have_text(counter(LECTURE[-1]))
    assert page.evaluate("() => window.stillTheSamePage") is True


FIELDS = ('<input id="t" type="text"><input id="num" type="number" value="5"><input id="r" type="range" value="50">'
          '<select id="s"><option>a</option><option>b</option><option>c</option></select>')


def add_to_the_demo(page, html: str) -> None:
    page.evaluate("(html) => document.querySelector('#slide-amnesia .demo').insertAdjacentHTML('beforeend', html)", html)


def touch(page, field: str) -> None:
    """Use a control with the mouse, as a lecturer would: a click, or for a menu an option picked (its
    list, open, would take every key until it closes, as the browser's own lists do)."""
    if page.locator(field).evaluate("element => element.tagName") == "SELECT":
        page.locator(field).select_option("b")
        page.locator(field).focus()
    else:
        page.locator(field).click()


def test_keys_typed_into_a_demo_field_stay_there_until_esc_hands_the_arrows_back(open_page):
    page = open_page(slide_path("amnesia"))
    add_to_the_demo(page, FIELDS)
    page.locator("#t").type("Hello")
    expect(page.locator("#t")).to_have_value("Hello")
    for field in ["#t", "#num", "#r", "#s"]:
        touch(page, field)
        for key in ["ArrowRight", "ArrowLeft", "Space", "n", "End", "o", "?"]:
            page.keyboard.press(key)
        expect(page.locator(".counter")).to_have_text(counter("amnesia"))
        expect(page.locator(".overview")).to_be_hidden()
        if field == "#s":
            page.keyboard.press("Escape")  # Space opened the menu's list: the first Esc closes it
        page.keyboard.press("Escape")  # leaves the field: the arrows are the deck's again
        expect(page.locator(field)).not_to_be_focused()
        expect(page.locator(".overview")).to_be_hidden()
        page.keyboard.press("ArrowRight")
        expect(page.locator(".counter")).to_have_text(counter("amnesia", 1))
        page.keyboard.press("ArrowLeft")
        expect(page.locator(".counter")).to_have_text(counter("amnesia"))


def test_on_a_button_the_arrows_and_space_move_the_deck_and_enter_presses_it(open_page):
    page = open_page(slide_path("amnesia"))
    add_to_the_demo(page, '<button id="b" type="button">Press me</button>')
    page.evaluate("() => { window.pressed = 0; document.querySelector('#b').addEventListener('click', () => { window.pressed += 1; }); }")
    for key, offset in [("ArrowRight", 1), ("Space", 1), ("ArrowLeft", -1), ("Shift+Space", -1)]:
        page.locator("#b").click()  # the mouse presses it once
        page.keyboard.press(key)  # the key moves the deck and presses nothing
        expect(page.locator(".counter")).to_have_text(counter("amnesia", offset))
        page.evaluate("(n) => window.greatShift.deck.goTo(n)", slide_number("amnesia"))
        expect(page.locator(".counter")).to_have_text(counter("amnesia"))
    assert page.evaluate("window.pressed") == 4, "only the clicks pressed it"
    page.locator("#b").focus()
    page.keyboard.press("Enter")  # Enter presses it; the deck stays
    assert page.evaluate("window.pressed") == 5
    expect(page.locator(".counter")).to_have_text(counter("amnesia"))
    run = page.locator("#slide-amnesia .demo-run")  # the demo's own Run: Space moves on, and runs nothing
    run.focus()
    page.keyboard.press("Space")
    expect(page.locator(".counter")).to_have_text(counter("amnesia", 1))
    expect(page.locator("#slide-amnesia .demo-badge")).to_have_text("")
    expect(page.locator("#slide-amnesia .demo-run")).to_have_text("Run")


def test_a_clicker_moves_the_deck_from_any_field_or_button(open_page):
    page = open_page(slide_path("amnesia"))
    add_to_the_demo(page, FIELDS + '<button id="b" type="button">Press me</button>')
    for field, value in [("#t", ""), ("#num", "5"), ("#r", "50"), ("#s", "b"), ("#b", None)]:
        expect(page.locator(".counter")).to_have_text(counter("amnesia"))
        touch(page, field)
        page.keyboard.press("PageDown")
        expect(page.locator(".counter")).to_have_text(counter("amnesia", 1))
        if value is not None:
            expect(page.locator(field)).to_have_value(value)  # the clicker's key changed nothing in the field
        expect(page.locator(field)).not_to_be_focused()
        page.locator(field).focus()
        page.keyboard.press("PageUp")
        expect(page.locator(".counter")).to_have_text(counter("amnesia"))
        if value is not None:
            expect(page.locator(field)).to_have_value(value)


def test_the_on_screen_buttons_move_the_deck(open_page, titles):
    page = open_page(slide_path("system_check"))
    expect(page.locator(".control-prev")).to_be_disabled()
    page.locator(".control-next").click()
    expect_slide(page, slide_number("system_check") + 1, titles)
    page.locator(".control-prev").click()
    expect_slide(page, slide_number("system_check"), titles)


def swipe(page, from_x, to_x, y=300):
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": from_x, "y": y}]})
    for x in range(from_x, to_x, (to_x - from_x) // 5):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_swiping_on_a_phone_moves_between_slides(open_page, titles):
    page = open_page(slide_path("recall_vs_length"), width=390, height=844, has_touch=True, is_mobile=True)
    swipe(page, 320, 60)
    expect_slide(page, slide_number("recall_vs_length") + 1, titles)
    swipe(page, 60, 320)
    expect_slide(page, slide_number("recall_vs_length"), titles)


@pytest.mark.parametrize("width,height", [(1024, 768), (1280, 720), (1920, 1080), (3840, 2160)])
def test_the_canvas_fills_the_window_with_the_room_every_slide_needs(open_page, width, height):
    """A 4:3 or 16:9 screen: the canvas takes the window's shape (no empty bands), and it is at least
    1280×900 canvas pixels (the room every slide is designed to fit), so it is never shown under 0.8."""
    page = open_page(slide_path("amnesia"), width=width, height=height)
    box = page.locator(".canvas").bounding_box()
    assert box["width"] == pytest.approx(width, abs=1) and box["height"] == pytest.approx(height, abs=1)
    canvas_width, canvas_height = page.evaluate("() => [document.querySelector('.canvas').offsetWidth, document.querySelector('.canvas').offsetHeight]")
    assert canvas_width >= 1280 and canvas_height >= 900
    scale = box["width"] / canvas_width
    assert scale >= 0.8 - 0.001
    # Text grows with the screen: the title is the same size in canvas pixels everywhere.
    title_height = page.locator("#slide-amnesia .slide-title").bounding_box()["height"]
    assert title_height / scale == pytest.approx(46 * 1.1, rel=0.15)


def test_a_phone_gets_a_readable_single_column(open_page):
    page = open_page(slide_path("amnesia"), width=390, height=844, is_mobile=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    body_px = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('#slide-amnesia .slide-body')).fontSize)")
    assert body_px >= 16
    body = page.locator("#slide-amnesia .slide-body").bounding_box()
    demo = page.locator("#slide-amnesia .demo").bounding_box()
    assert demo["y"] >= body["y"] + body["height"] - 1, "the demo comes below the text"


def test_a_students_page_holds_no_speaker_notes(open_page):
    page = open_page(slide_path("amnesia"))
    assert page.locator(".notes").count() == 0
    assert "Note:" not in page.content()


@pytest.mark.parametrize("demo_id", ["system_check", "attention_web"])
def test_screenshot(open_page, screenshot_path, demo_id):
    page = open_page(slide_path(demo_id))
    # The slide as the audience sees it: its default result drawn if cached, else the box waiting for Run
    # (Plotly runs only for a chart).
    demo = page.evaluate("() => window.greatShift.deck.current.dataset.demo")
    cached = page.evaluate("async (demo) => (await (await fetch(`/api/demos/${demo}`)).json()).cached", demo)
    if cached:
        expect(page.locator(f"#slide-{demo} .js-plotly-plot").first).to_be_visible(timeout=60_000)
    else:
        expect(page.locator(f"#slide-{demo} .demo-placeholder")).to_be_visible()
    page.screenshot(path=screenshot_path(f"slide-{slide_number(demo_id):02d}.png"))


def test_key_hints_show_only_where_there_are_keys(open_page):
    laptop = open_page(slide_path("system_check"), width=1024, height=768)
    expect(laptop.get_by_text("Press → or Space to begin")).to_be_visible()
    phone = open_page(slide_path("system_check"), width=390, height=844, is_mobile=True, has_touch=True)
    expect(phone.locator(".slide-title").first).to_be_visible()
    expect(phone.get_by_text("Press → or Space to begin")).to_be_hidden()
    phone.locator(".control-help").tap()  # an overlay a phone opens says nothing of keys, and closes by touch
    expect(phone.locator(".help")).to_be_visible()
    expect(phone.locator(".help .overlay-hint")).to_be_hidden()
    phone.locator(".help .overlay-close").tap()
    expect(phone.locator(".help")).to_be_hidden()


@pytest.mark.parametrize("key,dialog", [("?", ".help"), ("o", ".overview"), ("i", ".instructor")])
def test_overlays_hide_the_slide_behind_them(open_page, key, dialog):
    page = open_page(slide_path("amnesia"), width=1024, height=768)
    page.keyboard.press(key)
    expect(page.locator(dialog)).to_be_visible()
    alpha = page.locator(dialog).evaluate("el => getComputedStyle(el).backgroundColor.match(/[\\d.]+/g).map(Number)[3] ?? 1")
    assert alpha == 1, "the slide's words would show through the overlay's"
    page.keyboard.press("Escape")  # one Esc closes it, from a field too
    expect(page.locator(dialog)).to_be_hidden()


@pytest.mark.parametrize("width,height", [(390, 844), (1024, 768)])
def test_the_follow_banner_leaves_the_counter_visible(open_page, width, height):
    page = open_page(slide_path("amnesia"), width=width, height=height, is_mobile=width < 500)
    page.wait_for_function("() => window.greatShift.follow.state !== null")  # the server's state (off) has come
    for leading, following in [(True, True), (False, False)]:  # the longest texts: leading, and browsing with a button
        page.evaluate("""([leading, following, n]) => {
            const follow = window.greatShift.follow;
            Object.assign(follow, { state: { on: true, n, demo: null }, leading, following });
            follow.render();
        }""", [leading, following, slide_number("amnesia")])
        banner = page.locator(".follow-banner").bounding_box()
        for control in (".counter", ".control-next", ".control-help"):
            box = page.locator(control).bounding_box()
            apart = (banner["x"] + banner["width"] <= box["x"] or box["x"] + box["width"] <= banner["x"]
                     or banner["y"] + banner["height"] <= box["y"] or box["y"] + box["height"] <= banner["y"])
            assert apart, f"the follow banner covers {control} at {width}×{height}"
