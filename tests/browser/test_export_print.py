"""The static copy opens from disk with no server and shows the frozen results; the print
view gives one page per slide with the charts drawn."""
import re

import pytest
from playwright.sync_api import expect

from app import create_app
from tests.browser.watch import watched_page
from slides import RECAP, load_deck
from tests.deck import LECTURE, SLIDES, counter, slide_number, slide_path


@pytest.fixture(scope="module")
def export_dir(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("export")
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp / "cache")})
    engine = app.extensions["engine"]
    engine.compute(*engine.resolve("system_check", None))
    result = app.test_cli_runner().invoke(args=["export", str(tmp / "site")])
    assert result.exit_code == 0, result.output
    return tmp / "site"


def open_file(browser, path):
    _, page, watch = watched_page(browser, "file://")
    page.goto(path.as_uri())
    return page, watch


def test_the_export_opens_from_disk_and_shows_a_frozen_chart(browser, export_dir, screenshot_path):
    page, watch = open_file(browser, export_dir / "index.html")
    widget = page.locator("#slide-system_check .demo")
    expect(widget.locator(".demo-badge")).to_contain_text("frozen copy · computed on cpu")
    expect(widget.locator(".demo-badge")).to_contain_text(" s · the CPU default")  # which budget it was
    expect(widget.locator(".js-plotly-plot .bars .point")).to_have_count(3)
    expect(widget.locator(".cache-status")).to_be_hidden()  # the lecturer's list of demo ids is not the students'
    expect(widget.locator(".demo-run")).to_be_hidden()  # nothing to run in a frozen copy: it says so instead
    note = widget.locator(".demo-toolbar").evaluate("toolbar => getComputedStyle(toolbar, '::before').content")
    assert note == '"Frozen copy: results computed before the lecture"', note
    page.screenshot(path=screenshot_path("export-slide-01.png"))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".counter")).to_have_text(counter("system_check", 2))
    assert page.url.endswith(f"index.html#/{slide_number('system_check') + 2}")
    page.reload()
    expect(page.locator(".counter")).to_have_text(counter("system_check", 2))
    assert not watch.errors and not watch.outside_requests
    page.context.close()


def test_the_exported_copy_shows_the_slide_its_address_names(browser, export_dir):
    page, watch = open_file(browser, export_dir / "index.html")
    expect(page.locator(".counter")).to_have_text(counter(LECTURE[0]))
    page.evaluate("n => { location.hash = `#/${n}`; }", slide_number("attention_web"))  # as typed into the address bar
    expect(page.locator(".counter")).to_have_text(counter("attention_web"))
    expect(page.locator(".slide:visible .slide-title")).to_have_text(load_deck()[slide_number("attention_web") - 1].title)
    page.goto((export_dir / "index.html").as_uri() + f"#/{slide_number('generation')}")  # a link to a slide, opened afresh
    expect(page.locator(".slide:visible .slide-title")).to_have_text(load_deck()[slide_number("generation") - 1].title)
    page.go_back()
    expect(page.locator(".counter")).to_have_text(counter("attention_web"))
    page.evaluate("n => { location.hash = `#/${n}`; }", slide_number(RECAP))  # the closing slide: its recap frozen into the page
    recap = page.locator("#slide-recap")
    expect(recap.locator(".recap-row").first).to_be_visible()
    expect(recap.locator(".recap-row")).to_have_count(recap.locator(".recap-missing").count())  # none measured here
    expect(recap.locator(".recap-device")).to_have_text("Nothing measured yet on this server.")
    assert not watch.errors and not watch.outside_requests
    page.context.close()


def test_the_print_view_has_one_page_per_slide_with_charts(open_page, tmp_path):
    page = open_page(slide_path("system_check"))
    page.locator("#slide-system_check .demo-run").click()
    expect(page.locator("#slide-system_check .demo-badge")).to_contain_text("on cpu", timeout=60_000)
    page.goto(page.url + "?print")
    expect(page.locator("#slide-system_check .js-plotly-plot .bars .point")).to_have_count(3)
    expect(page.locator(".slide:visible")).to_have_count(SLIDES)
    expect(page.locator("#slide-recap .recap-row").first).to_be_visible()  # the closing slide prints its recap
    expect(page.locator("#slide-recap .print-unmeasured")).to_have_count(0)  # it has no demo of its own to measure
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == SLIDES  # one page per slide: none blank, none spilled


def test_the_print_says_which_demos_are_not_measured_and_shows_no_key_hints(open_page):
    page = open_page(slide_path("dyck") + "?print")  # nothing trains the Dyck demo in these tests
    page.emulate_media(media="print")
    expect(page.locator("#slide-dyck .print-unmeasured")).to_be_visible()
    expect(page.locator("#slide-dyck")).to_contain_text("Not measured yet")
    expect(page.get_by_text("Press → or Space to begin")).to_be_hidden()
    expect(page.locator(".demo-run:visible")).to_have_count(0)
    page.goto(page.url.split("?")[0])  # the same slide on screen: no such panel
    expect(page.locator("#slide-dyck .print-unmeasured")).to_have_count(0)
