"""The closing slide in Chromium: every test's headline from the server's cache, the takeaway computed
from them and the device, all on a 1024×768 projector without scrolling and legible on a phone; shown
again later, it reads the cache again (a demo run during the lecture appears). An illustration's row
is shown as not counted, and a number poll's guesses are scored only against a quiet measurement."""
import re

import pytest
from playwright.sync_api import expect

from demos import DEMOS
from demos.shared.recap import is_contest
from engine import Engine
from slides import SLIDES_DIR, load_deck
from tests.browser.a11y import expect_accessible
from tests.browser.watch import watched_page
from tests.browser.legibility import measure, problems
from tests.deck import slide_number
from tests.demos.tiny import cache_as_default
from tests.live_server import LiveServer
from web.recap import lecture_acts

CLOSING = len(load_deck())
HEADLINES = [slide.demo for slide in load_deck() if hasattr(DEMOS.get(slide.demo), "headline")]
CONTESTS = sum(is_contest(DEMOS[demo]) for demo in HEADLINES)  # signal decay is an illustration
MEMORY = sum(is_contest(DEMOS[demo]) for demo in lecture_acts(SLIDES_DIR)[0][2])  # the memory act's contests: amnesia among them


def headline_cached_as_default(engine: Engine, demo_id: str, change=lambda result: None) -> dict:
    """The demo's tiny run (`change`d in place, if given) cached as its default run (what the recap reads); its headline."""
    return DEMOS[demo_id].headline(cache_as_default(engine, demo_id, change).result)


@pytest.fixture(scope="module")
def recap_server(tmp_path_factory):
    """A server of its own, whose cache holds the amnesia test's result (and nothing else, at first)."""
    cache = tmp_path_factory.mktemp("recap") / "cache"
    engine = Engine(cache)
    amnesia = headline_cached_as_default(engine, "amnesia")
    with LiveServer(cache) as live:
        yield live, engine, amnesia


def open_slide(browser, url, n, width, height):
    _, page, watch = watched_page(browser, url, width, height)
    page.goto(f"{url}/slides/{n}")
    return page, watch


def test_the_recap_and_its_takeaway_fit_a_projector_and_follow_the_results(browser, recap_server, screenshot_path):
    live, engine, amnesia = recap_server
    page, watch = open_slide(browser, live.url, CLOSING, 1024, 768)
    slide = page.locator("#slide-recap")
    rows = slide.locator(".recap-row")
    expect(rows).to_have_count(len(HEADLINES))
    measured = rows.nth(HEADLINES.index("amnesia"))
    expect(measured.locator(".recap-test")).to_have_text(amnesia["test"])
    expect(measured.locator(".recap-winner")).to_have_text(amnesia["winner_label"])
    expect(measured.locator(".recap-detail")).to_have_text(amnesia["detail"])
    expect(slide.locator(".recap-missing")).to_have_count(len(HEADLINES) - 1)  # "not run yet"
    memory = slide.locator(".recap-act", has_text="Memory:")
    expect(memory).to_contain_text(f"; {MEMORY - 1} not measured yet.")
    expect(slide.locator(".recap-act", has_text="Speed:")).to_contain_text("Speed: not measured yet.")
    expect(slide.locator(".recap-overall")).to_contain_text(
        f"({CONTESTS} tests, {len(HEADLINES) - CONTESTS} illustration not counted)")
    budget = engine.cached("amnesia").result["budget_run"]["text"]  # a tiny run: "settings chosen in class (on a CPU)"
    expect(slide.locator(".recap-device")).to_have_text(f"Measured on this server's cpu · {budget}.")

    # The whole slide on the projector's screen, and nothing scrolls.
    panel = slide.locator(".recap-panel").bounding_box()
    canvas = page.locator(".canvas").bounding_box()  # 1280×960 at 0.8: the whole 4:3 screen
    assert panel["y"] + panel["height"] <= min(canvas["y"] + canvas["height"], 768) + 1, "the panel ends inside the canvas, on screen"
    assert slide.locator(".recap-panel").evaluate("p => p.scrollHeight <= p.clientHeight + 1")
    assert slide.locator(".slide-body").evaluate("b => b.scrollHeight <= b.clientHeight + 1")
    assert not problems(*measure(page, "slide-recap")), problems(*measure(page, "slide-recap"))
    expect_accessible(page)
    page.screenshot(path=screenshot_path("slide-recap.png"))

    # A result computed during the lecture (here: cached while the class looks at another slide)
    # appears when the closing slide is shown again, and the takeaway follows it.
    page.evaluate(f"() => window.greatShift.deck.goTo({slide_number('signal_decay')})")
    signal = headline_cached_as_default(engine, "signal_decay")
    page.evaluate(f"() => window.greatShift.deck.goTo({CLOSING})")
    again = rows.nth(HEADLINES.index("signal_decay"))
    expect(again.locator(".recap-test")).to_have_text(signal["test"])
    expect(slide.locator(".recap-missing")).to_have_count(len(HEADLINES) - 2)
    # An illustration: shown with its numbers, muted, said not to count, and counted nowhere.
    expect(again).to_have_class("recap-row recap-row--illustration")
    expect(again.locator(".recap-illustration")).to_have_text("illustration — not counted")
    expect(again.locator(".recap-winner")).to_have_count(0)
    expect(again.locator(".recap-detail")).to_have_text(signal["detail"])
    expect(memory).to_contain_text(f"; {MEMORY - 1} not measured yet.")
    assert not problems(*measure(page, "slide-recap")), problems(*measure(page, "slide-recap"))
    page.screenshot(path=screenshot_path("slide-recap-illustration.png"))
    assert not watch.errors and not watch.outside_requests, (watch.errors, watch.outside_requests)
    page.context.close()


def test_on_a_phone_the_recap_is_legible(browser, recap_server, screenshot_path):
    live, _, _ = recap_server
    page, watch = open_slide(browser, live.url, CLOSING, 390, 844)
    expect(page.locator("#slide-recap .recap-row")).to_have_count(len(HEADLINES))
    expect(page.locator("#slide-recap .recap-act").first).to_be_visible()
    assert not problems(*measure(page, "slide-recap")), problems(*measure(page, "slide-recap"))
    page.screenshot(path=screenshot_path("slide-recap-phone.png"), full_page=True)
    assert not watch.errors and not watch.outside_requests
    page.context.close()


def ratio_at_the_longest_length(median: float, low: float, high: float):
    """Sets a speed race result's measured ratio (what its number poll asks for) at its longest length,
    timed quietly there (the tiny run's own timings may have stayed noisy on a busy machine)."""
    def change(result: dict) -> None:
        result["transformer_speedup"][-1].update(median=median, min=low, max=high, noisy=False)
        for noisy in result["races"][0]["noisy"].values():
            noisy[-1] = False
    return change


def expect_speed_detail(browser, url: str, text) -> None:
    """The speed race's row of the recap on a projector reads `text` (a string or a pattern)."""
    page, watch = open_slide(browser, url, CLOSING, 1024, 768)
    expect(page.locator("#slide-recap .recap-row").nth(HEADLINES.index("speed_race")).locator(".recap-detail")).to_have_text(text)
    assert not watch.errors and not watch.outside_requests, (watch.errors, watch.outside_requests)
    page.context.close()


def test_the_class_guess_beside_a_ratio_is_written_as_its_poll_writes_it_and_not_scored_when_too_noisy(browser, tmp_path):
    """Slide 10 asks for a ratio on a log axis: the recap gives the class's guess and the measured
    value with the poll's own precision (two significant digits below 1), not rounded to the step;
    over a range too wide to score a guess, it says the measurement was too noisy instead."""
    engine = Engine(tmp_path / "cache")
    cache_as_default(engine, "speed_race", ratio_at_the_longest_length(0.52, 0.45, 0.6))
    with LiveServer(tmp_path / "cache") as live:  # no token: every browser on this machine is the instructor
        polls = f"{live.url}/api/polls/speed_race"
        voters = [browser.new_context() for _ in range(2)]
        assert voters[0].request.post(polls, data={"action": "open"}).ok
        for voter, guess in zip(voters, (0.25, 0.35)):
            assert voter.request.post(f"{polls}/answer", data={"value": guess}).ok
        assert voters[0].request.post(polls, data={"action": "close"}).ok
        for voter in voters:
            voter.close()
        expect_speed_detail(browser, live.url, "Transformer layer's step 0.52× (0.45–0.60) as fast as the fused LSTM's; "
                            "the class guessed 0.30× (median), measured 0.52×: 0 of 2 within the range, median error 0.22×")

    cache_as_default(engine, "speed_race", ratio_at_the_longest_length(6.7, 0.28, 13.2))  # a noisy rerun
    with LiveServer(tmp_path / "cache") as live:  # a fresh server, which reads the rerun from the cache folder
        expect_speed_detail(browser, live.url, re.compile(
            r"; the class guessed 0\.30× \(median\), not scored: the measurement was too noisy \(range 0\.28× to 13\.2×\)$"))
