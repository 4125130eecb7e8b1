"""Using the whole context in a real browser: tiny settings, Run (the demo tests' shared tiny run, kept in
the server's cache, so the server does not train it again), and the copy test's loss at every
position for both families (told apart by dash as well as colour) with chance dotted and the repeat's
start marked; beside it natural text against the context length T; under both the summary names
the variant measured and the rate each model got. The whole slide is legible, without scrolling inside the demo, on a
1024×768 projector and on a 390×844 phone."""
import re

import pytest
from playwright.sync_api import expect

from engine import Engine
from tests.browser.a11y import expect_accessible
from tests.browser.legibility import measure, problems
from tests.browser.cached_results import SETTLED, cache_tiny_run
from tests.browser.widget import open_demo, run_and_wait
from tests.demos.tiny import TINY as TINY_RUNS

TINY = TINY_RUNS["context_scaling"]


@pytest.fixture(scope="module", autouse=True)
def tiny_run(server):
    cache_tiny_run(Engine(server.cache_dir), "context_scaling")


def test_draws_the_copy_test_beside_natural_text(open_page, screenshot_path):
    page, widget = open_demo(open_page, "context_scaling", **TINY)
    run_and_wait(widget)

    copy = widget.locator(".ctx-copy.js-plotly-plot")
    legend = copy.locator(".legend")
    expect(legend.locator(".traces")).to_have_count(3)  # Transformer, LSTM, chance
    for name in ("Transformer", "LSTM", "chance"):
        expect(legend).to_contain_text(name)
    dashes = {line.get_attribute("style") for line in legend.locator(".legendlines path").all()}
    assert len(dashes) == 3, "the two models and chance differ in dash, not only colour"
    expect(copy.locator(".annotation")).to_have_text("repeat64 back")  # on two lines
    expect(copy).to_have_attribute("aria-label", re.compile(r"bits before the repeat, .* on the repeats"))

    expect(widget.locator(".ctx-positions")).to_have_count(0)  # no size sweep (tests/browser/slides/test_size_sweeps.py)
    text = widget.locator(".ctx-text.js-plotly-plot")  # the same families: one legend serves both charts
    expect(text.locator(".legend")).to_have_count(0)
    expect(text.locator(".annotation")).to_have_text("chance")
    expect(text.locator(".xtick text").first).to_have_text("1")  # the context from one character
    expect(text).to_have_attribute("aria-label", re.compile(r"no clear gain after T = \d+"))

    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("Copy test, fixed distance, 64 back (seed 0, chance 5.00 bits): on the repeats")
    expect(summary).to_contain_text(re.compile(r"Rates chosen on validation: Transformer [\d.]+, LSTM [\d.]+\."))
    page.screenshot(path=screenshot_path("slide-12-context-scaling.png"))
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn


@pytest.mark.parametrize("width, height", [(1024, 768), (390, 844)])
def test_the_whole_result_is_legible_without_scrolling_the_demo(open_page, screenshot_path, width, height):
    page, widget = open_demo(lambda path: open_page(path, width=width, height=height), "context_scaling", **TINY)
    run_and_wait(widget)
    expect(widget.locator(".ctx-text.js-plotly-plot")).to_have_count(1)
    assert page.evaluate(SETTLED, "slide-context_scaling"), "the result never stopped moving"
    page.screenshot(path=screenshot_path(f"slide-12-context-scaling-{width}x{height}.png"), full_page=True)
    output = widget.locator(".demo-output")
    assert output.evaluate("o => o.scrollHeight <= o.clientHeight + 1"), "the demo box scrolls"
    found = problems(*measure(page, "slide-context_scaling"))
    assert not found, found
    if width > 760:  # the projector: the whole slide on one screen
        box = widget.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height + 1
