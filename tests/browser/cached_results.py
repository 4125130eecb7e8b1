"""A server whose cache holds every demo's result on tiny settings (tests/demos/tiny.py, with PARAMS
below), shared by the browser tests that look at whole slides; and how a test knows a slide shows its
result, settled.

The tiny results are stored under those parameters and under each demo's default parameters too,
so a slide opened at its plain address (or reached with the keyboard) shows a result at once, and the
closing slide's recap, which reads default results, shows every row measured.
"""
import shutil
from pathlib import Path
from urllib.parse import quote

from engine import Engine
from slides import demo_ids, load_deck
from tests.demos.tiny import TINY, make_tiny_runs, tiny_result
from tests.browser.watch import watched_page
from tests.live_server import LiveServer
from tests.made_once import made_once

# The result is on screen: the badge says it came from the cache, every chart is drawn, and a
# demo's own extra (slide 1's list of cached demos, fetched after the result) has arrived. The
# closing slide has no badge: its recap has arrived.
DRAWN = """([slideId, extra]) => {
  const slide = document.getElementById(slideId);
  if (slide.querySelector('.recap-panel')) return slide.querySelector(extra) !== null;
  if (slide.querySelector('.demo-badge')?.dataset.state !== 'cached') return false;
  const charts = [...slide.querySelectorAll('.demo-output [role="img"]')];
  if (!charts.every((c) => c.classList.contains('js-plotly-plot') && c.querySelector('.main-svg'))) return false;
  return !extra || slide.querySelector(extra) !== null;
}"""
EXTRA = {"system_check": ".cache-chip", "recap": ".recap-overall"}

# ...and has stopped moving: the text's boxes are the same over five animation frames in a row
# (Plotly may draw again once its container settles, and fonts may still be swapping). A frame is
# also taken as passed after 100 ms: headless Chromium sometimes stops sending animation frames to a
# page just resized, and the wait then hung until pytest's timeout instead of looking again.
SETTLED = """async (slideId) => {
  await Promise.race([document.fonts.ready, new Promise((next) => setTimeout(next, 5000))]);
  const output = document.getElementById(slideId).querySelector('.demo-output');
  const snapshot = () => JSON.stringify([...output.querySelectorAll('text, p, li, span, td, th')].map((e) => {
    const r = e.getBoundingClientRect();
    return [e.textContent.length, Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
  }));
  let last = snapshot(), same = 0;
  for (let frame = 0; frame < 300 && same < 5; frame += 1) {
    await new Promise((next) => { requestAnimationFrame(next); setTimeout(next, 100); });
    const now = snapshot();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return same >= 5;
}"""


# The tiny settings, with the parts that decide how much a slide shows at their default sizes: the
# showdown's 120 generated characters and Index Lookup's three widths (a tiny run would hide what does
# not fit).
PARAMS = {**TINY, "generation": {**TINY["generation"], "characters": 120},
          "index_lookup": {**TINY["index_lookup"], "widths": [4, 8, 16]}}


def address(n: int, params: dict) -> str:
    """The slide's address with these parameters (a list with commas, as the widget writes it)."""
    query = "&".join(f"{name}={quote(','.join(map(str, value)) if isinstance(value, list) else str(value), safe=',')}"
                     for name, value in params.items())
    return f"/slides/{n}?{query}"


def fill_cache(cache: Path) -> None:
    """Every demo of the deck computed on PARAMS, stored for those settings and for its defaults. A
    demo whose PARAMS are its TINY settings stores the demo tests' own tiny run, made once per test
    run (tests/demos/tiny.py): whichever test needs it first pays for it."""
    engine = Engine(cache)
    for demo_id in demo_ids(load_deck()):
        if PARAMS[demo_id] == TINY[demo_id]:
            result = cache_tiny_run(engine, demo_id).result
        else:
            demo, params, key = engine.resolve(demo_id, PARAMS[demo_id])
            result = engine.compute(demo, params, key)[0].result
        _, defaults, default_key = engine.resolve(demo_id, None)
        engine.cache.put(demo_id, default_key, defaults, result)


def cache_tiny_run(engine: Engine, demo_id: str):
    """The demo's shared tiny run kept in this engine's cache under its TINY settings, as its server would
    keep it: a slide test that presses Run with those settings is shown it at once, instead of the server
    training it again beside the test. Returns the cache entry."""
    _, params, key = engine.resolve(demo_id, TINY[demo_id])
    return engine.cache.put(demo_id, key, params, tiny_result(demo_id)[0])


def every_result_in(cache: Path, warmed: Path | None = None) -> Path:
    """`cache`, a new folder holding every slide's result: a copy of a `warmed` cache folder (the real
    results), or else the tiny ones as `fill_cache` stores them. For the benchmarks that look at pages."""
    if warmed:
        shutil.copytree(warmed, cache)
    else:
        fill_cache(cache)
    return cache


def start_cached_server(cache: Path) -> LiveServer:
    """A server on a copy of the filled cache, which the test processes of one run fill once and share
    (the tiny runs in it made side by side by the processes that need it, none waiting idle for another)."""
    make_tiny_runs([demo_id for demo_id in demo_ids(load_deck()) if PARAMS[demo_id] == TINY[demo_id]])
    shutil.copytree(made_once("cached-results", fill_cache), cache)
    return LiveServer(cache).start()


def wait_until_shown(page, slide, timeout: float = 20_000) -> bool:
    """Waits until this slide (a slides.Slide) shows its cached result; whether it then stopped moving."""
    slide_id = f"slide-{slide.demo}"
    page.wait_for_function(DRAWN, arg=[slide_id, EXTRA.get(slide.demo)], timeout=timeout)
    return page.evaluate(SETTLED, slide_id)


def show(page, slide, poll: str = "before") -> None:
    """Moves the deck to the slide (as the lecturer's keys do, without reloading the page) and waits
    until it shows what the class would see: with its poll before, open or after (`poll`)."""
    slide_id = f"slide-{slide.demo}"
    page.evaluate("(n) => window.greatShift.deck.goTo(n)", slide.n)
    if slide.poll:
        page.wait_for_selector(f"#{slide_id} .poll[data-open='{str(poll == 'open').lower()}']")
    if poll == "open":  # the class is answering: whatever the demo shows then, the slide must fit
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        return
    if slide.poll and not page.locator(f"#{slide_id} .demo-badge[data-state='cached']").count():
        page.locator(f"#{slide_id} .demo-run").click()  # a poll's slide waits for Run: the cached result at once
    assert wait_until_shown(page, slide), f"slide {slide.n} ({slide.demo}) never stopped moving"
    if slide.poll and poll == "after":
        page.wait_for_selector(f"#{slide_id} .poll[data-judged='true']")
        assert wait_until_shown(page, slide), f"slide {slide.n} ({slide.demo}) never stopped moving"


def open_deck(browser, server: LiveServer, width: int, height: int):
    """A watched page at this window size with the deck open at slide 1, ready to be moved with `show`:
    (context, page, watch); the caller closes the context and checks the watch."""
    context, page, watch = watched_page(browser, server.url, width, height)
    page.goto(server.url + "/slides/1")
    page.wait_for_function("() => window.greatShift !== undefined")
    return context, page, watch
