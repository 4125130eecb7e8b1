"""The Q/K/V slide in Chromium: one query step by step, and a click picks another."""


from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible
from tests.browser.widget import open_demo, run_and_plot


def test_steps_through_one_query_and_a_click_picks_another(open_page, screenshot_path):
    page, demo = open_demo(open_page, "qkv", steps=20)
    run_and_plot(demo)
    chart, chosen = demo.locator(".js-plotly-plot"), demo.locator('.attn-token[aria-pressed="true"]')
    for query, keys in (("Transformer", 10), ("simple", 5)):  # 'simple' sees only itself and the 4 words before it
        if query != "Transformer":  # the default query is the last token
            demo.locator(".attn-token", has_text=query).click()
        expect(chosen).to_have_text(query)
        expect(chart).to_contain_text(f"query q of '{query}'")
        expect(chart).to_contain_text("softmax: Σ = 1.000")
        expect(chart.locator(".bars .point")).to_have_count(3 * keys)  # 3 panels
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-07-qkv.png"))
