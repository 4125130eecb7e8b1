"""The two slides with a size sweep (a GPU server's prepared run: Kaplan et al.'s Figures 7 and 5 in
miniature), from results stored in the cache (tests/browser/sweep_results): the showdown first shows
"By size", test bits against non-embedding parameters for both families with each fitted α, chance and
the 5-gram, and the Transformer's shapes beside it, and switches to the head-to-head and back; the context
slide shows the loss at each position with each family's fitted a + b·T^−c and where it stops gaining.
Both fit a 1024×768 projector and read on a 390×844 phone, and the same results without their sweep
still draw as before. Screenshots: artifacts/screenshots/sweep-*.png."""
import re

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import expect_accessible, expect_finger_sized
from tests.browser.cached_results import DRAWN, SETTLED, address
from tests.browser.fit import fit_problems
from tests.browser.legibility import measure, problems
from tests.browser.sweep_results import WITHOUT_SWEEP, start_sweep_server, sweep_result, without_sweep
from tests.browser.watch import watched_page
from tests.browser.widget import demo_on
from tests.deck import slide_number, slide_path

SIZES = [(1024, 768), (390, 844)]
GENERATION, CONTEXT = sweep_result("generation"), sweep_result("context_scaling")


@pytest.fixture(scope="module")
def sweep_server(tmp_path_factory):
    with start_sweep_server(tmp_path_factory.mktemp("sweep") / "cache") as live:
        yield live


@pytest.fixture
def open_slide(browser, sweep_server):
    """Opens the slide of a demo at a window size and waits until it shows its cached result, settled:
    the sweep's result (after Run), or with `params` the one stored under them (a link to it). Checks the
    pages when the test ends."""
    opened = []

    def open_slide(demo_id, width=1024, height=768, params=None):
        context, page, watch = watched_page(browser, sweep_server.url, width, height)
        opened.append((context, watch))
        page.goto(sweep_server.url + (address(slide_number(demo_id), params) if params else slide_path(demo_id)))
        page.wait_for_function("() => window.greatShift !== undefined")
        widget = page.locator(f"#slide-{demo_id} .demo")
        if not params:  # a link with settings shows their result at once; the plain slide, with its poll, waits for Run
            demo_on(page, demo_id).locator(".demo-run").click()
        page.wait_for_function(DRAWN, arg=[f"slide-{demo_id}", None])
        assert page.evaluate(SETTLED, f"slide-{demo_id}"), "the result never stopped moving"
        return page, widget

    yield open_slide
    for context, watch in opened:
        context.close()
        assert not watch.errors, watch.errors
        assert not watch.outside_requests, f"requests left localhost: {watch.outside_requests}"


def stop_words(stops: dict) -> str:
    """Where a family stops gaining, as the chart's label says it: "21 (16–32 over seeds)", or "16" where the seeds agree."""
    return f"{stops['mean']:.0f}" + ("" if stops["min"] == stops["max"] else f" ({stops['min']}–{stops['max']} over seeds)")


def legend_dashes(chart) -> set:
    return {line.get_attribute("style") for line in chart.locator(".legend .legendlines path").all()}


def test_the_showdown_shows_both_families_by_size_with_their_fitted_exponents(open_slide, screenshot_path):
    page, demo = open_slide("generation")
    views = demo.locator(".gen-view")
    expect(views).to_have_text(["By size", "Head to head"])
    expect(views.nth(0)).to_have_attribute("aria-pressed", "true")

    families = {family["kind"]: family for family in GENERATION["sweep"]["sizes"]["families"]}
    alphas = {kind: f"{family['fit']['alpha']:.3f}" for kind, family in families.items()}
    sizes = demo.locator(".gen-sizes.js-plotly-plot")
    expect(sizes.locator(".legendtext")).to_have_text([f"Transformer: α = {alphas['transformer']}",
                                                       f"LSTM: α = {alphas['lstm']}"])
    assert len(legend_dashes(sizes)) == 2, "the two families differ in dash, not only colour"
    top = GENERATION["baselines"]["ngrams"][-1]
    expect(sizes.locator(".annotation")).to_have_text([f"chance {GENERATION['baselines']['uniform']:.2f}",
                                                       f"5-gram {top['test_bits']:.2f}"])
    expect(sizes.locator(".xtitle")).to_have_text("non-embedding parameters N")
    expect(sizes).to_have_attribute("aria-label", re.compile(
        rf"^Test bits per character against non-embedding parameters N.*: Transformer (\d\.\d\d at [\d,]+, ){{3}}fitted α = "
        rf"{alphas['transformer']}; LSTM (\d\.\d\d at [\d,]+, ){{3}}fitted α = {alphas['lstm']}\.$"))
    # the means, one marker per size of each family: as many points as sizes
    points = sizes.locator(".scatterlayer .trace").evaluate_all("traces => traces.map((t) => t.querySelectorAll('.point').length)")
    assert sorted(points, reverse=True)[:2] == [len(families["transformer"]["points"])] * 2, points

    shapes = GENERATION["sweep"]["shapes"]
    chart = demo.locator(".gen-shapes.js-plotly-plot")
    expect(chart.locator(".ytick")).to_have_count(len(shapes["shapes"]))
    expect(chart.locator(".ytick").first).to_have_text(re.compile(r"^\d+ × \d+\d+ heads?$"))  # two lines, read as one: layers × width, heads
    best = min(shapes["shapes"], key=lambda shape: shape["test_bits"]["mean"])
    expect(chart.locator(".bartext").first).to_have_text(f"{best['test_bits']['mean']:.2f}")
    expect(chart.locator(".annotation")).to_have_text(["5-gram", "chance"])
    expect(demo.locator(".gen-shapes-caption")).to_have_text(re.compile(rf"within {shapes['spread'] * 100:.1f}% of each other$"))

    summary = demo.locator(".demo-summary")  # what the view on show measured
    expect(summary).to_have_text(re.compile(r"^By size \(non-embedding parameters, test bits per character\): .*Fitted as k·N"))
    expect(summary).not_to_contain_text("counting on the same characters")
    expect(demo.locator(".gen-scores, .gen-tops, .gen-columns, .gen-stepbar")).to_have_count(4)
    for hidden in (".gen-scores", ".gen-tops", ".gen-columns", ".gen-stepbar"):
        expect(demo.locator(hidden)).to_be_hidden()
    expect_accessible(page)
    page.screenshot(path=screenshot_path("sweep-11-generation-by-size.png"))

    views.nth(1).click()  # the head-to-head, as without a sweep
    expect(views.nth(1)).to_have_attribute("aria-pressed", "true")
    expect(sizes).to_be_hidden()
    expect(demo.locator(".gen-scores .ytick")).to_have_count(8)  # the two models, chance and five counting models
    expect(demo.locator(".gen-top")).to_have_count(2)
    expect(summary).to_have_text(re.compile(r"^Bits per character on the test text"))
    expect(summary).not_to_contain_text("By size")
    assert page.evaluate(SETTLED, "slide-generation")
    assert not problems(*measure(page, "slide-generation")), problems(*measure(page, "slide-generation"))
    assert not fit_problems(page, "slide-generation"), fit_problems(page, "slide-generation")
    page.screenshot(path=screenshot_path("sweep-11-generation-head-to-head.png"))

    views.nth(0).click()
    expect(sizes).to_be_visible()
    expect(summary).to_contain_text("Fitted as k·N")
    for demo_id in ("context_scaling", "generation"):  # away and back: the hidden ladder is left alone, nothing fails
        page.evaluate("(n) => window.greatShift.deck.goTo(n)", slide_number(demo_id))
    expect(sizes).to_be_visible()
    page.wait_for_timeout(500)


def test_the_context_slide_shows_the_loss_at_each_position_with_each_fit(open_slide, screenshot_path):
    page, widget = open_slide("context_scaling")
    positions = CONTEXT["text"]["positions"]
    chart = widget.locator(".ctx-positions.js-plotly-plot")
    fits = [f"{family['label']}: {family['fit']['a']:.2f} + {family['fit']['b']:.2f}·T^−{family['fit']['c']:.2f}"
            for family in positions["families"]]
    expect(chart.locator(".legendtext")).to_have_text([*fits, "stops gaining"])
    assert len(legend_dashes(chart)) == 2, "the two families differ in dash, not only colour"
    expect(chart.locator(".annotation")).to_have_text("chance")
    expect(chart.locator(".xtick text").first).to_have_text("1")  # from the first position
    expect(chart.locator(".xtitle")).to_have_text("position T in the context")
    stops = [re.escape(stop_words(family["stops_gaining"])) for family in positions["families"]]
    expect(chart).to_have_attribute("aria-label", re.compile(
        rf"^Test text, bits per character at each position T of a {positions['context']}-character context .*"
        rf"Transformer from .* fitted .* no clear gain after position {stops[0]}; LSTM .* no clear gain after position "
        rf"{stops[1]}\.$"))
    # each family: the curve at every position, its fit, the bins' markers and where it stops gaining
    lines = chart.locator(".scatterlayer .trace").evaluate_all("traces => traces.length")
    assert lines == 4 * 2 + 2, lines  # and chance, and the legend's entry for the vertical lines

    copy = widget.locator(".ctx-copy.js-plotly-plot")  # the copy test as before, its legend above it
    expect(copy.locator(".legendtext")).to_have_text(["Transformer", "LSTM", "chance"])
    expect(widget.locator(".ctx-text:not(.ctx-positions)")).to_have_count(0)  # the positions take the cut context's place
    expect(widget.locator(".demo-summary")).to_contain_text(f"Loss at each position of the {positions['context']}-character context")
    expect_accessible(page)
    page.screenshot(path=screenshot_path("sweep-12-context-scaling.png"))


@pytest.mark.parametrize("width, height", SIZES)
@pytest.mark.parametrize("demo_id", ["generation", "context_scaling"])
def test_a_sweep_fits_the_projector_and_reads_on_a_phone(open_slide, screenshot_path, demo_id, width, height):
    page, widget = open_slide(demo_id, width, height)
    slide_id = f"slide-{demo_id}"
    page.screenshot(path=screenshot_path(f"sweep-{slide_number(demo_id)}-{demo_id}-{width}x{height}.png"), full_page=True)
    found = problems(*measure(page, slide_id))
    assert not found, found
    output = widget.locator(".demo-output")
    assert output.evaluate("o => o.scrollHeight <= o.clientHeight + 1"), "the demo box scrolls"
    if width > 760:  # the projector: the whole slide on one screen, nothing in it scrolled
        assert not fit_problems(page, slide_id), fit_problems(page, slide_id)
    elif demo_id == "generation":  # a phone: the buttons that switch the views are a finger's target
        expect_finger_sized(page, f"#{slide_id} .gen-view", f"#{slide_id} .gen-views")


@pytest.mark.parametrize("demo_id", ["generation", "context_scaling"])
def test_the_same_result_without_its_sweep_draws_as_before(open_slide, demo_id):
    page, widget = open_slide(demo_id, params=WITHOUT_SWEEP)
    if demo_id == "generation":
        expect(widget.locator(".gen-views, .gen-sweep")).to_have_count(0)
        expect(widget.locator(".gen-scores .ytick")).to_have_count(8)
        expect(widget.locator(".gen-top")).to_have_count(2)
        expect(widget.locator(".demo-summary")).to_have_text(without_sweep("generation")["summary"])  # the whole summary
    else:
        expect(widget.locator(".ctx-positions")).to_have_count(0)
        text = widget.locator(".ctx-text.js-plotly-plot")
        expect(text.locator(".legend")).to_have_count(0)  # named in the copy test's legend, beside it
        expect(text).to_have_attribute("aria-label", re.compile(r"no clear gain after T = \d+"))
        expect(widget.locator(".ctx-copy .xtitle")).to_have_text("position of the symbol")
    assert not fit_problems(page, f"slide-{demo_id}"), fit_problems(page, f"slide-{demo_id}")
