"""Whole slides on a projector: at 1024×768 (4:3) and 1280×720 (16:9) every slide shows its cached
result with nothing inside the slide scrolled, every chart and the summary wholly on screen, and no
part of the slide off it (how each is measured: tests/browser/fit.py). A slide with a poll is looked at
as the class sees it before the demo (the poll not opened yet), after it (closed, its outcome beside
the result) and while the class answers (open: the tallest poll). Before the demo, each slide's result
is also read as a hall reads it (tests/browser/legibility.py, as test_legibility does at a laptop's and
a phone's size): the same page, so the projector's sizes cost one sweep each, not two.

One page per size, moved from slide to slide as the lecturer does, on the server with tiny cached
results that the legibility test shares (tests/browser/cached_results.py).
Screenshots: artifacts/screenshots/whole-<size>-<slide>-<poll>.png.
"""
import pytest

from slides import load_deck
from tests.browser.cached_results import open_deck, show
from tests.browser.classroom import as_lecturer
from tests.browser.fit import fit_problems
from tests.browser.legibility import measure, problems
from web.assets import VENDOR, plotly_build

SIZES = {"1024x768": (1024, 768), "1280x720": (1280, 720)}
DECK = load_deck()
POLL_SLIDES = [slide for slide in DECK if slide.poll]
# The trace types of every chart drawn, and those the served Plotly build can draw (web/vendor/: a
# partial build, which draws nothing, silently, for a type it lacks); and that build as this browser
# received it: its size on the wire (Chromium asks 127.0.0.1 for brotli) and the sha256 of what it decoded.
TRACE_TYPES = """async () => {
  const url = new URL(document.body.dataset.plotlyUrl, location.href).href;
  const decoded = await (await fetch(url)).arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', decoded));
  return {
    drawn: [...new Set([...document.querySelectorAll('.js-plotly-plot')].flatMap((chart) => chart.data.map((t) => t.type ?? 'scatter')))],
    served: Object.keys(Plotly.PlotSchema.get().traces),
    on_the_wire: performance.getEntriesByName(url)[0].encodedBodySize,
    sha256: [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join(''),
  };
}"""


def post(server, path: str, body: dict) -> None:
    """From this machine, with no token: the lecturer of a server that has none set."""
    as_lecturer(server, path, body, token=False)


def set_polls(server, state: str) -> None:
    """Every poll as never asked ("before": reset, then opened and closed with no answer, since a reset
    poll hides the result until Close), open with one answer ("open"), or closed with it ("after")."""
    for slide in POLL_SLIDES:
        url = f"/api/polls/{slide.demo}"
        post(server, url, {"action": "reset"})
        post(server, url, {"action": "open"})
        if state in ("open", "after"):
            answer = {"value": slide.poll.min} if slide.poll.kind == "number" else {"choice": 0}
            post(server, url + "/answer", answer)  # a student's answer (a new voter each time)
        if state != "open":
            post(server, url, {"action": "close"})


@pytest.mark.parametrize("size", SIZES)
def test_every_slide_fits_the_projector(browser, cached_server, screenshot_path, size):
    context, page, watch = open_deck(browser, cached_server, *SIZES[size])
    found = []
    try:
        for poll, slides in (("before", DECK), ("after", POLL_SLIDES), ("open", POLL_SLIDES)):
            set_polls(cached_server, poll)
            for slide in slides:
                show(page, slide, poll)
                name = f"whole-{size}-{slide.n:02d}-{slide.demo}" + (f"-poll-{poll}" if slide.poll else "")
                page.screenshot(path=screenshot_path(name + ".png"))
                where = f"slide {slide.n} ({slide.demo})" + (f", poll {poll}" if slide.poll else "")
                found += [f"{where} at {size}: {problem}" for problem in fit_problems(page, f"slide-{slide.demo}")]
                if poll == "before":
                    found += [f"{where} at {size}: {problem}" for problem in problems(*measure(page, f"slide-{slide.demo}"))]
        traces = page.evaluate(TRACE_TYPES)
    finally:
        set_polls(cached_server, "before")  # as the other tests of this server expect them
        context.close()
    assert not watch.errors, watch.errors
    assert not watch.outside_requests, f"requests left localhost: {watch.outside_requests}"
    assert not found, f"{len(found)} slides that do not fit or cannot be read:\n" + "\n".join(found)
    assert {"bar", "heatmap", "scatter"} <= set(traces["drawn"]) <= set(traces["served"]), traces
    build = plotly_build()
    assert traces["on_the_wire"] == len(VENDOR.joinpath(build["encodings"]["br"]["file"]).read_bytes())
    assert traces["sha256"] == build["sha256"], "the brotli copy does not decode to the recorded build"
