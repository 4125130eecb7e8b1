"""Slides 6 to 9 in a real browser: each demo runs with a tiny training budget and shows its
chart; a typed sentence is analysed, and markup typed into it stays text."""
from playwright.sync_api import expect

from demos.corpus import TARGET_SENTENCE
from tests.browser.widget import TRAINED, demo_on, expect_markup_refused, run_and_wait, set_params

SLIDE_TO = "(input, value) => { input.value = value; input.dispatchEvent(new Event('input')); }"  # a range input


def run_and_plot(demo):
    run_and_wait(demo)
    expect(demo.locator(".js-plotly-plot")).to_have_count(1)


def test_slide_6_draws_the_attention_arcs_and_the_complexity_table(open_page, screenshot_path):
    page = open_page("/slides/6")
    demo = demo_on(page, 6)
    set_params(demo, steps=20)
    run_and_plot(demo)
    expect(demo.locator(".attn-complexity")).to_contain_text("O(n²·d) = 6,400")
    expect(demo.locator(".attn-complexity")).to_contain_text("O(n·d²) = 40,960")
    expect(demo.locator(".attn-complexity caption")).to_contain_text("Vaswani et al. (2017)")
    expect(demo.locator(".js-plotly-plot .xtick text")).to_have_count(10)
    expect(demo.locator(".demo-summary")).to_contain_text("attends most to")
    arcs = "#slide-6 .js-plotly-plot .scatterlayer path.js-line"
    drawn = f"() => [...document.querySelectorAll('{arcs}')].map((arc) => arc.getAttribute('d') + arc.style.strokeWidth)"
    head_1 = page.evaluate(drawn)
    assert len(head_1) > 1, "arcs between the tokens"
    demo.locator(".attn-picker select").nth(1).select_option("3")  # another head: drawn at once, from the result
    page.wait_for_function(f"(before) => JSON.stringify(({drawn})()) !== JSON.stringify(before)", arg=head_1)
    demo.locator(".attn-picker select").nth(2).select_option(label="Transformer")  # one token's arcs only
    expect(demo.locator(".demo-error")).to_be_hidden()
    page.screenshot(path=screenshot_path("slide-06-attention-web.png"))


def test_slide_6_reads_a_typed_sentence_with_its_unknown_word_flagged(open_page):
    page = open_page("/slides/6")
    demo = demo_on(page, 6)
    set_params(demo, steps=20)
    demo.locator('input[name="sentence"]').fill("Our model learns a zorblax quickly.")
    demo.locator('input[name="sentence"]').press("Enter")
    expect(demo.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)
    expect(demo.locator(".js-plotly-plot .xtick text").nth(4)).to_have_text("⟨unk: zorblax⟩")
    expect(demo.locator(".demo-summary")).to_contain_text("read as ⟨unk⟩: zorblax")


def test_markup_typed_as_a_sentence_is_refused_and_shown_as_text(open_page):
    expect_markup_refused(open_page("/slides/6"), 6, "sentence", "<b>bold</b> <img src=x onerror=alert(1)>",
                          "sentence: must be plain words, not markup such as <b>", ("b", "img"))


def test_slide_7_steps_through_one_query_and_a_click_picks_another(open_page, screenshot_path):
    page = open_page("/slides/7")
    demo = demo_on(page, 7)
    set_params(demo, steps=20)
    run_and_plot(demo)
    expect(demo.locator('.attn-token[aria-pressed="true"]')).to_have_text("Transformer")
    expect(demo.locator(".js-plotly-plot")).to_contain_text("query q of 'Transformer'")
    expect(demo.locator(".js-plotly-plot")).to_contain_text("softmax: Σ = 1.000")
    expect(demo.locator(".js-plotly-plot .bars .point")).to_have_count(30)  # 3 panels × 10 keys
    demo.locator(".attn-token", has_text="simple").click()
    expect(demo.locator('.attn-token[aria-pressed="true"]')).to_have_text("simple")
    expect(demo.locator(".js-plotly-plot")).to_contain_text("query q of 'simple'")
    expect(demo.locator(".js-plotly-plot .bars .point")).to_have_count(15)  # only 'simple' and the 4 before it
    expect(demo.locator(".js-plotly-plot")).to_contain_text("softmax: Σ = 1.000")
    page.screenshot(path=screenshot_path("slide-07-qkv.png"))


def test_slide_8_prints_each_rows_sum_and_the_temperature_reshapes_the_rows(open_page, screenshot_path):
    page = open_page("/slides/8")
    demo = demo_on(page, 8)
    set_params(demo, steps=20)
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
    page.screenshot(path=screenshot_path("slide-08-attention-matrix.png"))


def test_slide_9_trains_live_then_scrubs_back_to_the_first_snapshot(open_page, screenshot_path):
    page = open_page("/slides/9")
    demo = demo_on(page, 9)
    set_params(demo, epochs=2)
    run_and_plot(demo)
    expect(demo.locator(".js-plotly-plot .legendtext")).to_have_count(3)
    expect(demo.locator(".prog-line").first).to_contain_text(TARGET_SENTENCE)
    expect(demo.locator(".prog-current .prog-label")).to_have_text("Epoch 2")
    expect(demo.locator(".demo-summary")).to_contain_text("s on cpu")
    page.screenshot(path=screenshot_path("slide-09-training-progression.png"))
    demo.locator(".prog-scrubber").evaluate(SLIDE_TO, "0")
    expect(demo.locator(".prog-current .prog-label")).to_have_text("Epoch 0")
    expect(demo.locator(".prog-current .prog-word--miss").first).to_be_visible()
