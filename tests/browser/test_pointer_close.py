"""The lecturer's window closing while a move waits its turn: the hide it sends as it closes is the
last word, and no move sent after it brings the dot back on the class's screens."""
import pytest

from tests.browser.classroom import TOKEN, lead_the_class
from tests.browser.pointer import expect_no_pointer, phones_see_the_pointer
from tests.deck import slide_path
from tests.live_server import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of its own: follow mode, switched on here, would pull the other files' pages along."""
    with LiveServer(tmp_path_factory.mktemp("pointer-close") / "cache", env={"FLASK_INSTRUCTOR_TOKEN": TOKEN}) as live:
        yield live

# Two moves in quick succession: the first is sent at once, the second waits for its turn; then the
# window hides, as it does when it closes. Answers whether a post was still on its way.
MOVE_TWICE_THEN_CLOSE = """() => {
    const pointer = window.greatShift.pointer;
    pointer.send({ x: 0.7, y: 0.7 });
    pointer.send({ x: 0.72, y: 0.72 });
    const pending = (pointer.sending || pointer.timer !== null) && pointer.waiting !== undefined;
    window.dispatchEvent(new PageTransitionEvent("pagehide"));
    return pending;
}"""
SETTLED = "() => !window.greatShift.pointer.sending && window.greatShift.pointer.timer === null"


def test_a_move_waiting_its_turn_as_the_window_closes_never_shows_the_dot_again(open_page):
    lecturer = open_page(slide_path("signal_decay"), width=1024, height=768)
    phone = open_page(slide_path("signal_decay"), width=390, height=844)
    lead_the_class(lecturer)
    phones_see_the_pointer(lecturer, [phone], 0.3, 0.2)
    assert lecturer.evaluate(MOVE_TWICE_THEN_CLOSE), "a move waited its turn (behind a post on its way, or for its moment)"
    lecturer.wait_for_function(SETTLED)  # every post the window will ever send has been answered
    # A phone that joins now gets the pointer as the server has it: hidden.
    late = open_page(slide_path("signal_decay"), width=390, height=844)
    late.wait_for_function("() => window.greatShift.follow.pointer !== undefined")
    assert late.evaluate("() => window.greatShift.follow.pointer.x") is None
    expect_no_pointer(phone)
