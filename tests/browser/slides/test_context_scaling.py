"""Context scaling in a real browser: tiny settings, Run, and the per-character loss against position
with its fits, the table of fitted constants, and the size sweep: absent (with a note saying it
belongs to the longer run), or computed in the run when asked for."""
import re

from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible
from tests.browser.widget import open_demo, run_and_wait, set_params


def run_tiny(widget, sweep: bool):
    set_params(widget, steps=20, seeds=1, sweep=sweep)
    run_and_wait(widget)


def test_plots_loss_against_position_with_fits_and_notes_the_missing_sweep(open_page, screenshot_path):
    page, widget = open_demo(open_page, "context_scaling")
    run_tiny(widget, sweep=False)

    chart = widget.locator(".ctx-positions.js-plotly-plot")
    expect(chart).to_have_count(1)
    legend = chart.locator(".legend")
    expect(legend.locator(".traces")).to_have_count(3)  # Transformer, LSTM, what the dashed lines are
    for name in ("Transformer", "LSTM", "fit"):
        expect(legend).to_contain_text(name)
    markers = legend.locator(".legendpoints path.scatterpts")
    assert len({m.get_attribute("d") for m in markers.all()}) == 2, "the two models' markers differ in shape, not only colour"
    expect(chart.locator(".xtick text").first).to_have_text("1")  # a log axis of positions from the first
    expect(chart).to_have_attribute("aria-label", re.compile(r"at character 128"))  # the whole context

    rows = widget.locator(".ctx-fits tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Transformer")
    formula = re.compile(r"^L\(T\) = \d+\.\d\d [+−] \d+\.\d\d·T−\d+\.\d\d( \(at the edge\))?$")
    expect(rows.nth(0).locator(".ctx-fit-formula")).to_have_text(formula)
    expect(rows.nth(0).locator(".ctx-formula sup")).to_have_text(re.compile(r"^−\d+\.\d\d$"))  # a raised exponent, not "^"
    for line in rows.locator(".ctx-formula").all():  # each formula on one line
        assert line.evaluate("f => f.getClientRects().length") == 1
    expect(rows.nth(1)).to_contain_text("LSTM")
    expect(rows.nth(1)).to_have_attribute("title", re.compile(r"non-embedding parameters"))
    expect(widget.locator(".ctx-example")).to_contain_text("Test text: ")

    expect(widget.locator(".ctx-sweep-note")).to_contain_text("is part of the longer run")
    summary = widget.locator(".demo-summary")
    expect(summary).to_contain_text("windows of test text from")
    expect(summary).to_contain_text("(seed 0; ± one standard error)")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-11-context-scaling.png"))


def test_draws_the_size_sweep_when_asked_for_it(open_page, screenshot_path):
    page, widget = open_demo(open_page, "context_scaling")
    run_tiny(widget, sweep=True)
    sweep = widget.locator(".ctx-sweep-chart.js-plotly-plot")
    expect(sweep).to_have_count(1)
    expect(sweep.locator(".legend .traces")).to_have_count(3)
    for name in ("Transformer", "LSTM", "paper: α 0.076"):
        expect(sweep.locator(".legend")).to_contain_text(name)
    expect(sweep.locator(".scatterlayer .point")).to_have_count(8)  # 4 sizes × 2 families
    expect(widget.locator(".demo-summary")).to_contain_text("Across 8 sizes the fitted exponents")

    page.screenshot(path=screenshot_path("slide-11-context-scaling-sweep.png"))

    run_tiny(widget, sweep=False)  # the quick run again: the curves take the width, a line names what is left out
    expect(widget.locator(".ctx-sweep-chart")).to_have_count(0)
    expect(widget.locator(".ctx-sweep-note")).to_have_text("Loss against model size (8 models) is part of the longer run.")
