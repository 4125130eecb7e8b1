"""The Amnesia Test slide in Chromium: a tiny run answers an unseen string; each model is named with its learning rate."""
from playwright.sync_api import expect

from demos.shared.tuning import chosen, rate_text
from tests.browser.a11y import expect_accessible
from tests.browser.widget import open_demo, run_and_wait


def test_answers_an_unseen_string(open_page, screenshot_path):
    page, widget = open_demo(open_page, "amnesia", length=6, steps=30, width=16, seeds=1)
    run_and_wait(widget, "trained just now on cpu")
    expect(widget.locator(".js-plotly-plot")).to_have_count(1)
    expect(widget.locator(".amnesia-string .amnesia-letter")).to_have_count(7)  # six letters and the target
    expect(widget.locator(".amnesia-answer")).to_have_count(2)
    expect(widget.locator(".amnesia-answer").first).to_contain_text("top 3:")
    budget = widget.locator(".amnesia-budget")
    expect(budget).to_contain_text("Adam, batch 64, at most 30 steps")
    expect(budget).to_contain_text("forget gates start at 1")  # what each family got, on the slide
    expect(budget).to_contain_text("std 0.02")
    expect(budget).to_contain_text("seeds 0 · cpu")
    legend = widget.locator(".js-plotly-plot .legend")
    expect(legend).to_contain_text("chance (3.8%)")
    for name in ("lstm-tuned", "transformer"):  # each model named with the rate chosen for it
        expect(legend).to_contain_text(f"(lr {rate_text(chosen('amnesia', name)['lr'])})")
    expect(widget.locator(".js-plotly-plot .bars .point")).to_have_count(2)  # accuracy of each model
    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("With at most 30 training steps each (seed 0), the tuned LSTM recalled the first of 6 letters")
    expect(summary).to_contain_text("chance is 3.8%")
    expect(summary).to_contain_text("each chosen on validation data from 0.0001–0.01")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-03-amnesia.png"))
