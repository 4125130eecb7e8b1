"""The lecturer's "Warm all demos" buttons, clicked: the one in the instructor panel (I) and the one
under slide 1's list of the deck's demos. Each queues what is not cached, says so, and the deck ends
warmed: every demo cached, and a slide that had to wait for Run shows its result at once.

To stay quick, each server starts with every slide's default result cached except Signal decay's (a
few seconds of training) and the test demo line_fit's: slide 1 holds its real run on tiny settings,
the others a stand-in result that these tests never show."""
import time

import pytest
from playwright.sync_api import expect

from engine import Engine
from slides import demo_ids, load_deck
from tests.browser.watch import watched_page
from tests.browser.widget import TRAINED
from tests.demos.tiny import tiny_result
from tests.live_server import LiveServer

COLD = ("signal_decay",)  # on slide 2; line_fit, on no slide, is cold too
STAND_IN = {"summary": "A stand-in result: this test never shows its slide."}
DECK_DEMOS = len(demo_ids(load_deck()))


def fill_all_but_cold(cache) -> None:
    engine = Engine(cache)
    for demo_id in demo_ids(load_deck()):
        if demo_id in COLD:
            continue
        _, defaults, key = engine.resolve(demo_id, None)
        result = tiny_result(demo_id)[0] if demo_id == "system_check" else STAND_IN
        engine.cache.put(demo_id, key, defaults, result)


@pytest.fixture
def deck(browser, tmp_path):
    """Slide 1 of a server of this test's own (the lecturer's browser: localhost, no token set)."""
    fill_all_but_cold(tmp_path / "cache")
    server = LiveServer(tmp_path / "cache").start()
    context, page, watch = watched_page(browser, server.url, 1280, 720)
    page.goto(server.url + "/slides/1")
    page.wait_for_function("() => window.greatShift !== undefined")
    yield server, page
    context.close()
    server.stop()
    assert not watch.errors, watch.errors
    assert not watch.outside_requests, f"requests left localhost: {watch.outside_requests}"


def wait_until_every_demo_is_cached(page, server) -> None:
    """Every demo the server knows, line_fit (on no slide) too; the deadline only ends a hang."""
    deadline = time.monotonic() + TRAINED / 1000
    while not all(demo["cached"] for demo in page.request.get(server.url + "/api/demos").json()["demos"]):
        assert time.monotonic() < deadline, "the warming never ended"
        time.sleep(0.2)


def slide_2_shows_its_result_without_training(page) -> None:
    page.keyboard.press("ArrowRight")
    widget = page.locator("#slide-signal_decay .demo")
    expect(widget.locator(".demo-badge")).to_contain_text("cached · computed on cpu")  # no Run pressed


def test_the_slides_warm_button_warms_the_deck_and_its_list_follows(deck):
    server, page = deck
    status = page.locator("#slide-system_check .cache-status")
    ready = status.locator(".cache-chip[data-state='cached']")
    expect(ready).to_have_count(DECK_DEMOS - 1)
    expect(status.locator(".cache-chip").nth(1)).to_have_attribute("data-state", "cold")  # slide 2
    status.locator(".cache-warm").click()
    expect(status.locator(".cache-message")).to_have_text("Queued 2 demo(s) to train, one at a time.")
    # The list looks again while anything trains, until slide 2's chip says ready too.
    expect(status.locator(".cache-chip").nth(1)).to_have_attribute("data-state", "cached", timeout=TRAINED)
    expect(ready).to_have_count(DECK_DEMOS)
    expect(status.locator(".cache-status-heading")).to_have_text(f"Demos in this deck: {DECK_DEMOS} of {DECK_DEMOS} cached")  # the recap trains nothing: not listed
    expect(status.locator(".cache-warm")).to_be_enabled()
    wait_until_every_demo_is_cached(page, server)
    status.locator(".cache-warm").click()
    expect(status.locator(".cache-message")).to_have_text("Every demo is cached already.")
    slide_2_shows_its_result_without_training(page)


def test_the_instructor_panels_warm_button_warms_the_deck(deck):
    server, page = deck
    page.keyboard.press("I")
    panel = page.locator(".instructor")
    expect(panel).to_be_visible()
    expect(panel.locator(".instructor-status")).to_have_text("This browser is recognised as the instructor.")
    panel.locator(".instructor-warm").click()
    expect(panel.locator(".instructor-message")).to_have_text("Queued 2 demo(s) to train, one at a time.")
    wait_until_every_demo_is_cached(page, server)
    panel.locator(".instructor-warm").click()
    expect(panel.locator(".instructor-message")).to_have_text("Every demo is cached already.")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    slide_2_shows_its_result_without_training(page)
