"""The lecturer's pointer as the class sees it: the lecturer at a 1024×768 projector holds L and
points, and a following phone (390×844) shows the red dot at the same place of the slide; it moves
with the mouse, the presenter view's toggle points too, and releasing the key hides it everywhere."""
import time

import pytest

from tests.browser.classroom import TOKEN, lead_the_class
from tests.browser.pointer import (expect_no_pointer, expect_pointer_at, phones_see_the_pointer, point_from_presenter,
                                   point_holding_l, release_l)
from tests.deck import slide_path
from tests.live_server import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server with an instructor token, so that the phone (on this machine too) is a student."""
    live = LiveServer(tmp_path_factory.mktemp("pointer") / "cache", env={"FLASK_INSTRUCTOR_TOKEN": TOKEN}).start()
    yield live
    live.stop()


def test_a_following_phone_sees_the_lecturers_pointer_where_the_lecturer_points(open_page, screenshot_path):
    lecturer = open_page(slide_path("signal_decay"), 1024, 768)
    lead_the_class(lecturer)
    phone = open_page(slide_path("system_check"), 390, 844)
    phone.wait_for_function("() => window.greatShift.deck.n === 2")  # following the lecturer

    phones_see_the_pointer(lecturer, [phone], 0.3, 0.2)
    dot = phone.locator(".pointer-dot").bounding_box()
    assert dot["x"] >= 0 and dot["x"] + dot["width"] <= 390 and dot["y"] + dot["height"] <= 844, "on the phone's screen"
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390, "the phone's page is not widened"
    phone.screenshot(path=screenshot_path("pointer-phone-390x844.png"))
    lecturer.screenshot(path=screenshot_path("pointer-lecturer-1024x768.png"))
    posts = []
    lecturer.on("request", lambda request: posts.append(request) if request.url.endswith("/api/follow/pointer") else None)
    started = time.monotonic()
    point_holding_l(lecturer, 0.62, 0.35, steps=20)  # the dot follows the mouse
    lecturer.wait_for_function("() => window.greatShift.pointer.sent?.x === 0.62")  # the last place is always sent
    moving_ms = (time.monotonic() - started) * 1000
    assert 1 <= len(posts) <= moving_ms / 50 + 2, f"{len(posts)} posts in {moving_ms:.0f} ms: at most one per 50 ms"
    assert posts[-1].post_data_json == {"x": 0.62, "y": 0.35}
    expect_pointer_at(phone, 0.62, 0.35)
    release_l(lecturer)
    expect_no_pointer(lecturer)
    expect_no_pointer(phone)

    with lecturer.expect_popup() as popup:
        lecturer.keyboard.press("s")
    presenter = popup.value
    point_from_presenter(presenter, 0.5, 0.4)
    expect_pointer_at(lecturer, 0.5, 0.4)
    expect_pointer_at(phone, 0.5, 0.4)
    presenter.screenshot(path=screenshot_path("pointer-presenter-1024x768.png"))
    presenter.locator(".presenter-pointer").click()  # off
    expect_no_pointer(phone)
