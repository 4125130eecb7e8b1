"""The speed race in the browser: a small race runs live and the slide draws each point with its
spread, names the server's parallel hardware and draws each step's speed-up from one thread to all
of it, says who was faster at each length (or that it is too close to call), and stays legible on
a 1024×768 projector and on a phone."""
import os
import re

import pytest
from playwright.sync_api import TimeoutError, expect

from tests.browser.a11y import expect_accessible
from tests.browser.widget import open_demo, run_and_wait

SMALL = {"lengths": {64, 128}, "width": 64, "batch": 1, "repeats": 3, "loop_max_length": 64}

# Every text in the demo and its size in CSS pixels as the viewer sees it: on the scaled canvas
# times --scale, on a phone (the flowing layout) as is.
TEXT_SIZES = """widget => {
  const phone = matchMedia('(max-width: 760px)').matches;
  const scale = phone ? 1 : parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--scale'));
  return [...widget.querySelectorAll('.demo-output text, .demo-output li span, .demo-output h3, .demo-output summary')]
    .filter((el) => el.textContent.trim() && el.checkVisibility() && el.getBoundingClientRect().width > 0)
    .map((el) => [el.textContent.trim(), parseFloat(getComputedStyle(el).fontSize) * scale]);
}"""

# Pairs of texts in the demo's output whose boxes overlap by more than a pixel.
OVERLAPS = """widget => {
  const texts = [...widget.querySelectorAll('.demo-output text, .demo-output li span, .demo-output h3, .demo-output summary')]
    .filter((el) => el.textContent.trim() && el.checkVisibility() && el.getBoundingClientRect().width > 0);
  const pairs = [];
  texts.forEach((a, i) => texts.slice(i + 1).forEach((b) => {
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1) {
      pairs.push([a.textContent.trim(), b.textContent.trim()]);
    }
  }));
  return pairs;
}"""


# Whether the chart's y tick labels stand apart (each box clear of the next by a pixel or more).
TICKS_APART = """chart => {
  const boxes = [...chart.querySelectorAll('.ytick text')].map((t) => t.getBoundingClientRect()).sort((a, b) => a.top - b.top);
  return boxes.length > 0 && boxes.every((box, i) => i === 0 || boxes[i - 1].bottom <= box.top + 1);
}"""


def test_the_speed_race_draws_each_spread_and_calls_only_what_it_can_tell(open_page, screenshot_path):
    page, widget = open_demo(open_page, "speed_race", **SMALL)
    run_and_wait(widget)
    expect(widget.locator(".speed-legend li")).to_have_text(["LSTM fused", "LSTM loop", "Transformer"])
    # One bar per timed point (fastest to slowest): the fused LSTM and the Transformer at both lengths, the loop at 64.
    expect(widget.locator(".speed-times .errorbar path.yerror")).to_have_count(5)
    # The server's hardware, from the result, over a speed-up per timed point with its range.
    cores = os.cpu_count()
    expect(widget.locator(".speed-gains-heading")).to_have_text(f"Server: {cores} CPU core{'s' if cores > 1 else ''}")
    if cores > 1:  # one core has nothing to spread a step over
        expect(widget.locator(".speed-gains-what")).to_have_text(f"speed-up on {cores} threads")
        expect(widget.locator(".speed-gains-chart .errorbar path.xerror")).to_have_count(5)
        # Each length names its points, or in a chart too short for both, the longest (the summary's).
        expect(widget.locator(".speed-gains-chart .ytick text").last).to_have_text("128")
        expect(widget.locator(".demo-summary")).to_contain_text(f"Speed-up of a step from one thread to {cores} threads at length 128:")
    widget.locator(".speed-details summary").click()  # who was faster at each length, folded with Table 1
    calls = widget.locator(".speed-call")
    expect(calls).to_have_count(2)
    for call in calls.all():
        winner = call.get_attribute("data-winner")
        words = call.locator(".speed-call-winner")
        if winner == "none":  # never a winner where the bars overlap or a point stayed noisy
            expect(words).to_have_text(re.compile("^(too close|noisy)$"))
            if words.text_content() == "noisy":
                expect(widget.locator(".demo-summary")).to_contain_text("stayed noisy")
        else:
            expect(words).to_have_text(re.compile({"lstm": r"LSTM \d", "transformer": r"Transformer \d"}[winner]))
    expect(widget.locator(".demo-summary")).to_contain_text(f"On {os.cpu_count()} CPU thread")
    expect(widget.locator(".speed-complexity")).to_contain_text("O(n²·d)")
    expect_accessible(page)  # axe-core: no serious or critical violation, with the result drawn
    page.screenshot(path=screenshot_path("slide-10-speed-race.png"))


def test_the_speed_race_is_legible_on_a_projector_and_a_phone_and_in_a_short_chart(open_page, screenshot_path):
    for width, height in ((1024, 768), (390, 844)):
        page, widget = open_demo(lambda path: open_page(path, width=width, height=height), "speed_race", **SMALL)
        run_and_wait(widget, "on cpu")
        expect(widget.locator(".speed-times .errorbar path.yerror")).to_have_count(5)
        page.screenshot(path=screenshot_path(f"slide-10-speed-race-{width}.png"), full_page=True)  # to look at, and if it fails
        sizes = widget.evaluate(TEXT_SIZES)
        assert sizes and all(size >= 16 for _, size in sizes), [s for s in sizes if s[1] < 16]
        assert widget.evaluate(OVERLAPS) == []
        ticks = widget.locator(".speed-times .xtick text").all_text_contents()
        assert ticks == ["64", "128"], "the lengths are written out in full"
    expect_ticks_to_thin_out(page, widget)


def expect_ticks_to_thin_out(page, widget):
    """A longer summary or an error above it leaves the chart less height: its labels must never touch."""
    chart = widget.locator(".speed-times")
    chart.evaluate("chart => { chart.style.height = '150px'; Plotly.Plots.resize(chart); }")
    # Redrawn for the smaller height with no two tick labels touching.
    try:
        page.wait_for_function(f"chart => chart._fullLayout.yaxis._length < 90 && ({TICKS_APART})(chart)",
                               arg=chart.element_handle(), timeout=10_000)
    except TimeoutError:
        drawn = chart.evaluate("c => [c._fullLayout.yaxis._length, c._fullLayout.yaxis.range, c.layout.yaxis.tickvals]")
        pytest.fail(f"the tick labels still touch (axis length, range, ticks: {drawn})")
    assert widget.evaluate(OVERLAPS) == []
    assert chart.locator(".ytick text").count() >= 2, "the axis still has numbers to read"
