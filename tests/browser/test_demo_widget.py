"""The demo widget in a real browser: run the system check's demo, watch it finish, reload and restart
and still have it, and see bad input explained in the widget."""
import re

import pytest
import torch
from playwright.sync_api import expect

from engine import Engine
from tests.browser.a11y import expect_accessible
from tests.browser.watch import PageWatch, watched_page
from tests.deck import LECTURE, counter, slide_path
from tests.live_server import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of this module's own whose cache holds the system check's default result, computed
    before it starts, so no test here depends on another having run first."""
    cache = tmp_path_factory.mktemp("widget") / "cache"
    engine = Engine(cache)
    engine.compute(*engine.resolve("system_check", None))
    with LiveServer(cache) as live:
        yield live


@pytest.fixture
def fresh_page(browser, tmp_path):
    """Slide 1 on a server of its own with nothing cached yet, watched as `open_page` watches pages."""
    with LiveServer(tmp_path / "cache") as live:
        context, page, watch = watched_page(browser, live.url)
        page.goto(live.url + slide_path("system_check"))
        page.wait_for_function("() => window.greatShift !== undefined")
        yield page
        context.close()
    assert not watch.errors, watch.errors
    assert not watch.outside_requests, f"requests left localhost: {watch.outside_requests}"


def demo(page, demo_id):
    return page.locator(f"#slide-{demo_id} .demo")


def test_system_check_runs_on_its_slide_and_shows_its_result(fresh_page, screenshot_path):
    page = fresh_page
    widget = demo(page, "system_check")
    expect(widget.locator(".demo-run")).to_have_text("Run")
    # Nothing cached yet, so nothing ran: the box says what the demo measures and that Run times it.
    expect(widget.locator(".demo-placeholder")).to_contain_text("Press Run to measure it on cpu: the first run here times it.")
    expect(widget.locator(".demo-estimate")).to_have_text("time not measured here yet")
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-badge")).to_contain_text("trained just now on cpu in", timeout=60_000)
    expect(widget.locator(".facts")).to_contain_text("PyTorch")
    expect(widget.locator(".facts dd").first).to_have_text("cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".js-plotly-plot .bars .point")).to_have_count(3)
    expect(widget.locator(".demo-summary")).to_contain_text("matrix product took")
    expect(widget.locator(".cache-status-heading")).to_have_text(f"Demos in this deck: 1 of {len(LECTURE) - 1} cached")
    expect(widget.locator('.cache-chip[data-state="cached"]')).to_have_count(1)
    expect(widget.locator(".demo-run")).to_have_text("Rerun")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-01-system-check.png"))
    # The button keeps focus, but the arrow keys still move the deck.
    page.keyboard.press("ArrowRight")
    expect(page.locator(".counter")).to_have_text(counter("system_check", 1))


def test_a_reload_shows_the_cached_result_without_pressing_run(open_page):
    page = open_page(slide_path("system_check"))
    widget = demo(page, "system_check")
    expect(widget.locator(".demo-badge")).to_contain_text("cached · computed on cpu in")
    expect(widget.locator(".facts")).to_be_visible()
    expect(widget.locator(".demo-run")).to_have_text("Rerun")


def test_a_link_to_settings_not_computed_leaves_no_sentence_of_the_default_on_show(open_page):
    # The page comes with the default result's sentence (web/deck.py opening_summary); the link asks
    # for another result, which is not computed: nothing speaks for it.
    page = open_page(slide_path("system_check") + "?size=1024")
    widget = demo(page, "system_check")
    expect(widget.locator(".demo-badge")).to_contain_text("not computed with these settings yet")
    expect(widget.locator(".demo-summary")).to_be_empty()


def test_a_demo_waits_to_be_shown(open_page):
    page = open_page(slide_path("signal_decay"))
    # The system check's demo is cached, but it is not on screen, so it has not been asked for.
    expect(demo(page, "system_check").locator(".demo-output .demo-placeholder")).to_have_count(1)  # nothing drawn
    page.keyboard.press("ArrowLeft")
    expect(demo(page, "system_check").locator(".demo-badge")).to_contain_text("cached")


def test_a_bad_setting_is_explained_in_the_widget_and_runs_nothing(open_page):
    page = open_page(slide_path("system_check"))
    page.watch.expect_error("status of 400")
    widget = demo(page, "system_check")
    expect(widget.locator(".demo-badge")).to_contain_text("cached")
    widget.locator(".demo-settings summary").click()
    size = widget.locator('input[name="size"]')
    size.fill("5")
    page.keyboard.press("ArrowRight")  # typing in a field never moves the deck
    expect(page.locator(".counter")).to_have_text(counter("system_check"))
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-error")).to_have_text("size: enter a whole number between 64 and 2,048; 5 is too small")
    expect(size).to_have_attribute("aria-invalid", "true")
    expect(widget.locator(".demo-badge")).to_contain_text("cached")  # the result shown is untouched
    widget.locator(".demo-reset").click()
    expect(size).to_have_value("512")
    expect(size).not_to_have_attribute("aria-invalid", "true")


def test_new_settings_train_with_progress_then_show_the_fresh_result(open_page):
    page = open_page(slide_path("system_check"))
    widget = demo(page, "system_check")
    expect(widget.locator(".demo-badge")).to_contain_text("cached")
    widget.locator(".demo-settings summary").click()
    widget.locator('input[name="size"]').fill("1024")
    widget.locator('input[name="repeats"]').fill("31")
    widget.locator(".demo-settings summary").click()
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-progress")).to_be_visible()
    expect(widget.locator(".demo-progress-message")).to_contain_text("%")
    expect(widget.locator(".demo-badge")).to_contain_text("trained just now", timeout=60_000)
    expect(widget.locator(".demo-progress")).to_be_hidden()
    expect(widget.locator(".js-plotly-plot .bars .point")).to_have_count(3)
    expect(widget.locator(".demo-summary")).to_contain_text("(median of 31)")
    expect(widget.locator(".js-plotly-plot .xtick text").last).to_have_text("1024×1024")


def test_a_restarted_server_still_has_the_result(browser, tmp_path):
    cache = tmp_path / "cache"
    first = LiveServer(cache).start()
    try:
        page = browser.new_page()
        page.goto(first.url + slide_path("system_check"))
        page.locator("#slide-system_check .demo-run").click()
        expect(page.locator("#slide-system_check .demo-badge")).to_contain_text("trained just now", timeout=60_000)
        page.close()
    finally:
        first.stop()
    second = LiveServer(cache).start()
    try:
        watch = PageWatch(second.url)
        page = browser.new_page()
        page.on("console", watch.on_console)
        page.goto(second.url + slide_path("system_check"))
        expect(page.locator("#slide-system_check .demo-badge")).to_contain_text("cached · computed on cpu")
        assert not watch.errors
        page.close()
    finally:
        second.stop()


def test_a_cached_longer_run_is_offered_beside_the_quick_one(open_page, server):
    """When the instructor has computed a demo's longer run (`flask warm --full`), its slide offers
    it with a button, and the same button goes back to the quick run. The cached entry here is a
    tiny run stored under the longer run's key: what the widget must do with it is the same."""
    from demos import DEMOS
    from demos.runtime.budgets import budget_label, full_params
    from demos.runtime.runner import effective_params, run_demo
    from demos.runtime.versions import code_version
    from engine.cache import ResultCache, cache_key

    dyck = DEMOS["dyck"]
    quick = {"lengths": [20], "steps": 50, "width": 8, "seeds": 1}
    result = run_demo(dyck, quick, lambda *args: None, torch.device("cpu"))
    full = effective_params(dyck, full_params(dyck, "cpu"), "cpu")  # the server's (a CPU's) prepared run
    longer = {**result, "params": full, "summary": "The longer run's summary.",
              "budget_run": budget_label(dyck, full, "cpu")}
    ResultCache(server.cache_dir).put("dyck", cache_key("dyck", full, code_version(dyck.__name__)), full, longer)

    page = open_page(slide_path("dyck"))
    widget = demo(page, "dyck")
    widget.locator(".demo-settings summary").click()
    widget.locator('.demo-params [name="steps"]').fill("50")
    widget.locator('.demo-params [name="width"]').fill("8")
    widget.locator('.demo-params [name="seeds"]').fill("1")
    widget.locator(".demo-settings summary").click()
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-badge")).to_contain_text("on cpu", timeout=120_000)
    expect(widget.locator(".demo-badge")).to_have_text(re.compile(r" s · settings chosen in class$"))  # not a budget of its class
    button = widget.locator(".demo-longer")
    expect(button).to_have_text("Longer run")
    quick_summary = widget.locator(".demo-summary").inner_text()
    button.click()
    expect(widget.locator(".demo-summary")).to_have_text("The longer run's summary.")
    expect(widget.locator(".demo-badge")).to_have_text(re.compile(r"^cached · computed on cpu in [\d.]+ s · the CPU prepared run$"))
    expect(button).to_have_text("Back to the quick run")
    expect(button).to_have_attribute("aria-pressed", "true")
    button.click()
    expect(widget.locator(".demo-summary")).to_have_text(quick_summary)
    expect(button).to_have_text("Longer run")


def test_defaults_also_resets_the_field_beside_run(open_page):
    page = open_page(slide_path("generation"))
    widget = demo(page, "generation")
    prompt = widget.locator('.demo-toolbar input[name="prompt"]')
    expect(prompt).to_have_value("The function returns")
    prompt.fill("Hello there")
    widget.locator(".demo-settings summary").click()
    widget.locator('select[name="decoding"]').select_option(label="sample")
    widget.locator(".demo-reset").click()
    expect(prompt).to_have_value("The function returns")
    expect(widget.locator('select[name="decoding"]')).to_have_value('"greedy"')
