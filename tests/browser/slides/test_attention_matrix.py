"""The attention matrix slide in Chromium: row sums, a colour scale, weights printed where they fit,
the temperature reshapes the rows, and a phone gets the matrix without overlapping labels."""


from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible
from tests.browser.widget import SLIDE_TO, open_demo, run_and_plot, overlapping_texts
from tests.deck import slide_path

SHORT = "We propose a new model"



def test_prints_each_rows_sum_beside_a_colour_scale(open_page, screenshot_path):
    page, demo = open_demo(open_page, "attention_matrix", steps=20)
    run_and_plot(demo)
    chart = demo.locator(".js-plotly-plot")
    expect(chart.locator(".annotation-text")).to_have_count(11)
    assert chart.locator(".annotation-text").all_text_contents() == ["Σ"] + ["1.00"] * 10
    expect(chart.locator(".colorbar")).to_have_count(1)
    assert [t for t in chart.locator(".heatmaplayer text").all_text_contents() if t] == [], \
        "ten columns are too narrow for weights at 20 px: the colour scale gives them"
    assert overlapping_texts(chart, ".xtick text, .ytick text, .annotation-text, .cbaxis text, .heatmaplayer text") == []
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-08-attention-matrix.png"))


def test_a_short_sentence_prints_its_weights_and_the_temperature_reshapes_them(open_page):
    page, demo = open_demo(open_page, "attention_matrix", steps=20)
    demo.locator('input[name="sentence"]').fill(SHORT)  # in the toolbar, not in Settings
    run_and_plot(demo)
    cells = demo.locator(".js-plotly-plot .heatmaplayer text")
    expect(cells).to_have_count(15)  # the 15 weights on or below the diagonal; the masked cells stay blank
    before = cells.all_text_contents()
    demo.locator(".attn-temperature input").evaluate(SLIDE_TO, "-0.7")  # log10 of the temperature
    expect(demo.locator(".attn-temperature output")).to_have_text("0.20")
    assert demo.locator(".js-plotly-plot .annotation-text").all_text_contents() == ["Σ"] + ["1.00"] * 5
    assert cells.all_text_contents() != before, "the rows sharpened"


def test_on_a_phone_the_matrix_has_room_for_its_labels(open_page, screenshot_path):
    page = open_page(slide_path("attention_matrix") + "?steps=20", width=390, height=844)  # the first test cached it
    chart = page.locator("#slide-attention_matrix .js-plotly-plot")
    expect(chart).to_have_count(1, timeout=60_000)
    expect(chart.locator(".colorbar")).to_have_count(1)
    heatmap, scale = (chart.locator(selector).bounding_box() for selector in (".heatmaplayer", ".colorbar"))
    assert scale["y"] >= heatmap["y"] + heatmap["height"], "the colour scale lies under the matrix"
    assert overlapping_texts(chart, ".xtick text, .ytick text, .annotation-text, .cbaxis text, .heatmaplayer text") == []
    page.locator("#slide-attention_matrix .demo-output").screenshot(path=screenshot_path("slide-08-attention-matrix-phone.png"))
