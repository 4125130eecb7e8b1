"""What a student's browser fetches to open the lecture, and how soon it can read it.

Starts the server on a free port with a fresh cache, caches slide 1's demo (so the first slide
draws a chart, as in a warmed lecture), then opens /slides/1 in Chromium, first with an empty
browser cache and then again in the same browser (a repeat visit), at full speed and throttled
to 2 Mbit/s with 100 ms of latency. It prints, for each: bytes on the wire and requests (in all,
without Plotly, and those that reached the server for static files), the time to first paint,
to the slide being usable (the page's script has run), to everything loaded (Plotly and slide
1's chart drawn), and the cumulative layout shift (CLS) meanwhile; and the API requests, with any
URL asked more than once.

Targets: a first visit without Plotly under 80 KB on the wire; a repeat visit with no request for a
static file; each API answer asked once; first paint and slide navigation never waiting for Plotly.

    python -m benchmarks.page_weight
"""
import json
import tempfile
from collections import Counter
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.browser.conftest import CHROMIUM_ARGS, chromium_path
from tests.live_server import LiveServer

THROTTLED = {"offline": False, "latency": 100, "downloadThroughput": 2_000_000 / 8, "uploadThroughput": 2_000_000 / 8}
STATIC = ("/assets/", "/vendor/", "/static/")


def warm_slide_one(url: str) -> None:
    request = urllib.request.Request(url + "/api/demos/system_check/run", data=b"{}",
                                     headers={"Content-Type": "application/json"}, method="POST")
    answer = json.loads(urllib.request.urlopen(request).read())
    if answer["status"] != "done":
        urllib.request.urlopen(url + answer["events"]).read()  # until the job has finished


class Visit:
    """One page load watched through the DevTools protocol: every request, where it was served from
    and its bytes on the wire."""

    def __init__(self, page, network):
        self.requests: dict[str, dict] = {}
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        if network:
            self.cdp.send("Network.emulateNetworkConditions", network)
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


def load(page, url: str, network) -> dict:
    visit = Visit(page, network)
    started = time.perf_counter()
    page.goto(url + "/slides/1", wait_until="commit")
    page.wait_for_function("() => window.greatShift !== undefined", timeout=120_000)
    usable = time.perf_counter() - started
    page.wait_for_selector("#slide-system_check .js-plotly-plot, #slide-system_check .facts", timeout=300_000)
    page.wait_for_function("() => window.Plotly !== undefined", timeout=300_000)
    page.wait_for_load_state("networkidle", timeout=300_000)
    drawn = time.perf_counter() - started
    paint = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    shift = page.evaluate("() => window.__layoutShift")
    return {**visit.report(), "first_paint_ms": paint, "usable_s": usable, "all_loaded_s": drawn, "cls": shift}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "cache").start()
        try:
            warm_slide_one(server.url)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
                print(f"{'network':<22} {'visit':<7} {'on the wire':>12} {'w/o Plotly':>11} {'requests':>9} "
                      f"{'static':>7} {'API':>4} {'first paint':>12} {'usable':>8} {'all loaded':>11} {'CLS':>6}  API asked twice")
                for label, network in (("full speed", None), ("2 Mbit/s, 100 ms", THROTTLED)):
                    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
                    page = context.new_page()
                    page.add_init_script(LAYOUT_SHIFTS)
                    for visit in ("first", "repeat"):
                        row = load(page, server.url, network)
                        print(f"{label:<22} {visit:<7} {row['bytes'] / 1024:9.1f} KB {row['bytes_without_plotly'] / 1024:8.1f} KB "
                              f"{row['requests']:>9} {row['static_requests']:>7} {row['api_requests']:>4} {row['first_paint_ms'] or 0:9.0f} ms "
                              f"{row['usable_s']:7.2f}s {row['all_loaded_s']:10.2f}s {row['cls']:6.3f}  {', '.join(row['api_twice']) or 'none'}")
                    context.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
