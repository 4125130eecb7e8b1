"""The notice board on its own: what one process posts, another reads and can wait for; without
a folder it still works within one process."""
import json
import os
import threading
import time

import pytest

from engine import notices
from engine.board import Board
from tests.clocks import step_the_clock_back


def test_a_notice_posted_by_one_board_is_read_by_another_on_the_same_folder(tmp_path):
    writer, reader = Board(tmp_path), Board(tmp_path)
    assert reader.read("follow", {"on": False}) == (0, {"on": False})
    version = writer.write("follow", {"on": True, "n": 4})
    assert reader.read("follow") == (version, {"on": True, "n": 4})
    newer = writer.write("follow", {"on": True, "n": 5})
    assert newer > version and reader.read("follow")[1]["n"] == 5


NEVER = 3600  # s: a wait's own timeout that a test never reaches, so that only the post can end it


def woken(wait):
    """What `wait` returns, called in a thread: it must be woken by a post, since its own timeout is
    an hour away (the deadline here only bounds a hang)."""
    answer = []
    waiter = threading.Thread(target=lambda: answer.append(wait()), daemon=True)
    waiter.start()
    waiter.join(timeout=120)
    assert answer, "the waiter was not woken by the post"
    return answer[0]


def test_a_waiter_wakes_when_another_process_posts(tmp_path):
    writer, reader = Board(tmp_path), Board(tmp_path)
    seen = reader.read("job-a")[0]
    posted = threading.Timer(0.2, lambda: writer.write("job-a", {"status": "done"}))
    posted.start()
    version, value = woken(lambda: reader.wait("job-a", seen, timeout=NEVER))
    assert value == {"status": "done"} and version > seen


def test_a_wait_without_news_returns_the_old_version_after_its_timeout(tmp_path):
    board = Board(tmp_path)
    version = board.write("n", 1)
    assert board.wait("n", version, timeout=0.2) == (version, 1)


def test_old_notices_are_removed_and_fresh_ones_kept(tmp_path):
    board = Board(tmp_path)
    board.write("job-old", 1)
    board.write("job-new", 2)
    old = tmp_path / "board" / "job-old.json"
    stamp = time.time() - 7200

    os.utime(old, (stamp, stamp))
    board.remove_older_than("job-", 3600)
    assert not old.exists() and (tmp_path / "board" / "job-new.json").exists()


def test_without_a_folder_the_board_lives_in_memory():
    board = Board(None)
    version = board.write("follow", {"n": 2})
    assert board.read("follow") == (version, {"n": 2})
    assert board.wait("follow", 0, timeout=0.1) == (version, {"n": 2})


@pytest.mark.parametrize("on_disk", [True, False], ids=["folder", "memory"])
def test_the_board_lists_the_notices_of_one_kind_from_every_process(tmp_path, on_disk):
    folder = tmp_path if on_disk else None
    one, other = Board(folder), Board(folder)
    one.write(notices.audience("a1"), {"streams": 2})
    (other if on_disk else one).write(notices.audience("b2"), {"streams": 1})
    one.write(notices.poll("amnesia"), {"open": True})
    assert one.names(notices.AUDIENCE) == [notices.audience("a1"), notices.audience("b2")]


def test_a_wait_on_several_notices_wakes_when_another_process_posts_any_of_them(tmp_path):
    writer, reader = Board(tmp_path), Board(tmp_path)
    seen = {"follow": writer.write("follow", {"n": 1}), "pointer": 0}
    reader.read("follow")
    posted = threading.Timer(0.2, lambda: writer.write("pointer", {"x": 0.5}))
    posted.start()
    news = woken(lambda: reader.wait_any(seen, timeout=NEVER))
    assert news["pointer"][1] == {"x": 0.5} and news["follow"] == (seen["follow"], {"n": 1})


def test_two_posts_within_one_tick_of_the_file_clock_both_reach_another_process(tmp_path):
    """A pointer's last move and its hiding can be written in the same millisecond: the second is a
    new file with the same modification time, and the other process must not take it for the first."""
    writer, reader = Board(tmp_path), Board(tmp_path)
    first = writer.write("pointer", {"x": 0.5})
    assert reader.wait("pointer", 0, timeout=5)[0] == first
    stamp = writer.path("pointer").stat().st_mtime_ns
    writer.write("pointer", {"x": None})
    os.utime(writer.path("pointer"), ns=(stamp, stamp))  # as if in the same tick
    assert reader.wait("pointer", first, timeout=5)[1] == {"x": None}


def test_a_post_made_after_the_clock_stepped_back_is_still_the_newest(tmp_path, monkeypatch):
    """A notice's version counts the posts on the folder, by every process, and is no time: a post
    made after the clock went back an hour reaches a reader, and wakes a waiter, as any other."""
    first, second, reader, waiter = (Board(tmp_path) for _ in range(4))
    version = first.write("follow", {"n": 1})
    assert reader.read("follow")[0] == waiter.read("follow")[0] == version
    step_the_clock_back(monkeypatch)
    posted = threading.Timer(0.2, lambda: second.write("follow", {"n": 2}))
    posted.start()
    newer, value = woken(lambda: waiter.wait("follow", version, timeout=NEVER))
    assert newer > version and value == {"n": 2}
    assert reader.read("follow") == (newer, {"n": 2})


def test_every_post_has_a_greater_version_than_every_earlier_one_on_the_folder(tmp_path):
    one, other = Board(tmp_path), Board(tmp_path)
    versions = [board.write(name, 0) for board, name in [(one, "a"), (other, "b"), (one, "b"), (other, "a")]]
    assert versions == sorted(set(versions))
    assert one.current_version() == other.current_version() == versions[-1]
    assert Board(None).current_version() == 0 and Board(tmp_path / "new").current_version() == 0


def test_posts_stay_newer_than_notices_written_before_the_board_counted_its_versions(tmp_path):
    """Notices left by an older server held times (nanoseconds) as versions: a board without a count
    yet starts above the newest of them, or its posts would be taken for older."""
    folder = tmp_path / "board"
    folder.mkdir()
    (folder / "follow.json").write_text(json.dumps({"version": time.time_ns(), "value": {"n": 1}}))
    old = Board(tmp_path).read("follow")[0]
    reader = Board(tmp_path)
    reader.read("follow")
    newer = Board(tmp_path).write("follow", {"n": 2})
    assert newer > old and reader.read("follow") == (newer, {"n": 2})
