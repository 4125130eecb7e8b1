"""What a student's phone fetches to open the lecture, and how soon it can read it.

Starts the server on a free port with a fresh cache, caches slide 1's demo (so the first slide
draws a chart, as in a warmed lecture), then opens /slides/1 in Chromium at 390×844, first with an
empty browser cache and then again in the same browser (a repeat visit), at full speed and
throttled to a hall's Wi-Fi (1.6 Mbit/s with 150 ms of latency). Throttled, twice: asking for gzip
only, as Chromium asks a hall's server (a LAN address over plain http), and asking for brotli too,
as it asks localhost or any https address; Plotly is shipped in both. It prints, for each: bytes on the
wire and requests (in all, without Plotly, and those that reached the server for static files), the
time to first paint, to the slide being usable (the page's script has run), to slide 1's first
chart drawn, to everything loaded, and the cumulative layout shift (CLS) meanwhile; and the API
requests, with any URL asked more than once.

Then the whole lecture as one phone follows it: every slide in turn, each showing its cached
result, and the bytes that took (gzip only, then with brotli). The results are the tests' tiny runs (tests/browser/cached_results.py),
cached as each demo's default; `--cache DIR` uses a warmed cache folder instead (a copy of it), for the
real results, whose charts carry more points.

Targets: a first visit without Plotly under 80 KB on the wire; a repeat visit with no request for a
static file; each API answer asked once; first paint and slide navigation never waiting for Plotly;
the first chart on a joining phone within 3 s at 1.6 Mbit/s; the whole lecture under 600 kB a phone.

`--script-modules` serves the page's ES modules one by one as the browser finds them
(FLASK_SCRIPT_MODULES=1) instead of the one bundle, to compare the two.

    python -m benchmarks.page_weight [--cache DIR] [--script-modules]
"""
import argparse
import json
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

from playwright.sync_api import sync_playwright

from slides import load_deck
from web.bundle import bundle
from web.static_assets import SCRIPTS
from tests.browser.cached_results import every_result_in, show
from tests.browser.conftest import CHROMIUM_ARGS, chromium_path
from tests.live_server import LiveServer

THROTTLED = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 1_600_000 / 8}
STATIC = ("/assets/", "/vendor/", "/static/", "/modules/")
# What Chromium asks a LAN address over http for (the hall's server); it adds br and zstd only over
# https or from localhost, so this benchmark's server on 127.0.0.1 would otherwise get br.
HALL_ENCODINGS = "gzip, deflate"
CASES = (("full speed", None, None), ("1.6 Mbit/s, 150 ms, gzip", THROTTLED, HALL_ENCODINGS),
         ("1.6 Mbit/s, 150 ms, br", THROTTLED, None))


def warm_slide_one(url: str) -> None:
    request = urllib.request.Request(url + "/api/demos/system_check/run", data=b"{}",
                                     headers={"Content-Type": "application/json"}, method="POST")
    answer = json.loads(urllib.request.urlopen(request).read())
    if answer["status"] != "done":
        urllib.request.urlopen(url + answer["events"]).read()  # until the job has finished


class Visit:
    """One page load watched through the DevTools protocol: every request, where it was served from
    and its bytes on the wire."""

    def __init__(self, page, network, encodings: str | None = None):
        self.requests: dict[str, dict] = {}
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        if network:
            self.cdp.send("Network.emulateNetworkConditions", network)
        if encodings:  # the Accept-Encoding of every request, in place of Chromium's own
            self.cdp.send("Network.setExtraHTTPHeaders", {"headers": {"Accept-Encoding": encodings}})
        self.cdp.on("Network.requestWillBeSent", self.sent)
        self.cdp.on("Network.responseReceived", self.received)
        self.cdp.on("Network.requestServedFromCache", self.from_cache)
        self.cdp.on("Network.loadingFinished", self.finished)

    def sent(self, event):
        self.requests[event["requestId"]] = {"url": event["request"]["url"], "bytes": 0, "cached": False}

    def received(self, event):
        if event["requestId"] in self.requests and (event["response"].get("fromDiskCache") or event["response"].get("fromPrefetchCache")):
            self.requests[event["requestId"]]["cached"] = True

    def from_cache(self, event):
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]]["cached"] = True

    def finished(self, event):
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]]["bytes"] = event["encodedDataLength"]

    def report(self) -> dict:
        reached = [r for r in self.requests.values() if not r["cached"] and not r["url"].startswith("data:")]
        plotly = [r for r in reached if "/vendor/plotly" in r["url"]]
        api = Counter(r["url"] for r in reached if "/api/" in r["url"])
        return {
            "bytes": sum(r["bytes"] for r in reached),
            "bytes_without_plotly": sum(r["bytes"] for r in reached if r not in plotly),
            "requests": len(reached),
            "static_requests": sum(1 for r in reached if any(part in r["url"] for part in STATIC)),
            "api_requests": sum(api.values()),
            "api_twice": sorted(url.split("/api/", 1)[1] for url, count in api.items() if count > 1),
        }


LAYOUT_SHIFTS = """
window.__layoutShift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value;
}).observe({ type: "layout-shift", buffered: true });
"""


def load(page, url: str, network, encodings: str | None) -> dict:
    visit = Visit(page, network, encodings)
    started = time.perf_counter()
    page.goto(url + "/slides/1", wait_until="commit")
    page.wait_for_function("() => window.greatShift !== undefined", timeout=120_000)
    usable = time.perf_counter() - started
    page.wait_for_selector("#slide-system_check .js-plotly-plot .main-svg", timeout=300_000)
    chart = time.perf_counter() - started
    page.wait_for_function("() => window.Plotly !== undefined", timeout=300_000)
    page.wait_for_load_state("networkidle", timeout=300_000)
    drawn = time.perf_counter() - started
    paint = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    shift = page.evaluate("() => window.__layoutShift")
    return {**visit.report(), "first_paint_ms": paint, "usable_s": usable, "chart_s": chart, "all_loaded_s": drawn, "cls": shift}


def whole_lecture(browser, url: str, encodings: str | None) -> tuple[int, int]:
    """(bytes on the wire, slides) for a fresh phone opening slide 1 and moving through every slide,
    each shown until its result is drawn (tests/browser/cached_results.show)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    visit = Visit(page, None, encodings)
    page.goto(url + "/slides/1")
    page.wait_for_function("() => window.greatShift !== undefined")
    deck = load_deck()
    for slide in deck:
        show(page, slide)
    page.wait_for_load_state("networkidle")
    total = visit.report()["bytes"]
    context.close()
    return total, len(deck)


def bundling_ms() -> dict[str, float]:
    """How long the server takes to bundle each page's script, the median of 5: once per process."""
    static = Path(__file__).resolve().parent.parent / "static"
    times = {}
    for name, entry in SCRIPTS.items():
        runs = []
        for _ in range(5):
            started = time.perf_counter()
            bundle(static / entry, static)
            runs.append((time.perf_counter() - started) * 1000)
        times[name] = sorted(runs)[2]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, help="a warmed cache folder to copy (default: the tests' tiny results)")
    parser.add_argument("--script-modules", action="store_true", help="the page's modules one by one, not the bundle")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache = every_result_in(Path(tmp) / "cache", args.cache)
        with LiveServer(cache, {"FLASK_SCRIPT_MODULES": "1"} if args.script_modules else None) as server:
            warm_slide_one(server.url)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
                print(f"{'network':<26} {'visit':<7} {'on the wire':>12} {'w/o Plotly':>11} {'requests':>9} "
                      f"{'static':>7} {'API':>4} {'first paint':>12} {'usable':>8} {'1st chart':>10} {'all loaded':>11} "
                      f"{'CLS':>6}  API asked twice")
                for label, network, encodings in CASES:
                    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
                    page = context.new_page()
                    page.add_init_script(LAYOUT_SHIFTS)
                    for visit in ("first", "repeat"):
                        row = load(page, server.url, network, encodings)
                        print(f"{label:<26} {visit:<7} {row['bytes'] / 1024:9.1f} KB {row['bytes_without_plotly'] / 1024:8.1f} KB "
                              f"{row['requests']:>9} {row['static_requests']:>7} {row['api_requests']:>4} {row['first_paint_ms'] or 0:9.0f} ms "
                              f"{row['usable_s']:7.2f}s {row['chart_s']:9.2f}s {row['all_loaded_s']:10.2f}s {row['cls']:6.3f}  "
                              f"{', '.join(row['api_twice']) or 'none'}")
                    context.close()
                print()
                for label, encodings in (("gzip", HALL_ENCODINGS), ("br", None)):
                    total, slides = whole_lecture(browser, server.url, encodings)
                    print(f"The whole lecture on one phone, {label} ({slides} slides, each result drawn; "
                          f"{'results from ' + str(args.cache) if args.cache else 'the tests’ tiny results'}): "
                          f"{total / 1000:.0f} kB on the wire")
                browser.close()
    print("Bundling each page's script, once per process (median of 5): " +
          ", ".join(f"{name} {ms:.0f} ms" for name, ms in bundling_ms().items()))


if __name__ == "__main__":
    main()
