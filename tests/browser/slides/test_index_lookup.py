"""The Index Lookup slide in Chromium: the heatmaps fill in."""


from playwright.sync_api import expect

from tests.browser.widget import open_demo, run_and_wait


def test_fills_the_heatmaps(open_page, screenshot_path):
    page, widget = open_demo(open_page, "index_lookup", lengths={10, 20}, widths={16, 32}, steps=20)
    run_and_wait(widget, "trained just now on cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".js-plotly-plot .heatmaplayer .hm")).to_have_count(2)  # the LSTM grid and the Transformer row
    expect(widget.locator(".js-plotly-plot .ytick text")).to_have_text(["width 16", "width 32"])  # the LSTM grid
    expect(widget.locator(".js-plotly-plot .y2tick text")).to_have_text(["width 64"])  # the Transformer row
    expect(widget.locator(".demo-summary")).to_contain_text("After 20 steps each, at N = 10 / 20")
    page.screenshot(path=screenshot_path("slide-05-index-lookup.png"))
