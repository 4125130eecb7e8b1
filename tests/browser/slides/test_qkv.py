"""The Q/K/V slide in Chromium: one query step by step, a click on a word picks another, and the
chart stays legible on the projector and on a phone."""


from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible
from tests.browser.widget import open_demo, run_and_plot, overlapping_texts
from tests.deck import slide_path

# Each word's button and the middle of its row of bars, in px.
ROWS = """demo => {
  const buttons = [...demo.querySelectorAll('.attn-token')].map((b) => b.getBoundingClientRect());
  const bars = [...demo.querySelectorAll('.bars')].at(-1).querySelectorAll('.point');
  const middle = (r) => (r.top + r.bottom) / 2;
  return { buttons: buttons.map(middle), bars: [...bars].map((p) => middle(p.getBoundingClientRect())) };
}"""



def test_steps_through_one_query_and_a_click_picks_another(open_page, screenshot_path):
    page, demo = open_demo(open_page, "qkv", steps=20)
    run_and_plot(demo)
    chart, chosen = demo.locator(".js-plotly-plot"), demo.locator('.attn-token[aria-pressed="true"]')
    for query, keys in (("Transformer", 10), ("simple", 5)):  # 'simple' sees only itself and the 4 words before it
        if query != "Transformer":  # the default query is the last token
            demo.locator(".attn-token", has_text=query).click()
        expect(chosen).to_have_text(query)
        expect(chart.locator(".annotation-text", has_text="Σ = 1.000")).to_have_count(1)
        expect(chart.locator(".bartext")).to_have_count(2 * keys)  # a score and a weight for each word it sees
    expect(demo.locator(".attn-token--masked")).to_have_count(5)  # the words after 'simple'
    labels = chart.locator(".bartext").all_text_contents()
    assert not [label for label in labels if label.lstrip("-−") == "0.00" and label != "0.00"], labels  # never "-0.00"
    rows = demo.evaluate(ROWS)
    assert len(rows["buttons"]) == len(rows["bars"]) == 10
    assert all(abs(b - r) <= 2 for b, r in zip(rows["buttons"], rows["bars"])), rows  # each word beside its own row
    assert chart.locator(".colorbar").count() == 1, "the values' colour scale"
    assert overlapping_texts(chart, ".annotation-text, .bartext, .cbaxis text") == []
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-07-qkv.png"))


def test_on_a_phone_the_chart_keeps_its_words_apart(open_page, screenshot_path):
    """The same result at 390 px: the weights and the values, no scores panel, nothing overlapping."""
    page = open_page(slide_path("qkv") + "?steps=20", width=390, height=844)  # the first test cached it
    chart = page.locator("#slide-qkv .js-plotly-plot")
    expect(chart).to_have_count(1, timeout=60_000)
    expect(chart.locator(".annotation-text")).to_have_text(["softmax", "values v", "Σ = 1.000"])
    assert overlapping_texts(chart, ".annotation-text, .bartext, .cbaxis text") == []
    rows = page.locator("#slide-qkv .demo").evaluate(ROWS)
    assert all(abs(b - r) <= 2 for b, r in zip(rows["buttons"], rows["bars"])), rows
    page.locator("#slide-qkv .demo-output").screenshot(path=screenshot_path("slide-07-qkv-phone.png"))
