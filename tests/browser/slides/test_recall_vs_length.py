"""The fair fight slide in Chromium: accuracy against length."""


from playwright.sync_api import expect

from tests.browser.widget import open_demo, run_and_wait


def test_draws_accuracy_against_length(open_page, screenshot_path):
    page, widget = open_demo(open_page, "recall_vs_length", lengths={5, 20}, steps=20, width=16)
    run_and_wait(widget, "trained just now on cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".js-plotly-plot .legend .traces")).to_have_count(4)  # three models and chance
    expect(widget.locator(".js-plotly-plot .scatterlayer .point")).to_have_count(6)  # three models × two lengths
    expect(widget.locator(".js-plotly-plot .xtick text")).to_have_text(["5", "20"])
    expect(widget.locator(".demo-summary")).to_contain_text("Accuracy at length 5 / 20 after 20 steps each")
    page.screenshot(path=screenshot_path("slide-04-recall-vs-length.png"))
