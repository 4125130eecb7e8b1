"""The Amnesia Test slide in Chromium: a tiny run answers an unseen string."""


from playwright.sync_api import expect

from tests.browser.widget import open_demo, run_and_wait


def test_answers_an_unseen_string(open_page, screenshot_path):
    page, widget = open_demo(open_page, "amnesia", length=6, steps=30, width=16)
    run_and_wait(widget, "trained just now on cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".amnesia-string .amnesia-letter")).to_have_count(7)  # six letters and the target
    expect(widget.locator(".amnesia-answer")).to_have_count(2)
    expect(widget.locator(".amnesia-answer").first).to_contain_text("top 3:")
    expect(widget.locator(".amnesia-budget")).to_contain_text("Adam, lr 0.003, batch 64, 30 steps")
    expect(widget.locator(".amnesia-budget")).to_contain_text("cpu")
    expect(widget.locator(".js-plotly-plot .legend .traces")).to_have_count(3)  # two loss curves and chance
    expect(widget.locator(".js-plotly-plot .bars .point")).to_have_count(2)  # accuracy of each model
    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("After 30 training steps each, the LSTM recalled the first of 6 letters")
    expect(summary).to_contain_text("chance is 3.8%")
    page.screenshot(path=screenshot_path("slide-03-amnesia.png"))
