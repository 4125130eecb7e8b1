"""Bounded Dyck-2 in a real browser: tiny settings, Run, and the accuracy-against-length chart with its
baselines, the steps until each seed learned, the near misses with their edits marked under them, and the
measured summary appear."""
import re

from playwright.sync_api import expect

from demos.shared.tuning import chosen, rate_text
from tests.browser.a11y import expect_accessible
from tests.browser.widget import open_demo, run_and_wait


def test_draws_accuracy_against_length_and_the_near_misses(open_page, screenshot_path):
    page, widget = open_demo(open_page, "dyck", lengths={20, 50}, steps=50, width=8, seeds=1,
                             models={"lstm", "transformer", "transformer-2"})  # the slide's default trains two
    run_and_wait(widget, "trained just now on cpu")

    chart = widget.locator(".dyck-chart.js-plotly-plot")
    expect(chart).to_have_count(1)
    legend = chart.locator(".legend")
    expect(legend.locator(".traces")).to_have_count(5)  # three models, the counting rule, chance
    for name in ("LSTM", "1-layer Transformer", "2-layer Transformer", "counting (", "chance (50%)"):
        expect(legend).to_contain_text(name)
    expect(chart.locator(".xtick text")).to_have_text(["20", "50"])

    # Beside it, steps until learned: a row per model, a mark per seed and length, "not yet" past the budget.
    expect(chart.locator(".x2tick text")).to_have_text(["0", "50", "notyet"])  # "not yet" on two lines
    rates = [f"lr {rate_text(chosen('dyck', name)['lr'])}" for name in ("lstm", "transformer-2", "transformer")]
    expect(chart.locator(".y2tick text")).to_have_text(  # as the legend orders them, each with the rate chosen for it
        [f"LSTM, {rates[0]}", f"2-layer, {rates[1]}", f"1-layer, {rates[2]}"])
    expect(chart.locator(".subplot.x2y2 .scatterlayer .point")).to_have_count(6)  # three models × two lengths, one seed
    expect(chart.locator(".g-x2title")).to_have_text("step 95% right")

    misses = widget.locator(".dyck-miss")
    expect(misses).to_have_count(4)  # retyped, turned round, swapped, 3 deep
    for i in range(4):
        expect(misses.nth(i).locator(".dyck-edit").first).to_be_visible()  # the edit is marked
    expect(misses.first).to_contain_text("retyped")
    expect(misses.first.locator(".dyck-count")).to_have_text(re.compile(r"^×\d+$"))  # how many were made this way
    expect(misses.first).to_have_attribute("title", re.compile(r"of the test strings of length 50 were made this way"))

    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("Steps until learned (right on 95% of validation strings, checked every 25 steps) "
                                    "at length 20 / 50 (seed 0): LSTM")
    expect(summary).to_contain_text("The counting rule scores")
    expect(summary).to_contain_text("each chosen on validation data from 0.0001–0.01")

    # The chart keeps to the top of the panel, inside it, even with the class's poll above the demo; its
    # legend stays above the plot, and the near misses come under the chart.
    panel, drawn = widget.bounding_box(), chart.bounding_box()
    assert panel["y"] <= drawn["y"] and drawn["y"] + drawn["height"] <= panel["y"] + panel["height"] + 1
    key, plot_area = legend.bounding_box(), chart.locator(".nsewdrag").first.bounding_box()
    assert key["y"] + key["height"] <= plot_area["y"] + 1, "the legend does not cover the lines"
    below = drawn["y"] + drawn["height"] - 1
    assert widget.locator(".dyck-misses").bounding_box()["y"] >= below
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-06-dyck.png"))
