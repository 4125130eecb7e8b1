"""The generative showdown in a real browser: the test-text scores on a ladder of counting models from
chance to the 5-gram, both models continuing the prompt side by side character by character, each
naming its chosen recipe; any character's top-5 bars come back on a click, Replay grows the texts
again, characters outside the alphabet are shown as the models read them, markup typed as a prompt
is refused, and the ladder and the summary are on screen on a projector and a phone."""
import re

from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible, expect_finger_sized
from tests.browser.widget import (
    TRAINED,
    demo_on,
    expect_markup_refused,
    open_demo,
    run_and_wait,
    set_params,
)
from tests.deck import counter, slide_path

TINY = {"steps": 20, "characters": 10, "seeds": 1}
RUNGS = ["Transformer", "LSTM", "chance", "unigram", "bigram", "trigram", "4-gram", "5-gram"]
REPLAY_MS = 120  # the renderer's time between characters when replaying


def run_and_show(demo):
    run_and_wait(demo)
    expect(demo.locator(".gen-top")).to_have_count(2)


def test_continues_the_prompt_side_by_side_and_shows_any_characters_top_5(open_page, screenshot_path):
    page = open_page(slide_path("generation"))
    page.clock.install()  # time runs as usual until the test pauses it for Replay
    demo = demo_on(page, "generation")
    set_params(demo, **TINY)
    run_and_show(demo)

    scores = demo.locator(".gen-scores.js-plotly-plot")
    expect(demo.locator(".gen-views, .gen-sweep")).to_have_count(0)  # no size sweep: one view (tests/browser/slides/test_size_sweeps.py)
    expect(scores.locator(".ytick text")).to_have_count(len(RUNGS))
    assert sorted(scores.locator(".ytick text").all_text_contents()) == sorted(RUNGS)
    values = scores.locator(".bartext")
    expect(values).to_have_text([re.compile(r"^\d\.\d\d$")] * len(RUNGS))  # each bar's value, with no ticks to read it from
    numbers = [float(value) for value in values.all_text_contents()]
    assert numbers == sorted(numbers), "a ladder: the fewest bits per character at the top"
    chart_box = scores.bounding_box()
    for text in (*values.all(), scores.locator(".annotation-text")):  # the values and the axis's title fit in the chart
        box = text.bounding_box()
        assert chart_box["x"] <= box["x"] and box["x"] + box["width"] <= chart_box["x"] + chart_box["width"] + 1
    columns = demo.locator(".gen-model")
    expect(columns).to_have_count(2)
    expect(columns.locator(".gen-name")).to_have_text(["Transformer", "LSTM"])
    for column in (columns.nth(0), columns.nth(1)):
        expect(column.locator(".gen-prompt")).to_have_text("The function returns")
        expect(column.locator(".gen-token")).to_have_count(10)
        expect(column.locator(".gen-ppl")).to_have_text(re.compile(r"^test \d\.\d\d bits/char$"))
        expect(column.locator(".gen-recipe")).to_have_text(re.compile(r"^lr 0\.\d+, (cool-down|cosine), window \d+$"))
    summary = demo.locator(".demo-summary")
    expect(summary).to_contain_text("Bits per character on the test text (seed 0; lower is better)")
    bits = [text.split()[1] for text in columns.locator(".gen-ppl").all_text_contents()]
    assert f"Transformer {bits[0]}, LSTM {bits[1]}" in summary.text_content(), "the numbers on screen"

    tops = demo.locator(".gen-top")
    expect(tops.locator("caption")).to_have_text(["Transformer, character 10: top 5", "LSTM, character 10: top 5"])
    for top in (tops.nth(0), tops.nth(1)):
        expect(top.locator(".gen-top-row")).to_have_count(5)  # greedy: the character taken is the first of the 5
        expect(top.locator(".gen-top-row").first).to_have_class(re.compile("gen-top-row--taken"))
        widths = top.locator(".gen-top-fill").evaluate_all("(bars) => bars.map((bar) => parseFloat(bar.style.width))")
        assert widths == sorted(widths, reverse=True) and 0 < sum(widths) <= 100, widths
    expect(demo.locator(".gen-step-label")).to_have_text("10 of 10")
    expect(demo.locator(".gen-token--current")).to_have_count(2)
    last_character = tops.all_text_contents()

    columns.nth(1).locator(".gen-token").first.click()  # a character of the LSTM: both models show that step
    expect(demo.locator(".gen-step-label")).to_have_text("1 of 10")
    expect(columns.nth(0).locator(".gen-token").first).to_have_class(re.compile("gen-token--current"))
    expect(tops.locator("caption")).to_have_text(["Transformer, character 1: top 5", "LSTM, character 1: top 5"])
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-11-generation.png"))

    page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # from now on Replay's timer moves when the test says
    demo.locator(".gen-replay").click()  # the texts grow again from the first character
    expect(demo.locator(".gen-step-label")).to_have_text("1 of 10")
    expect(columns.nth(0).locator(".gen-token:visible")).to_have_count(1)
    page.clock.run_for(REPLAY_MS * 2)
    expect(demo.locator(".gen-step-label")).to_have_text("3 of 10")
    expect(columns.nth(1).locator(".gen-token:visible")).to_have_count(3)
    page.clock.run_for(REPLAY_MS * 7)
    expect(demo.locator(".gen-step-label")).to_have_text("10 of 10")
    expect(columns.nth(1).locator(".gen-token:visible")).to_have_count(10)
    assert tops.all_text_contents() == last_character


def test_sampling_names_its_temperature_and_shows_the_prompt_as_read(open_page, screenshot_path):
    page, demo = open_demo(open_page, "generation", decoding="sample", temperature=1.5, **TINY)
    demo.locator('input[name="prompt"]').fill("The café returns")
    demo.locator('input[name="prompt"]').press("Enter")
    expect(demo.locator(".demo-badge")).to_contain_text("on cpu", timeout=TRAINED)
    expect(demo.locator(".gen-prompt")).to_have_text(["The caf? returns", "The caf? returns"])  # é is outside the alphabet
    expect(demo.locator(".gen-decoding")).to_have_text("sampled, temperature 1.5")
    expect(demo.locator(".gen-text .gen-token--current")).to_have_count(2)  # the last character, marked in both texts
    page.screenshot(path=screenshot_path("slide-11-generation-sampled.png"))


def test_markup_typed_as_a_prompt_is_refused_and_shown_as_text(open_page):
    expect_markup_refused(open_page(slide_path("generation")), "generation", "prompt", "<i>The</i> function",
                          "prompt: must be plain text, not markup such as <i>", ("i",))


def test_the_whole_ladder_is_in_the_demo_box_without_scrolling_on_a_projector_and_a_phone(open_page, screenshot_path):
    for width, height in ((1024, 768), (390, 844)):
        page, demo = open_demo(lambda path: open_page(path, width=width, height=height), "generation", **TINY)
        run_and_show(demo)
        page.screenshot(path=screenshot_path(f"slide-11-generation-{width}.png"), full_page=True)
        assert demo.evaluate("panel => panel.scrollTop") == 0
        panel, chart = demo.bounding_box(), demo.locator(".gen-scores").bounding_box()
        assert panel["y"] <= chart["y"] and chart["y"] + chart["height"] <= panel["y"] + panel["height"] + 1, (
            f"the ladder, its labels and its axis title inside the demo box at {width}x{height}")
        if width > 760:  # the projector shows the canvas whole: the ladder is on screen
            assert chart["y"] + chart["height"] <= height


FOCUSED = """() => { const e = document.activeElement;
  return e.matches('.gen-token') ? [e.closest('.gen-model').classList[1], e.dataset.step] : [e.className, null]; }"""


def test_each_texts_characters_are_one_tab_stop_with_the_arrows_inside(open_page):
    page, demo = open_demo(open_page, "generation", **TINY)
    run_and_show(demo)
    for kind in ("transformer", "lstm"):  # 10 characters each, one Tab stop each
        expect(demo.locator(f".gen-model--{kind} .gen-token")).to_have_count(10)
        expect(demo.locator(f".gen-model--{kind} .gen-token:not([tabindex='-1'])")).to_have_count(1)
    page.locator("#slide-generation").focus()
    for _ in range(30):  # Tab, as a keyboard user would, until a character has the focus
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED)[1]:
            break
    assert page.evaluate(FOCUSED) == ["gen-model--transformer", "10"], "the chosen character: the last"
    label, slider = demo.locator(".gen-step-label"), demo.locator(".gen-slider")
    for key, where, shown in [("ArrowLeft", ["gen-model--transformer", "9"], "9 of 10"),
                              ("Home", ["gen-model--transformer", "1"], "1 of 10"),
                              ("ArrowRight", ["gen-model--transformer", "2"], "2 of 10"),
                              ("ArrowDown", ["gen-model--lstm", "2"], "2 of 10"),  # the other model's text
                              ("End", ["gen-model--lstm", "10"], "10 of 10")]:
        page.keyboard.press(key)
        assert page.evaluate(FOCUSED) == where, key
        expect(label).to_have_text(shown)  # chosen, as a click would: its candidates are shown
        expect(slider).to_have_value(shown.split()[0])
    expect(page.locator(".counter")).to_have_text(counter("generation"))  # the arrows were the characters', not the deck's
    page.keyboard.press("Tab")  # one press leaves the LSTM's 10 characters
    assert page.evaluate(FOCUSED)[1] is None
    page.keyboard.press("Shift+Tab")  # and comes back to the one chosen
    assert page.evaluate(FOCUSED) == ["gen-model--lstm", "10"]
    page.keyboard.press("Shift+Tab")  # one more: the Transformer's, at the same character
    assert page.evaluate(FOCUSED) == ["gen-model--transformer", "10"]
    # A long text scrolls (three lines, on a phone): the keyboard reaches a character in each.
    demo.evaluate("demo => demo.querySelectorAll('.gen-text').forEach((text) => { text.style.maxHeight = '1.2em'; })")
    expect_accessible(page, "#slide-generation", rules=["scrollable-region-focusable"])
    page.keyboard.press("Space")  # a character is a button: Space moves the deck
    expect(page.locator(".counter")).to_have_text(counter("generation", 1))


def test_the_slider_and_replay_are_finger_sized_on_a_phone(open_page, screenshot_path):
    page, demo = open_demo(lambda path: open_page(path, 390, 844), "generation", **TINY)
    run_and_show(demo)
    expect_finger_sized(page, "#slide-generation .gen-stepbar :is(input, button)", "#slide-generation")
    demo.locator(".gen-stepbar").scroll_into_view_if_needed()
    page.screenshot(path=screenshot_path("slide-11-generation-390-targets.png"))
