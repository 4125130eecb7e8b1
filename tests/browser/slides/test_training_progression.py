"""The training progression slide in Chromium: trains live, then scrubs back."""


from playwright.sync_api import expect

from demos.core.corpus import TARGET_SENTENCE
from tests.browser.a11y import expect_accessible
from tests.browser.widget import SLIDE_TO, open_demo, run_and_plot


def test_trains_live_then_scrubs_back_to_the_first_snapshot(open_page, screenshot_path):
    page, demo = open_demo(open_page, "training_progression", epochs=2)
    run_and_plot(demo)
    expect(demo.locator(".js-plotly-plot .legendtext")).to_have_count(3)
    expect(demo.locator(".prog-line").first).to_contain_text(TARGET_SENTENCE)
    expect(demo.locator(".prog-current .prog-label")).to_have_text("Epoch 2")
    expect(demo.locator(".demo-summary")).to_contain_text("steps) on cpu")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-09-training-progression.png"))
    demo.locator(".prog-scrubber").evaluate(SLIDE_TO, "0")
    expect(demo.locator(".prog-current .prog-label")).to_have_text("Epoch 0")
    expect(demo.locator(".prog-current .prog-word--miss").first).to_be_visible()
