"""The attention web slide in Chromium: arcs, Table 1, a typed sentence, refused markup."""
import re

from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible, expect_finger_sized
from tests.browser.widget import TRAINED, expect_markup_refused, open_demo, run_and_plot, set_params
from tests.deck import slide_path


def test_draws_the_attention_arcs_and_the_complexity_table(open_page, screenshot_path):
    page, demo = open_demo(open_page, "attention_web", steps=20)
    run_and_plot(demo)
    expect(demo.locator(".attn-complexity")).to_contain_text("O(n²·d) = 6,400")
    expect(demo.locator(".attn-complexity")).to_contain_text("O(n·d²) = 40,960")
    expect(demo.locator(".attn-complexity")).to_contain_text("n = 10, d = 64")
    expect(demo.locator(".attn-complexity")).to_have_attribute("title", re.compile(r"^Vaswani et al\. \(2017\)"))
    expect(demo.locator(".js-plotly-plot .xtick text")).to_have_count(10)
    expect(demo.locator(".demo-summary")).to_contain_text("attends most to")
    arcs = "#slide-attention_web .js-plotly-plot .scatterlayer path.js-line"
    drawn = f"() => [...document.querySelectorAll('{arcs}')].map((arc) => arc.getAttribute('d') + arc.style.strokeWidth)"
    head_1 = page.evaluate(drawn)
    assert len(head_1) > 1, "arcs between the tokens"
    demo.locator(".attn-picker select").nth(1).select_option("3")  # another head: drawn at once, from the result
    page.wait_for_function(f"(before) => JSON.stringify(({drawn})()) !== JSON.stringify(before)", arg=head_1)
    demo.locator(".attn-picker select").nth(2).select_option(label="Transformer")  # one token's arcs only
    expect(demo.locator(".demo-error")).to_be_hidden()
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-06-attention-web.png"))


def test_reads_a_typed_sentence_with_its_unknown_word_flagged(open_page):
    page, demo = open_demo(open_page, "attention_web", steps=20)
    demo.locator('input[name="sentence"]').fill("Our model learns a zorblax quickly.")
    demo.locator('input[name="sentence"]').press("Enter")
    expect(demo.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)
    expect(demo.locator(".js-plotly-plot .xtick text").nth(4)).to_have_text("⟨unk: zorblax⟩")
    expect(demo.locator(".demo-summary")).to_contain_text("read as ⟨unk⟩: zorblax")


def test_markup_typed_as_a_sentence_is_refused_and_shown_as_text(open_page):
    expect_markup_refused(open_page(slide_path("attention_web")), "attention_web", "sentence", "<b>bold</b> <img src=x onerror=alert(1)>",
                          "sentence: must be plain words, not markup such as <b>", ("b", "img"))


def test_the_summary_follows_the_head_and_the_word_picked(open_page):
    page, demo = open_demo(open_page, "attention_web", steps=20)
    run_and_plot(demo)
    summary = demo.locator(".demo-summary")
    expect(summary).to_contain_text("Layer 1, head 1 (trained 20 steps, seed 0): ")
    layer, head, word = (demo.locator(".attn-picker select").nth(i) for i in range(3))
    head.select_option("3")
    expect(summary).to_contain_text("Layer 1, head 3 (trained 20 steps, seed 0): ")
    expect(summary).not_to_contain_text("Arcs from")
    head_3 = summary.text_content()
    word.select_option(label="Transformer")  # one word's arcs: the summary names where that word looks
    expect(summary).to_contain_text(re.compile(r"Arcs from 'Transformer': it attends most to ('[^']+'|itself) \(\d\.\d\d\)\."))
    layer.select_option("2")
    expect(summary).to_contain_text("Layer 2, head 3 ")
    # The words the page wrote for head 3 are the server's own for that head.
    set_params(demo, head=3)
    demo.locator(".demo-run").click()
    expect(demo.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)
    expect(summary).to_have_text(head_3)


def test_its_pickers_are_finger_sized_on_a_phone(open_page, screenshot_path):
    page, demo = open_demo(lambda path: open_page(path, 390, 844), "attention_web", steps=20)
    run_and_plot(demo)
    expect_finger_sized(page, "#slide-attention_web .demo :is(button, select, input):not(.demo-settings *)", "#slide-attention_web")
    page.screenshot(path=screenshot_path("slide-07-attention-web-390.png"))
