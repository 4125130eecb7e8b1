"""A number poll in real browsers: on slide 3 two phones guess the tuned LSTM's accuracy; the
lecturer's page draws their answers live while the phones see only the count; after Close and Run
everyone sees the measured mean over the answers, with the range and the words."""
import pytest

from engine import Engine
from tests.browser import number_poll as steps
from tests.browser.cached_results import PARAMS
from tests.browser.classroom import TOKEN, lead_the_class
from tests.deck import slide_path
from tests.live_server import LiveServer

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server with an instructor token (phones on this machine are not the lecturer) whose cache
    holds a tiny Amnesia result under the default settings: Run shows it at once."""
    cache = tmp_path_factory.mktemp("number-poll") / "cache"
    engine = Engine(cache)
    entry, _ = engine.compute(*engine.resolve("amnesia", PARAMS["amnesia"]))
    _, params, key = engine.resolve("amnesia", None)
    engine.cache.put("amnesia", key, params, entry.result)
    live = LiveServer(cache, env={"FLASK_INSTRUCTOR_TOKEN": TOKEN}).start()
    yield live
    live.stop()


def test_the_class_guesses_a_number_and_the_run_settles_it(open_page, screenshot_path):
    lecturer = open_page(slide_path("amnesia"), width=1024, height=768)
    lead_the_class(lecturer)
    phones = [open_page("/join", **PHONE) for _ in range(2)]
    steps.open_poll(lecturer, "amnesia")
    steps.answer(phones[0], "amnesia", 30, total=1)
    steps.answer(phones[1], "amnesia", 4, total=2)
    steps.expect_distribution(lecturer, "amnesia", 2)  # the projector, live
    for phone in phones:
        steps.expect_no_distribution(phone, "amnesia")
    phones[0].screenshot(path=screenshot_path("number-poll-phone-open.png"))
    lecturer.screenshot(path=screenshot_path("number-poll-lecturer-open.png"))
    with lecturer.expect_popup() as popup:  # the presenter view draws them live too
        lecturer.keyboard.press("s")
    presenter = popup.value
    steps.expect_distribution(presenter, "amnesia", 2)
    presenter.screenshot(path=screenshot_path("number-poll-presenter-open.png"))
    presenter.close()

    steps.close_poll(lecturer, "amnesia")
    for phone in phones:
        steps.expect_distribution(phone, "amnesia", 2)
    steps.run(lecturer, "amnesia")
    for page in (lecturer, *phones):
        words = steps.expect_measured(page, "amnesia")
    assert "of 2 guesses were within the range" in words
    lecturer.screenshot(path=screenshot_path("number-poll-lecturer-settled.png"))
    phones[1].screenshot(path=screenshot_path("number-poll-phone-settled.png"))
