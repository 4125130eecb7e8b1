"""The static copy opens from disk with no server and shows the frozen results; the print
view gives one page per slide with the charts drawn."""
import re

import pytest
from playwright.sync_api import expect

from app import create_app
from tests.browser.conftest import PageWatch
from tests.deck import slide_path


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
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    watch = PageWatch("file://")
    context.route("**/*", watch.on_route)
    page = context.new_page()
    page.on("console", watch.on_console)
    page.on("pageerror", watch.on_page_error)
    page.goto(path.as_uri())
    return page, watch


def test_the_export_opens_from_disk_and_shows_a_frozen_chart(browser, export_dir, screenshot_path):
    page, watch = open_file(browser, export_dir / "index.html")
    widget = page.locator("#slide-system_check .demo")
    expect(widget.locator(".demo-badge")).to_contain_text("frozen copy · computed on cpu")
    expect(widget.locator(".js-plotly-plot .bars .point")).to_have_count(3)
    expect(widget.locator(".cache-status-heading")).to_have_text("Demos in this deck: 1 of 13 frozen in this copy")
    page.screenshot(path=screenshot_path("export-slide-01.png"))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".counter")).to_have_text("3 / 13")
    assert page.url.endswith("index.html#/3")
    page.reload()
    expect(page.locator(".counter")).to_have_text("3 / 13")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.locator("#slide-system_check .demo-run").click()  # nothing to run: the frozen result stays
    expect(widget.locator(".demo-badge")).to_contain_text("frozen copy")
    assert not watch.errors and not watch.outside_requests
    page.context.close()


def test_the_print_view_has_one_page_per_slide_with_charts(open_page, tmp_path):
    page = open_page(slide_path("system_check"))
    page.locator("#slide-system_check .demo-run").click()
    expect(page.locator("#slide-system_check .demo-badge")).to_contain_text("on cpu", timeout=60_000)
    page.goto(page.url + "?print")
    expect(page.locator("#slide-system_check .js-plotly-plot .bars .point")).to_have_count(3)
    expect(page.locator(".slide:visible")).to_have_count(13)
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 13
