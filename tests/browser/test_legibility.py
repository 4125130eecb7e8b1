"""Every slide's result, drawn from the cache (the closing slide: the recap of those results), read at
the sizes the class uses: a 1600×900 laptop and a 390×844 phone here; the 1024×768 and 1280×720
projectors in test_whole_slides, which moves through the slides at those sizes anyway. No chart text is
under 16 on-screen pixels, no two texts overlap, and none is cut off by its chart or the screen (how
each is measured: tests/browser/legibility.py).

The results are computed first on tiny settings, into a cache the whole-slide tests share
(tests/browser/cached_results.py), stored under each demo's defaults too: one page per size is moved
from slide to slide with the deck's own goTo (as the lecturer's keys move it), and each slide shows
its cached result at once.
Screenshots: artifacts/screenshots/legibility-<size>-<slide>.png.
"""
import pytest

from slides import load_deck
from tests.browser.cached_results import DRAWN, PARAMS, SETTLED, address, open_deck, show
from tests.browser.legibility import measure, problems
from tests.deck import slide_number

SIZES = {"1600x900": (1600, 900), "390x844": (390, 844)}
DECK = load_deck()


@pytest.mark.parametrize("size", SIZES)
def test_every_slide_is_legible(browser, cached_server, screenshot_path, size):
    context, page, watch = open_deck(browser, cached_server, *SIZES[size])
    found = []
    try:
        for slide in DECK:
            slide_id = f"slide-{slide.demo}"
            show(page, slide)
            page.screenshot(path=screenshot_path(f"legibility-{size}-{slide.n:02d}-{slide.demo}.png"), full_page=True)
            found += [f"slide {slide.n} ({slide.demo}) at {size}: {problem}" for problem in problems(*measure(page, slide_id))]
            if slide.is_recap and size != "390x844":  # every row measured: the closing slide still fits its canvas
                canvas = page.locator(".canvas").bounding_box()
                panel = page.locator(f"#{slide_id} .recap-panel").bounding_box()
                if panel["y"] + panel["height"] > canvas["y"] + canvas["height"] + 1:
                    found.append(f"slide {slide.n} (recap) at {size}: the recap runs below the slide")
    finally:
        context.close()
    assert not watch.errors, watch.errors
    assert not watch.outside_requests, f"requests left localhost: {watch.outside_requests}"
    assert not found, f"{len(found)} legibility problems:\n" + "\n".join(found)


def test_a_chart_is_drawn_again_for_a_phone_when_the_window_narrows(browser, cached_server):
    """A phone turned, or a window made narrow: the chart takes the phone's layout, not a shrunk copy."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    try:
        page.goto(cached_server.url + address(slide_number("signal_decay"), PARAMS["signal_decay"]))
        page.wait_for_function(DRAWN, arg=["slide-signal_decay", None])
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("() => document.querySelector('#slide-signal_decay .js-plotly-plot')._fullLayout.font.size === 16")
        assert page.evaluate(SETTLED, "slide-signal_decay")
        texts, error = measure(page, "slide-signal_decay")
        assert not problems(texts, error), problems(texts, error)
    finally:
        context.close()


@pytest.mark.parametrize("size", ["1280x720", "1024x768"])
def test_every_slides_text_fits_its_column_without_scrolling(open_page, size):
    """On a projector the text column never needs a scroll bar (the hall cannot scroll it)."""
    width, height = map(int, size.split("x"))
    page = open_page("/slides/1", width=width, height=height)
    overflowing = []
    for slide in load_deck():
        page.evaluate(f"() => window.greatShift.deck.goTo({slide.n})")
        page.wait_for_function(f"() => document.querySelector('#slide-{slide.demo}').offsetParent !== null")
        extra = page.evaluate(f"() => {{ const b = document.querySelector('#slide-{slide.demo} .slide-body');"
                              " return b.scrollHeight - b.clientHeight; }")
        if extra > 1:
            overflowing.append(f"slide {slide.n} ({slide.demo}): {extra} px too tall")
    assert not overflowing, overflowing
