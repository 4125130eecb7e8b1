"""The deck for someone on a keyboard or a screen reader, and for a class whose data must stay in the
room: axe-core finds no serious violation in the overlays and the presenter view (each slide's own
test checks it with its result drawn), every control is reached and worked with the keyboard alone,
every dialog is left with Esc and gives the focus back, and no chart offers to send anything away."""
import re

from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible
from tests.browser.widget import TRAINED, set_params
from tests.deck import counter, slide_path


def focused(page) -> str:
    """What has the focus, described: its class, name or text."""
    return page.evaluate("""() => {
        const e = document.activeElement;
        return [e.className, e.name || '', e.textContent.trim().slice(0, 30)].join(' | ');
    }""")


def tab_to(page, selector: str, most: int = 60) -> None:
    """Press Tab until the element matching `selector` has the focus (as a keyboard user would)."""
    for _ in range(most):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}; the focus is on {focused(page)}")


def test_the_help_overview_and_instructor_dialogs_are_accessible_and_left_with_esc(open_page):
    page = open_page(slide_path("amnesia"))
    page.locator("#slide-amnesia .demo-run").focus()
    for key, dialog in (("?", ".help"), ("o", ".overview"), ("i", ".instructor")):
        page.locator("#slide-amnesia").focus()
        page.keyboard.press(key)
        expect(page.locator(dialog)).to_be_visible()
        assert page.evaluate("(s) => document.querySelector(s).contains(document.activeElement)", dialog), \
            f"{dialog} took the focus"
        assert page.evaluate("() => document.querySelector('.viewport').inert"), "the slide behind is inert"
        expect_accessible(page, dialog)
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()
        assert page.evaluate("() => document.activeElement.id") == "slide-amnesia", "the focus came back"
        assert not page.evaluate("() => document.querySelector('.viewport').inert")
    expect(page.locator(".counter")).to_have_text(counter("amnesia"))


def test_every_control_of_the_instructor_panel_is_reached_by_tab(open_page):
    page = open_page(slide_path("system_check"))
    page.keyboard.press("i")
    expect(page.locator(".instructor-token")).to_be_focused()
    # The lecturer's controls appear once the server has said this browser is the instructor's.
    expect(page.locator(".instructor-status")).to_have_text("This browser is recognised as the instructor.")
    seen = []
    for _ in range(8):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("() => document.activeElement.className || document.activeElement.textContent.trim()"))
    for control in ("Save on this browser", "instructor-forget", "instructor-follow", "instructor-warm"):
        assert any(control in item for item in seen), f"Tab never reached {control}: {seen}"
    page.keyboard.press("Shift+Tab")  # and back again
    assert page.evaluate("() => document.querySelector('.instructor').contains(document.activeElement)")
    page.locator(".instructor-token").focus()
    page.keyboard.type("a-token")
    page.keyboard.press("Escape")  # one Esc, even from the field
    expect(page.locator(".instructor")).to_be_hidden()


def test_the_presenter_view_is_accessible(browser, server):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "/presenter")
        expect(page.locator(".presenter-notes p").first).to_be_visible()
        expect(page.locator(".presenter-notes-missing")).to_have_count(0)  # this machine is the instructor
        expect_accessible(page)
    finally:
        context.close()


def test_a_keyboard_alone_runs_the_amnesia_test_with_its_own_settings(open_page):
    page = open_page(slide_path("amnesia"))
    widget = page.locator("#slide-amnesia .demo")
    page.locator("#slide-amnesia").focus()
    tab_to(page, "#slide-amnesia .demo-settings summary")
    page.keyboard.press("Enter")  # opens Settings: the focus goes to its first field
    expect(widget.locator(".demo-params")).to_be_visible()
    values = {"length": "6", "steps": "30", "width": "8", "seeds": "1", "seed": "2"}
    in_settings = "() => document.activeElement.closest('.demo-params') !== null"
    page.wait_for_function(in_settings)  # the focus moves into Settings once they are open
    for _ in range(20):  # Tab through every field of Settings, typing each value
        if not page.evaluate(in_settings):
            break
        name = page.evaluate("() => document.activeElement.name")
        if name in values:
            page.keyboard.press("Control+A")
            page.keyboard.type(values[name])
        page.keyboard.press("Tab")
    for name, value in values.items():  # every parameter was reached and set
        expect(widget.locator(f'.demo-params [name="{name}"]')).to_have_value(value)
    page.keyboard.press("Shift+Tab")  # back inside Settings
    page.keyboard.press("Escape")  # closes Settings, the focus back on its toggle
    expect(widget.locator(".demo-params")).to_be_hidden()
    expect(widget.locator(".demo-settings summary")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(widget.locator(".demo-run")).to_be_focused()
    page.keyboard.press("Enter")  # presses Run (Space would move the deck); the deck stays put
    expect(widget.locator(".demo-badge")).to_contain_text("trained just now on cpu", timeout=TRAINED)
    expect(widget.locator(".amnesia-budget")).to_contain_text("seeds 2 · cpu")
    expect(page.locator(".counter")).to_have_text(counter("amnesia"))
    expect(widget.locator(".demo-run")).to_have_text("Rerun")
    expect(widget.locator(".demo-run")).to_be_focused()  # the focus back where the run started, not on the page


def test_a_keyboard_alone_reaches_the_sentence_and_settings_of_the_attention_matrix_slide(open_page):
    page = open_page(slide_path("attention_matrix"))
    widget = page.locator("#slide-attention_matrix .demo")
    page.locator("#slide-attention_matrix").focus()
    tab_to(page, "#slide-attention_matrix .demo-toolbar > .param input")  # the sentence beside Run
    expect(page.locator("#slide-attention_matrix .demo-toolbar > .param input")).to_have_attribute(
        "aria-describedby", re.compile("help"))
    tab_to(page, "#slide-attention_matrix .demo-settings summary")
    page.keyboard.press("Enter")
    expect(widget.locator(".demo-params")).to_be_visible()
    settings, toggle = widget.locator(".demo-params").bounding_box(), widget.locator(".demo-settings summary").bounding_box()
    assert settings["y"] >= toggle["y"] + toggle["height"], "Settings open below their toggle, not over it"
    for help_text in widget.locator(".demo-params .param-help").all():
        expect(help_text).to_be_visible()
    values = {"steps": "10", "layer": "1", "head": "1", "temperature": "0.5"}
    for name, value in values.items():  # each parameter, reached with Tab and typed into
        tab_to(page, f'#slide-attention_matrix .demo-params [name="{name}"]')
        page.keyboard.press("Control+A")
        page.keyboard.type(value)
    page.keyboard.press("Escape")
    expect(widget.locator(".demo-params")).to_be_hidden()
    page.keyboard.press("Shift+Tab")
    expect(widget.locator(".demo-run")).to_be_focused()
    page.keyboard.press("Enter")  # Run, from the keyboard
    expect(widget.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)
    expect(page.locator(".counter")).to_have_text(counter("attention_matrix"))


def test_the_generation_prompt_runs_from_the_keyboard(open_page):
    page = open_page(slide_path("generation"))
    widget = page.locator("#slide-generation .demo")
    page.locator("#slide-generation").focus()
    prompt = widget.locator('.demo-toolbar input[name="prompt"]')
    tab_to(page, '#slide-generation .demo-toolbar input[name="prompt"]')
    page.keyboard.press("Control+A")
    page.keyboard.type("The list")
    tab_to(page, "#slide-generation .demo-settings summary")
    page.keyboard.press("Enter")
    for name, value in (("characters", "10"), ("steps", "20"), ("seeds", "1")):
        tab_to(page, f'#slide-generation .demo-params [name="{name}"]')
        page.keyboard.press("Control+A")
        page.keyboard.type(value)
    page.keyboard.press("Escape")  # Settings close; the focus is on their toggle
    page.keyboard.press("Shift+Tab")  # Run
    page.keyboard.press("Shift+Tab")  # the prompt
    expect(prompt).to_be_focused()
    page.keyboard.press("Enter")  # Enter in the prompt runs the demo
    expect(widget.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)
    expect(widget.locator(".gen-prompt").first).to_have_text("The list")


def test_no_chart_offers_to_send_anything_off_the_server(open_page):
    page = open_page(slide_path("system_check"))
    widget = page.locator("#slide-system_check .demo")
    widget.locator(".demo-run").click()
    expect(widget.locator(".js-plotly-plot")).not_to_have_count(0, timeout=TRAINED)
    config = page.evaluate("""() => {
        const c = document.querySelector('.js-plotly-plot')._context;
        return [c.displayModeBar, c.showSendToCloud, c.showEditInChartStudio, c.showLink];
    }""")
    assert config[:2] == [False, False]  # no toolbar, no "send to cloud"
    assert all(value in (False, None) for value in config[2:])  # off, or gone from this Plotly version
    assert page.locator(".modebar, [data-title*='Chart Studio'], [data-title*='Share']").count() == 0
    chart = widget.locator(".js-plotly-plot").first
    expect(chart).to_have_attribute("role", "img")
    expect(chart).to_have_attribute("aria-label", re.compile(r"\w"))
    expect(chart).to_have_attribute("aria-describedby", "slide-system_check-summary")


def test_first_paint_and_moving_between_slides_never_wait_for_plotly(open_page):
    held = []
    page = open_page(slide_path("system_check"))  # loads Plotly in the background once shown: hold it
    page.context.route("**/vendor/plotly-*", lambda route: held.append(route))
    page.reload()  # a visit on which Plotly never arrives
    page.wait_for_function("() => window.greatShift !== undefined")
    assert page.evaluate("() => window.Plotly === undefined")
    for expected in (counter("system_check", 1), counter("system_check", 2)):
        page.keyboard.press("ArrowRight")
        expect(page.locator(".counter")).to_have_text(expected)
    assert page.evaluate("() => performance.getEntriesByName('first-contentful-paint').length") == 1
    assert held, "the page did ask for Plotly, in the background"


def test_while_a_run_runs_the_focus_is_on_cancel_and_then_back_on_run(open_page):
    page = open_page(slide_path("amnesia"))
    widget = page.locator("#slide-amnesia .demo")
    set_params(widget, seeds=1, steps=600, length=200, width=64)  # long enough to cancel
    widget.locator(".demo-run").focus()
    page.keyboard.press("Enter")
    expect(widget.locator(".demo-cancel")).to_be_focused()  # Run is disabled meanwhile: the focus did not drop
    page.keyboard.press("Enter")  # cancels
    expect(widget.locator(".demo-badge")).to_have_text("cancelled", timeout=10_000)
    expect(widget.locator(".demo-run")).to_be_focused()
    assert page.evaluate("() => document.activeElement !== document.body")


def test_the_help_on_a_phone_scrolls_with_the_keyboard_and_closes_with_a_tap(open_page, screenshot_path):
    page = open_page(slide_path("amnesia"), 390, 844)
    page.locator(".control-help").click()
    help_overlay = page.locator(".help")
    expect(help_overlay).to_be_visible()
    assert help_overlay.evaluate("e => e.scrollHeight > e.clientHeight"), "a list longer than the phone: it scrolls"
    expect_accessible(page, ".help")  # axe's scrollable-region-focusable among them
    boxes = help_overlay.locator(".overlay-panel, td").evaluate_all(
        "cells => cells.map((cell) => cell.getBoundingClientRect()).map((box) => [box.left, box.top, box.right])")
    assert boxes[0][1] >= 0, "the list starts on screen, with its title"
    assert all(left >= 0 and right <= 390 for left, _, right in boxes), "every key's words on the screen, not off its side"
    page.screenshot(path=screenshot_path("help-390.png"))
    page.keyboard.press("End")  # the keyboard scrolls it (the dialog has the focus), down to its Close button
    expect(help_overlay.locator(".overlay-close")).to_be_in_viewport()
    page.screenshot(path=screenshot_path("help-390-end.png"))
    help_overlay.locator(".overlay-close").click()  # a phone has no Esc
    expect(help_overlay).to_be_hidden()
    expect(page.locator(".control-help")).to_be_focused()


def test_nothing_scrolls_in_the_print_view(open_page):
    page = open_page(slide_path("system_check") + "?print")
    # A result taller than its box, as a long one is on some slides: cut on paper, never a scrolling region.
    page.evaluate("""() => document.querySelectorAll('.demo-output').forEach((output) => {
        const tall = document.createElement('p'); tall.style.height = '2000px'; tall.textContent = 'a tall result';
        output.append(tall); })""")
    scrolling = page.evaluate("""() => [...document.querySelectorAll('.deck *')].filter((e) => {
        const style = getComputedStyle(e);
        return ['auto', 'scroll'].includes(style.overflowY) && e.scrollHeight > e.clientHeight + 1; }).map((e) => e.className)""")
    assert scrolling == [], scrolling
    expect_accessible(page, rules=["scrollable-region-focusable"])
