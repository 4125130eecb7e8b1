"""One class on two web servers sharing one Redis (tests/redis_room.py), in real browsers: the
lecturer's page on server A, and two phones at 390×844 that joined through /j, one on A and one on B.
The lecturer moves the slides and both phones follow; the lecturer opens the fair fight's poll, each
phone answers through its own server, and after Close both phones show the counts of both answers,
each counted once. (The timings, the worker and the failures: tests/test_two_servers.py.)"""
import pytest
from playwright.sync_api import expect

from tests.browser.classroom import TOKEN, lead_the_class
from tests.browser.watch import watched_page
from tests.deck import counter, slide_number, slide_path
from tests.redis_room import Room

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    room = Room(tmp_path_factory.mktemp("two_servers_browser"), TOKEN).start(worker=False)  # nothing trains here
    yield room
    room.stop()


@pytest.fixture(scope="module")
def server(room):
    """Server A: where `open_page` opens pages."""
    return room.servers[0]


@pytest.fixture
def phone_on_b(browser, room):
    """Opens a phone's page on server B; checks it as `open_page` checks those on A."""
    opened = []

    def open_phone(path: str):
        b = room.servers[1]
        context, page, watch = watched_page(browser, b.url, **PHONE)
        page.goto(b.url + path)
        page.wait_for_function("() => window.greatShift !== undefined")
        opened.append((context, watch))
        return page

    yield open_phone
    for context, watch in opened:
        context.close()
        assert not watch.errors, watch.errors
        assert not watch.outside_requests, f"requests left localhost: {watch.outside_requests}"


def choice(page, index: int):
    return page.locator(f"#slide-recall_vs_length .poll-choice[data-choice='{index}']")


def test_phones_on_two_servers_follow_the_lecturer_and_answer_one_poll(open_page, phone_on_b):
    lecturer = open_page(slide_path("system_check"))
    lead_the_class(lecturer)
    phones = [open_page("/j", **PHONE), phone_on_b("/j")]
    for phone in phones:
        expect(phone.locator(".counter")).to_have_text(counter("system_check"))  # /j led to the lecturer's slide
    for offset in range(1, slide_number("recall_vs_length") - slide_number("system_check") + 1):
        lecturer.keyboard.press("ArrowRight")
        for phone in phones:
            expect(phone.locator(".counter")).to_have_text(counter("system_check", offset))

    poll = lecturer.locator("#slide-recall_vs_length .poll")
    poll.locator(".poll-open").click()
    for phone, pick in zip(phones, (0, 2)):
        expect(choice(phone, pick)).to_be_enabled()
        choice(phone, pick).click()
        expect(choice(phone, pick)).to_have_attribute("aria-pressed", "true")
    for page in [lecturer, *phones]:
        expect(page.locator("#slide-recall_vs_length .poll-status")).to_contain_text("2 answers so far.")

    poll.locator(".poll-close").click()
    for phone in phones:  # Close shows every phone the counts, from both servers
        expect(phone.locator("#slide-recall_vs_length .poll-status")).to_contain_text("Closed with 2 answers.")
        expect(phone.locator("#slide-recall_vs_length .poll-count")).to_have_text(["1 · 50%", "0 · 0%", "1 · 50%"])
