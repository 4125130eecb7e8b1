"""Slides 2 to 5 in a real browser: set tiny parameters in each widget, press Run, and see the chart,
its legend and the measured summary appear."""
from playwright.sync_api import expect

from tests.browser.widget import demo_on, run_and_wait, set_params

def test_slide_2_plots_the_gradient_of_three_models(open_page, screenshot_path):
    page = open_page("/slides/2")
    widget = demo_on(page, 2)
    set_params(widget, length=40, sequences=4)
    run_and_wait(widget, "trained just now on cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".js-plotly-plot .legend .traces")).to_have_count(3)
    expect(widget.locator(".js-plotly-plot .legend")).to_contain_text("LSTM")
    expect(widget.locator(".js-plotly-plot .bars .point")).to_have_count(3)  # sequential steps
    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("at initialisation (untrained), averaged over 4 strings of 40 letters")
    expect(summary).to_contain_text("Sequential steps: 40 for the RNN and LSTM, 1 for the Transformer.")
    page.screenshot(path=screenshot_path("slide-02-signal-decay.png"))


def test_slide_3_answers_an_unseen_string(open_page, screenshot_path):
    page = open_page("/slides/3")
    widget = demo_on(page, 3)
    set_params(widget, length=6, steps=30, width=16)
    run_and_wait(widget, "trained just now on cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".amnesia-string .amnesia-letter")).to_have_count(7)  # six letters and the target
    expect(widget.locator(".amnesia-answer")).to_have_count(2)
    expect(widget.locator(".amnesia-answer").first).to_contain_text("top 3:")
    expect(widget.locator(".amnesia-budget")).to_contain_text("Adam, lr 0.003, batch 64, 30 steps")
    expect(widget.locator(".amnesia-budget")).to_contain_text("cpu")
    expect(widget.locator(".js-plotly-plot .legend .traces")).to_have_count(3)  # two loss curves and chance
    expect(widget.locator(".js-plotly-plot .bars .point")).to_have_count(2)  # accuracy of each model
    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("After 30 training steps each, the LSTM recalled the first of 6 letters")
    expect(summary).to_contain_text("chance is 3.8%")
    page.screenshot(path=screenshot_path("slide-03-amnesia.png"))


def test_slide_4_draws_accuracy_against_length(open_page, screenshot_path):
    page = open_page("/slides/4")
    widget = demo_on(page, 4)
    set_params(widget, lengths={5, 20}, steps=20, width=16)
    run_and_wait(widget, "trained just now on cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".js-plotly-plot .legend .traces")).to_have_count(4)  # three models and chance
    expect(widget.locator(".js-plotly-plot .scatterlayer .point")).to_have_count(6)  # three models × two lengths
    expect(widget.locator(".js-plotly-plot .xtick text")).to_have_text(["5", "20"])
    expect(widget.locator(".demo-summary")).to_contain_text("Accuracy at length 5 / 20 after 20 steps each")
    page.screenshot(path=screenshot_path("slide-04-recall-vs-length.png"))


def test_slide_5_fills_the_heatmaps(open_page, screenshot_path):
    page = open_page("/slides/5")
    widget = demo_on(page, 5)
    set_params(widget, lengths={10, 20}, widths={16, 32}, steps=20)
    run_and_wait(widget, "trained just now on cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".js-plotly-plot .heatmaplayer .hm")).to_have_count(2)  # the LSTM grid and the Transformer row
    expect(widget.locator(".js-plotly-plot .ytick text")).to_have_text(["width 16", "width 32"])  # the LSTM grid
    expect(widget.locator(".js-plotly-plot .y2tick text")).to_have_text(["width 64"])  # the Transformer row
    expect(widget.locator(".demo-summary")).to_contain_text("After 20 steps each, at N = 10 / 20")
    page.screenshot(path=screenshot_path("slide-05-index-lookup.png"))
