"""The signal decay slide in Chromium: a tiny run plots the gradient of four models at initialisation."""
from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible
from tests.browser.widget import open_demo, run_and_wait


def test_plots_the_gradient_of_four_models(open_page, screenshot_path):
    page, widget = open_demo(open_page, "signal_decay", length=40, sequences=4, seeds=1)
    run_and_wait(widget, "trained just now on cpu")
    chart = widget.locator(".js-plotly-plot")
    expect(chart).to_have_count(1)
    legend = chart.locator(".legend")
    expect(legend.locator(".traces")).to_have_count(4)
    for name in ("RNN", "tuned LSTM", "Transformer"):
        expect(legend).to_contain_text(name)
    expect(chart.locator(".bars .point")).to_have_count(4)  # sequential steps of each
    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("Measured at initialisation (untrained), over 4 strings of 40 letters (seed 0)")
    expect(summary).to_contain_text("Sequential steps: 40 for the recurrent nets, 1 for the Transformer.")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-02-signal-decay.png"))
