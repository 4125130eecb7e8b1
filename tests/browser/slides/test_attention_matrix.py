"""The attention slide in Chromium: the matrix with its row sums, and beside it one row taken apart (q·k,
÷ √d_k, softmax, the values and their mix); a click on a word or on a row of the matrix picks another
row, the temperature reshapes both, and a phone gets them one under the other without overlapping labels."""
from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible, expect_finger_sized
from tests.browser.widget import SLIDE_TO, demo_on, open_demo, overlapping_texts, run_and_wait, set_params
from tests.deck import counter, slide_path

SHORT = "We propose a model"  # four words: cells wide enough for their weights beside the row taken apart
MATRIX_TEXT = ".xtick text, .ytick text, .annotation-text, .cbaxis text, .heatmaplayer text"
ROW_TEXT = ".annotation-text, .bartext, .textpoint text, .cbaxis text"



def run_and_plot_both(demo) -> None:
    """Press Run, wait for the result, and see both charts drawn: the matrix and its row."""
    run_and_wait(demo)
    expect(demo.locator(".js-plotly-plot")).to_have_count(2)


# Each word's button, the middle of its row of bars in the breakdown, and of its row in the matrix, in px.
ROWS = """demo => {
  const middle = (r) => (r.top + r.bottom) / 2;
  const buttons = [...demo.querySelectorAll('.attn-token')].map((b) => middle(b.getBoundingClientRect()));
  const bars = [...demo.querySelectorAll('.attn-qkv-chart .bars')].at(-1).querySelectorAll('.point');
  const matrix = demo.querySelector('.attn-matrix-chart .nsewdrag').getBoundingClientRect();
  const T = buttons.length;
  return { buttons, bars: [...bars].map((p) => middle(p.getBoundingClientRect())),
           matrix: buttons.map((_, i) => matrix.top + (i + 0.5) * matrix.height / T) };
}"""


def test_the_matrix_and_one_row_step_by_step_side_by_side(open_page, screenshot_path):
    page, demo = open_demo(open_page, "attention_matrix", steps=20)
    run_and_plot_both(demo)
    matrix, row = demo.locator(".attn-matrix-chart"), demo.locator(".attn-qkv-chart")
    expect(matrix.locator(".annotation-text")).to_have_count(11)
    assert matrix.locator(".annotation-text").all_text_contents() == ["Σ"] + ["1.00"] * 10
    assert [t for t in matrix.locator(".heatmaplayer text").all_text_contents() if t] == [], \
        "ten columns are too narrow for weights at 20 px: the colour and the softmax bars give them"
    assert overlapping_texts(matrix, MATRIX_TEXT) == []

    chosen = demo.locator('.attn-token[aria-pressed="true"]')
    for query, keys in (("Transformer", 10), ("simple", 5)):  # 'simple' sees only itself and the 4 words before it
        if query != "Transformer":  # the default query is the last token
            demo.locator(".attn-token", has_text=query).click()
        expect(chosen).to_have_text(query)
        expect(row.locator(".annotation-text", has_text="Σ = 1.000")).to_have_count(1)
        expect(row.locator(".bartext")).to_have_count(keys)  # a weight for each word it sees
        expect(row.locator(".textpoint text")).to_have_count(keys)  # and its score, ÷ √d_k
    expect(demo.locator(".attn-token--masked")).to_have_count(5)  # the words after 'simple'
    labels = row.locator(".bartext, .textpoint text").all_text_contents()
    assert not [label for label in labels if label.lstrip("-−") == "0.00" and label != "0.00"], labels  # never "-0.00"
    expect(row.locator(".annotation-text", has_text="q·k/√16")).to_have_count(1)
    rows = demo.evaluate(ROWS)
    assert len(rows["buttons"]) == len(rows["bars"]) == 10
    assert all(abs(b - r) <= 2 for b, r in zip(rows["buttons"], rows["bars"])), rows  # each word beside its own bars
    assert all(abs(b - m) <= 2 for b, m in zip(rows["buttons"], rows["matrix"])), rows  # ...and its row of the matrix
    assert row.locator(".colorbar").count() == 1, "the values' colour scale"
    assert overlapping_texts(row, ROW_TEXT) == []
    # The row taken apart is outlined in the matrix, and a click on a row of the matrix takes that row apart.
    outline = matrix.locator(".shapelayer path").first.bounding_box()
    assert abs(outline["y"] + outline["height"] / 2 - rows["matrix"][4]) <= 2
    box = matrix.locator(".nsewdrag").first.bounding_box()
    page.mouse.click(box["x"] + 5, rows["matrix"][8])  # the first cell of the row of 'the', the ninth word
    expect(chosen).to_have_text("the")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-08-attention-matrix.png"))


def test_a_short_sentence_prints_its_weights_and_the_temperature_reshapes_them(open_page):
    page, demo = open_demo(open_page, "attention_matrix", steps=20)
    demo.locator('input[name="sentence"]').fill(SHORT)  # in the toolbar, not in Settings
    run_and_plot_both(demo)
    cells = demo.locator(".attn-matrix-chart .heatmaplayer text")
    expect(cells).to_have_count(10)  # the 10 weights on or below the diagonal; the masked cells stay blank
    before = cells.all_text_contents()
    weights = demo.locator(".attn-qkv-chart .bartext")
    bars_before = weights.all_text_contents()
    demo.locator(".attn-temperature input").evaluate(SLIDE_TO, "-0.7")  # log10 of the temperature
    expect(demo.locator(".attn-temperature output")).to_have_text("0.20")
    assert demo.locator(".attn-matrix-chart .annotation-text").all_text_contents() == ["Σ"] + ["1.00"] * 4
    assert cells.all_text_contents() != before, "the rows sharpened"
    expect(demo.locator(".attn-qkv-chart .annotation-text", has_text="t = 0.20")).to_have_count(1)
    assert weights.all_text_contents() != bars_before, "the row taken apart sharpened with them"
    expect(demo.locator(".attn-qkv-chart .annotation-text", has_text="Σ = 1.000")).to_have_count(1)


def test_on_a_phone_the_matrix_comes_first_then_its_row_and_nothing_overlaps(open_page, screenshot_path):
    page = open_page(slide_path("attention_matrix"), width=390, height=844)
    demo = demo_on(page, "attention_matrix")
    set_params(demo, steps=20)
    run_and_plot_both(demo)  # trained here, or the cached run of another test: this one needs neither first
    matrix, row = (demo.locator(f"{chart}.js-plotly-plot") for chart in (".attn-matrix-chart", ".attn-qkv-chart"))
    expect(matrix.locator(".colorbar")).to_have_count(1)
    heatmap, scale = (matrix.locator(selector).bounding_box() for selector in (".heatmaplayer", ".colorbar"))
    assert scale["y"] >= heatmap["y"] + heatmap["height"], "the colour scale lies under the matrix"
    assert overlapping_texts(matrix, MATRIX_TEXT) == []
    assert row.bounding_box()["y"] >= matrix.bounding_box()["y"] + matrix.bounding_box()["height"] - 1
    expect(row.locator(".annotation-text")).to_have_text(["softmax", "values v", "Σ = 1.000"])  # no room for the scores
    assert overlapping_texts(row, ROW_TEXT) == []
    rows = page.locator("#slide-attention_matrix .demo").evaluate(ROWS)
    assert all(abs(b - r) <= 2 for b, r in zip(rows["buttons"], rows["bars"])), rows
    page.locator("#slide-attention_matrix .demo-output").screenshot(path=screenshot_path("slide-08-attention-matrix-phone.png"))


def test_the_summary_follows_the_word_and_the_temperature_and_the_deck_keys_still_work(open_page):
    page, demo = open_demo(open_page, "attention_matrix", steps=20)
    run_and_plot_both(demo)
    summary, shown = demo.locator(".demo-summary"), page.locator(".counter")
    expect(summary).to_contain_text("temperature 1: all 10 rows sum to 1")
    expect(summary).to_contain_text("The query of 'Transformer' matches")
    demo.locator(".attn-token", has_text="simple").click()  # a word chip
    expect(summary).to_contain_text("The query of 'simple' matches")
    picked = summary.text_content()
    page.keyboard.press("ArrowRight")  # a clicked word keeps no arrow: the deck moves on
    expect(shown).to_have_text(counter("attention_matrix", 1))
    page.keyboard.press("ArrowLeft")
    expect(shown).to_have_text(counter("attention_matrix"))

    slider = demo.locator(".attn-temperature input")
    slider.evaluate(SLIDE_TO, "-0.7")  # dragged to a temperature of 0.2
    slider.focus()
    expect(summary).to_contain_text("temperature 0.2: all 10 rows sum to 1")
    expect(summary).to_contain_text("The query of 'simple' matches")
    page.keyboard.press("ArrowRight")  # the slider keeps its arrows...
    expect(demo.locator(".attn-temperature output")).to_have_text("0.21")
    expect(summary).to_contain_text("temperature 0.21:")
    expect(shown).to_have_text(counter("attention_matrix"))
    page.keyboard.press("PageDown")  # ...but a clicker's key moves the deck
    expect(shown).to_have_text(counter("attention_matrix", 1))
    page.keyboard.press("PageUp")
    expect(shown).to_have_text(counter("attention_matrix"))
    slider.focus()
    page.keyboard.press("Escape")  # leaves the slider: the arrows are the deck's again
    page.keyboard.press("ArrowRight")
    expect(shown).to_have_text(counter("attention_matrix", 1))

    # The words the page wrote for 'simple' are the server's own for that query.
    page.keyboard.press("ArrowLeft")
    set_params(demo, query=5)
    run_and_wait(demo)
    expect(summary).to_have_text(picked)


def test_the_word_buttons_are_finger_sized_on_a_phone(open_page, screenshot_path):
    page, demo = open_demo(lambda path: open_page(path, 390, 844), "attention_matrix", steps=20)
    run_and_plot_both(demo)
    expect_finger_sized(page, "#slide-attention_matrix .attn-token", "#slide-attention_matrix")
    rows = demo.evaluate(ROWS)
    assert all(abs(b - r) <= 2 for b, r in zip(rows["buttons"], rows["bars"])), rows  # still beside their bars
    demo.locator(".attn-qkv").scroll_into_view_if_needed()
    page.screenshot(path=screenshot_path("slide-08-attention-matrix-390-targets.png"))
