"""The speed race in the browser: a small race runs live and the slide shows its chart and verdict."""
from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible
from tests.deck import slide_path


def test_the_speed_race_draws_its_measurement_and_verdict(open_page, screenshot_path):
    page = open_page(slide_path("speed_race"))
    widget = page.locator("#slide-speed_race .demo")
    widget.locator(".demo-settings summary").click()
    for length in (256, 512, 1024, 2048, 4096):
        widget.locator(f'.param[data-name="lengths"] input[value="{length}"]').uncheck()
    widget.locator('.param[data-name="width"] select').select_option(label="64")
    widget.locator('.param[data-name="batch"] select').select_option(label="1")
    widget.locator('.param[data-name="repeats"] input').fill("1")
    widget.locator('.param[data-name="loop_max_length"] select').select_option(label="64")
    widget.locator(".demo-settings summary").click()
    widget.locator(".demo-run").click()
    expect(widget.locator(".demo-badge")).to_contain_text("on cpu", timeout=60_000)
    expect(widget.locator(".speed-times .legendtext")).to_have_text(
        ["LSTM fused", "LSTM loop", "Transformer"])
    expect(widget.locator(".speed-ratios .scatterlayer .point")).to_have_count(2)
    expect(widget.locator(".demo-summary")).to_contain_text("On cpu the")
    expect(widget.locator(".speed-complexity")).to_contain_text("O(n²·d)")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-10-speed-race.png"))
