"""The signal decay slide in Chromium: a tiny run plots the gradient of three models."""


from playwright.sync_api import expect

from tests.browser.widget import open_demo, run_and_wait


def test_plots_the_gradient_of_three_models(open_page, screenshot_path):
    page, widget = open_demo(open_page, "signal_decay", length=40, sequences=4)
    run_and_wait(widget, "trained just now on cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".js-plotly-plot .legend .traces")).to_have_count(3)
    expect(widget.locator(".js-plotly-plot .legend")).to_contain_text("LSTM")
    expect(widget.locator(".js-plotly-plot .bars .point")).to_have_count(3)  # sequential steps
    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("at initialisation (untrained), averaged over 4 strings of 40 letters")
    expect(summary).to_contain_text("Sequential steps: 40 for the RNN and LSTM, 1 for the Transformer.")
    page.screenshot(path=screenshot_path("slide-02-signal-decay.png"))
