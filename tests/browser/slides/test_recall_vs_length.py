"""The fair fight slide in Chromium: accuracy against length, one line per model beside chance."""
from playwright.sync_api import expect

from demos.shared.tuning import chosen, rate_text
from tests.browser.a11y import expect_accessible
from tests.browser.widget import open_demo, run_and_wait


def test_draws_accuracy_against_length(open_page, screenshot_path):
    page, widget = open_demo(open_page, "recall_vs_length", lengths={5, 20}, steps=20, width=8, seeds=1)
    run_and_wait(widget, "trained just now on cpu")
    chart = widget.locator(".js-plotly-plot")
    expect(chart).to_have_count(1)
    legend = chart.locator(".legend")
    expect(legend.locator(".traces")).to_have_count(4)  # three models and chance
    for name in ("tuned LSTM", "Transformer", "chance (3.8%)"):
        expect(legend).to_contain_text(name)
    for name in ("lstm-tuned", "lstm", "transformer"):  # each model named with the rate chosen for it
        expect(legend).to_contain_text(f"(lr {rate_text(chosen('recall_vs_length', name)['lr'])})")
    expect(chart.locator(".scatterlayer .point")).to_have_count(6)  # three models × two lengths
    expect(chart.locator(".xtick text")).to_have_text(["5", "20"])
    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("Accuracy (seed 0) at length 5 / 20, with at most 20 steps each")
    expect(summary).to_contain_text("each chosen on validation data from 0.0001–0.01")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-04-recall-vs-length.png"))
