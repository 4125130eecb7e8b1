"""The attention matrix slide in Chromium: row sums, and the temperature reshapes the rows."""


from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible
from tests.browser.widget import SLIDE_TO, open_demo, run_and_plot


def test_prints_each_rows_sum_and_the_temperature_reshapes_the_rows(open_page, screenshot_path):
    page, demo = open_demo(open_page, "attention_matrix", steps=20)
    run_and_plot(demo)
    sums = demo.locator(".js-plotly-plot .annotation-text")
    expect(sums).to_have_count(10)
    assert sums.all_text_contents() == ["Σ = 1.00"] * 10
    cells = demo.locator(".js-plotly-plot .heatmaplayer text")
    expect(cells).to_have_count(100)  # every weight printed in its cell
    before = cells.all_text_contents()
    slider = demo.locator(".attn-temperature input")
    slider.evaluate(SLIDE_TO, "-0.7")  # log10 of the temperature
    expect(demo.locator(".attn-temperature output")).to_have_text("0.20")
    assert sums.all_text_contents() == ["Σ = 1.00"] * 10
    assert cells.all_text_contents() != before, "the rows sharpened"
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-08-attention-matrix.png"))
