"""Context scaling in a real browser: tiny settings, Run, and the per-token loss against position with
its fits, the table of fitted constants, and the size sweep: absent (with a note saying how to
compute it), computed in the run, then found in the cache by a run without it."""
import re

from playwright.sync_api import expect

from tests.browser.widget import open_demo, run_and_wait, set_params


def run_tiny(widget, sweep: bool):
    set_params(widget, steps=10, context=16, width=16, sweep=sweep)
    run_and_wait(widget)


def test_plots_loss_against_position_with_fits_and_notes_the_missing_sweep(open_page, screenshot_path):
    page, widget = open_demo(open_page, "context_scaling")
    run_tiny(widget, sweep=False)

    chart = widget.locator(".ctx-positions.js-plotly-plot")
    expect(chart).to_have_count(1)
    expect(chart.locator(".legend .traces")).to_have_count(3)  # Transformer, LSTM, what the dashed lines are
    expect(chart.locator(".legend")).to_contain_text("Transformer")
    expect(chart.locator(".legend")).to_contain_text("LSTM")
    expect(chart.locator(".legend")).to_contain_text("fit")
    expect(chart.locator(".scatterlayer .trace")).to_have_count(7)  # each position, binned means, fit; and the legend's
    expect(chart.locator(".xtick text")).to_have_text(["1", "2", "4", "8", "16"])  # a log axis up to the context

    rows = widget.locator(".ctx-fits tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Transformer")
    formula = re.compile(r"^L\(T\) = \d+\.\d\d [+−] \d+\.\d\d·T\^−\d+\.\d\d$")
    expect(rows.nth(0).locator(".ctx-fit-formula")).to_have_text(formula)
    expect(rows.nth(1)).to_contain_text("LSTM")
    expect(rows.nth(1)).to_contain_text("non-emb.")
    expect(widget.locator(".ctx-example")).to_contain_text("Held-out text, names in [ ]:")
    expect(widget.locator(".ctx-example")).to_contain_text("[")

    expect(widget.locator(".ctx-sweep-note")).to_contain_text("flask --app app warm --full")
    expect(widget.locator(".demo-summary")).to_contain_text("held-out documents")
    expect(widget.locator(".demo-summary")).to_contain_text("Transformer's loss")
    page.screenshot(path=screenshot_path("slide-11-context-scaling.png"))


def test_draws_the_size_sweep_and_finds_it_cached_later(open_page, screenshot_path):
    page, widget = open_demo(open_page, "context_scaling")
    run_tiny(widget, sweep=True)
    sweep = widget.locator(".ctx-sweep-chart.js-plotly-plot")
    expect(sweep).to_have_count(1)
    expect(sweep.locator(".legend .traces")).to_have_count(4)
    for name in ("Transformer", "1-layer LSTM", "2-layer LSTM", "paper: α 0.076"):
        expect(sweep.locator(".legend")).to_contain_text(name)
    expect(sweep.locator(".scatterlayer .point")).to_have_count(12)  # 4 sizes × 3 families

    run_tiny(widget, sweep=False)  # the same settings without the sweep: it is looked up, not trained
    expect(widget.locator(".demo-summary")).to_contain_text("held-out documents")
    expect(widget.locator(".ctx-sweep-chart.js-plotly-plot .scatterlayer .point")).to_have_count(12)
    expect(widget.locator(".ctx-sweep-note")).to_have_count(0)
    page.screenshot(path=screenshot_path("slide-11-context-scaling-sweep.png"))
