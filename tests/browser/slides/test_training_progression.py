"""The training progression slide in Chromium: trains live, its axis ends where training stopped, then
scrubs back; on a phone the chart is tall enough to read."""
import re

import pytest
from playwright.sync_api import Error, expect

from demos.core.corpus import TARGET_SENTENCE
from tests.browser.a11y import expect_accessible
from tests.browser.widget import SLIDE_TO, open_demo, run_and_plot
from tests.deck import slide_path

EPOCHS = 8  # the target is reached before the budget is spent (at epoch 5 on our CPU)


def test_trains_live_then_scrubs_back_to_the_first_snapshot(open_page, screenshot_path):
    page, demo = open_demo(open_page, "training_progression", epochs=EPOCHS)
    run_and_plot(demo)
    chart = demo.locator(".js-plotly-plot")
    expect(chart.locator(".legendtext")).to_have_text(["training", "held-out"])
    expect(demo.locator(".prog-line").first).to_contain_text(TARGET_SENTENCE)
    expect(demo.locator(".demo-summary")).to_contain_text("steps) on cpu")
    trained = int(re.search(r"\((\d+) steps\)", demo.locator(".demo-summary").text_content())[1])
    x_end = chart.evaluate("chart => chart.layout.xaxis.range[1]")
    assert trained <= x_end <= 1.05 * trained, f"the axis ends at {x_end}, training at step {trained}"
    # The chart is resized a frame after the result is drawn (the toolbar may have grown): wait for it.
    try:
        demo.evaluate("""demo => new Promise((resolve, reject) => {
          const above = () => demo.querySelector('.xtitle').getBoundingClientRect().bottom
            <= demo.querySelector('.prog-footer').getBoundingClientRect().top;
          const start = performance.now();
          const check = () => (above() ? resolve() : performance.now() - start > 5000 ? reject() : requestAnimationFrame(check));
          check();
        })""")
    except Error:
        title, footer = chart.locator(".xtitle").bounding_box(), demo.locator(".prog-footer").bounding_box()
        pytest.fail(f"the axis title (bottom at {title['y'] + title['height']}) runs into the scrubber (top at {footer['y']})")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-09-training-progression.png"))
    demo.locator(".prog-scrubber").evaluate(SLIDE_TO, "0")
    expect(demo.locator(".prog-current .prog-label")).to_have_text("Epoch 0")
    expect(demo.locator(".prog-current .prog-word--miss").first).to_be_visible()


def test_on_a_phone_the_chart_comes_under_the_sentences_at_full_width(open_page, screenshot_path):
    page = open_page(slide_path("training_progression") + f"?epochs={EPOCHS}", width=390, height=844)  # cached above
    demo = page.locator("#slide-training_progression .demo")
    chart = demo.locator(".js-plotly-plot")
    expect(chart).to_have_count(1, timeout=60_000)
    sentences, plot = demo.locator(".prog-sentences").bounding_box(), chart.bounding_box()
    assert plot["y"] >= sentences["y"] + sentences["height"], "the chart comes after the sentences"
    assert plot["width"] >= 0.9 * demo.locator(".demo-output").bounding_box()["width"]
    assert plot["height"] >= 300
    demo.locator(".demo-output").screenshot(path=screenshot_path("slide-09-training-progression-phone.png"))
