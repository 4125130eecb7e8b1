"""Heartbeats on the board (either kind: tests/conftest.py's `board_factory`): a process beats while
something holds its heartbeat, and another takes it for gone once its heartbeat has not changed for a
lease, timed by the reader's own clock."""
import time
from types import SimpleNamespace

from engine import liveness, notices
from engine.liveness import Heartbeat, Liveness


def test_a_process_is_gone_once_its_heartbeat_has_not_changed_for_a_lease_of_the_readers_time(board_factory, monkeypatch):
    clock = SimpleNamespace(now=1000.0)  # the reader's monotonic clock; the writer's clocks play no part
    monkeypatch.setattr(liveness, "time", SimpleNamespace(monotonic=lambda: clock.now))
    writer, reader = board_factory(), Liveness(board_factory(), lease_seconds=5)
    writer.write(notices.alive("beating"), {})
    assert reader.alive("beating")  # first seen now
    clock.now += 5
    assert reader.alive("beating")
    clock.now += 0.01
    assert not reader.alive("beating")
    writer.write(notices.alive("beating"), {})  # it beats again (a long pause, not a death)
    assert reader.alive("beating")
    assert reader.alive("never-beat")  # a process claimed on a notice is given a lease from the first look
    clock.now += 5.01
    assert not reader.alive("never-beat")


def test_a_heartbeat_beats_at_once_and_on_while_held_and_stops_when_released(board_factory):
    board = board_factory()
    heartbeat = Heartbeat(board, lease_seconds=0.5)  # a beat every 0.1 s
    name = notices.alive(heartbeat.process_id)
    assert board.read(name)[0] == 0, "nothing holds it: no beat"
    with heartbeat.held():
        first = board.read(name)[0]
        assert first > 0
        assert board.wait(name, first, timeout=60)[0] > first  # the timeout only ends a hang
    deadline = time.monotonic() + 60  # only ends a hang
    while heartbeat.beating:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    last = board.read(name)[0]
    assert board.wait(name, last, timeout=0.5)[0] == last, "released: no beat for five of its intervals"


def test_the_audience_counts_only_the_streams_of_processes_that_still_beat(board_factory, monkeypatch):
    """A server killed with students' streams open leaves its count on the board: it stops counting once
    its heartbeat stops changing, by the reader's clock (never by comparing the two processes' clocks)."""
    from web.follow import Audience, count_students
    clock = SimpleNamespace(now=1000.0)
    monkeypatch.setattr(liveness, "time", SimpleNamespace(monotonic=lambda: clock.now, sleep=time.sleep))
    board = board_factory()
    reader = Liveness(board, lease_seconds=5)
    killed = Audience(board, Heartbeat(board, lease_seconds=5))
    killed.change(+2)  # two students' streams, then the process is killed: nothing more is posted
    killed.heartbeat.holders.clear()  # its beat stops with it
    board.write(notices.audience("another"), {"streams": 1, "process": "another"})
    board.write(notices.alive("another"), {})
    assert count_students(board, reader) == 3
    clock.now += 3
    board.write(notices.alive("another"), {})  # the other process beats on
    clock.now += 3
    assert count_students(board, reader) == 1
