"""The Index Lookup slide in Chromium: accuracy against how far back the asked digit was, one line per
model beside chance, and the digits each model holds as bars."""
from playwright.sync_api import expect

from demos.shared.tuning import chosen, rate_text
from tests.browser.a11y import expect_accessible
from tests.browser.widget import open_demo, run_and_wait


def test_draws_accuracy_by_distance_and_the_digits_held(open_page, screenshot_path):
    page, widget = open_demo(open_page, "index_lookup", length=8, widths={4, 16}, steps=100, seeds=1)
    run_and_wait(widget, "trained just now on cpu")
    chart = widget.locator(".index-lookup-chart.js-plotly-plot")
    expect(chart).to_have_count(1)
    legend = chart.locator(".legend")
    expect(legend.locator(".traces")).to_have_count(4)  # two LSTM widths, the Transformer, chance
    for name in ("LSTM, width 4", "LSTM, width 16", "Transformer", "chance (10%)"):
        expect(legend).to_contain_text(name)
    expect(chart.locator(".xtick text")).to_have_text([str(d) for d in range(1, 9)])  # 1 to N back
    for bar in ("width 4", "width 16", "Transformer"):  # the digits-held bars, each named beside it
        expect(chart.locator(".y2tick text", has_text=bar)).to_have_count(1)
    expect(chart.locator(".bars .point")).to_have_count(3)
    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("Trained until converged (at most 100 steps; seed 0), with N = 8 digits")
    expect(summary).to_contain_text("at width 16 of the last digits")
    rates = {name: rate_text(chosen("index_lookup", name)["lr"]) for name in ("lstm-tuned", "transformer")}
    expect(summary).to_contain_text(f"Learning rates: tuned LSTMs {rates['lstm-tuned']}, Transformer {rates['transformer']}, "
                                    "each chosen on validation data from 0.0001–0.01")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-05-index-lookup.png"))
