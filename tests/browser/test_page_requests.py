"""What a slide asks the server for: each API answer once, and on a repeat visit no static file
(they carry a content hash and are kept for a year). The browser's cache is on here, so these pages
are watched without the request routing of `open_page`, which would turn it off."""
import json
import urllib.request
from collections import Counter
from urllib.parse import urlparse

from playwright.sync_api import expect

from tests.deck import slide_path

STATIC = ("/assets/", "/vendor/")


def cache_slide_one(url: str) -> None:
    """Slide 1's demo result cached, so that opening the slide draws it (as in a warmed lecture)."""
    run = urllib.request.Request(url + "/api/demos/system_check/run", data=b"{}", method="POST",
                                 headers={"Content-Type": "application/json"})
    answer = json.loads(urllib.request.urlopen(run, timeout=60).read())
    if answer["status"] != "done":
        urllib.request.urlopen(url + answer["events"], timeout=300).read()  # the stream ends with the job


class Visit:
    """The requests of one page load that reached the server (not the browser's cache), by DevTools."""

    def __init__(self, page):
        self.sent: dict[str, tuple[str, str]] = {}  # request id -> (method, URL)
        self.from_cache: set[str] = set()
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", lambda e: self.sent.setdefault(e["requestId"], (e["request"]["method"], e["request"]["url"])))
        cdp.on("Network.requestServedFromCache", lambda e: self.from_cache.add(e["requestId"]))
        cdp.on("Network.responseReceived", lambda e: self.from_cache.add(e["requestId"]) if e["response"].get("fromDiskCache") else None)

    def reached_server(self) -> list[tuple[str, str]]:
        return [(method, urlparse(url).path) for request_id, (method, url) in self.sent.items()
                if request_id not in self.from_cache and not url.startswith("data:")]


def open_slide_one(page, url: str) -> Visit:
    visit = Visit(page)
    page.goto(url + "/slides/1")
    expect(page.locator("#slide-system_check .js-plotly-plot")).to_have_count(1, timeout=120_000)
    expect(page.locator("#slide-system_check .demo-badge")).to_contain_text("cached")
    page.wait_for_load_state("networkidle")  # slide 1 holds no event stream open: the page goes quiet
    return visit


def test_a_slide_asks_for_each_answer_once_and_a_repeat_visit_for_no_static_file(browser, server):
    cache_slide_one(server.url)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    problems = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("request", lambda request: problems.append(f"left the server: {request.url}")
            if urlparse(request.url).netloc not in ("", urlparse(server.url).netloc) and not request.url.startswith("data:") else None)
    try:
        for visit_name in ("first", "repeat"):
            reached = open_slide_one(page, server.url).reached_server()
            api = Counter(request for request in reached if request[1].startswith("/api/"))
            assert api, f"{visit_name} visit: the slide asked the API nothing"
            assert {path for _, path in api} >= {"/api/instructor", "/api/demos/system_check/estimate", "/api/demos/system_check/lookup"}
            assert all(count == 1 for count in api.values()), f"{visit_name} visit asked twice: {api}"
            static = [path for _, path in reached if path.startswith(STATIC)]
            if visit_name == "first":
                assert len(static) == len(set(static)), f"a static file fetched twice: {static}"
                assert any(path.startswith("/vendor/plotly-") for path in static)
            else:
                assert static == [], f"the repeat visit fetched static files again: {static}"
        assert not problems, problems
    finally:
        context.close()


def test_plotly_is_downloaded_in_the_background_but_run_only_for_a_chart(browser, server):
    """Running Plotly holds a phone's page for seconds: a slide with no chart on show never pays it."""
    cache_slide_one(server.url)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        visit = Visit(page)
        with page.expect_response(lambda response: "/vendor/plotly-" in response.url, timeout=120_000) as plotly:
            page.goto(server.url + slide_path("amnesia"))  # a poll comes first: nothing to draw
        plotly.value.finished()
        expect(page.locator("#slide-amnesia .demo-run")).to_be_visible()
        assert page.evaluate("() => window.Plotly === undefined")
        page.keyboard.press("Home")  # slide 1: its cached result is drawn, with the copy downloaded
        expect(page.locator("#slide-system_check .js-plotly-plot")).to_have_count(1, timeout=120_000)
        downloads = [path for _, path in visit.reached_server() if path.startswith("/vendor/plotly-")]
        assert len(downloads) == 1, downloads
    finally:
        context.close()


def test_a_phone_reads_the_sentence_before_the_chart_and_the_chart_does_not_push_it_away(browser, server):
    """On a hall's Wi-Fi the chart library arrives seconds after the page: the measured sentence comes
    with the page (before any script), above where the chart goes, and stays where it is once drawn."""
    cache_slide_one(server.url)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    held = []  # the chart library's requests, answered only once the sentence has been looked at
    page.route("**/vendor/plotly-*", lambda route: held.append(route))
    try:
        page.goto(server.url + "/slides/1")
        widget = page.locator("#slide-system_check")
        sentence = widget.locator(".demo-summary")
        expect(sentence).to_contain_text("matrix product took")
        expect(widget.locator(".demo-badge")).to_contain_text("cached")  # the page's script has run
        assert widget.locator(".js-plotly-plot .main-svg").count() == 0, "no chart without the library"
        before = sentence.bounding_box()
        assert before["y"] + before["height"] <= 844, "on the first screen"
        for route in held:
            route.continue_()
        page.unroute("**/vendor/plotly-*")
        expect(widget.locator(".js-plotly-plot .main-svg").first).to_be_visible(timeout=60_000)
        after = sentence.bounding_box()
        assert abs(after["y"] - before["y"]) < 1, (before, after)
        assert after["y"] < widget.locator(".js-plotly-plot").first.bounding_box()["y"], "the sentence above the chart"
    finally:
        context.close()
