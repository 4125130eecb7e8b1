"""The notice board on its own, on either kind of store (tests/conftest.py's `board_factory`): what
one process posts, another reads and can wait for; versions that only grow; one change at a time.
Then what only one kind has: the folder's files and its memory-only fallback; Redis going away and
coming back."""
import json
import logging
import os
import threading
import time

import pytest

from engine import notices
from engine.board import BoardUnavailable
from engine.file_board import FileBoard
from tests.clocks import step_the_clock_back


def test_a_notice_posted_by_one_board_is_read_by_another_on_the_same_store(board_factory):
    writer, reader = board_factory(), board_factory()
    assert reader.read("follow", {"on": False}) == (0, {"on": False})
    version = writer.write("follow", {"on": True, "n": 4})
    assert reader.read("follow") == (version, {"on": True, "n": 4})
    newer = writer.write("follow", {"on": True, "n": 5})
    assert newer > version and reader.read("follow")[1]["n"] == 5


NEVER = 3600  # s: a wait's own timeout that a test never reaches, so that only the post can end it


def woken(wait, post):
    """What `wait` returns, called in a thread while `post` is called a moment later in another: it must
    be woken by the post, since its own timeout is an hour away (the deadlines here only bound a hang).
    Returns once the post has returned too: the test's boards are closed after it."""
    answer = []
    waiter = threading.Thread(target=lambda: answer.append(wait()), daemon=True)
    waiter.start()
    posted = threading.Timer(0.2, post)
    posted.start()
    waiter.join(timeout=120)
    posted.join(timeout=120)
    assert answer, "the waiter was not woken by the post"
    return answer[0]


def test_a_waiter_wakes_when_another_process_posts(board_factory):
    writer, reader = board_factory(), board_factory()
    seen = reader.read("job-a")[0]
    version, value = woken(lambda: reader.wait("job-a", seen, timeout=NEVER),
                           lambda: writer.write("job-a", {"status": "done"}))
    assert value == {"status": "done"} and version > seen


def test_a_wait_without_news_returns_the_old_version_after_its_timeout(board_factory):
    board = board_factory()
    version = board.write("n", 1)
    assert board.wait("n", version, timeout=0.2) == (version, 1)


def made_old(board, name: str, seconds: float) -> None:
    """As if `name` was last posted `seconds` ago, by the store's own clock."""
    if isinstance(board, FileBoard):
        stamp = time.time() - seconds
        os.utime(board.path(name), (stamp, stamp))
    else:
        now_seconds, _ = board.client.time()
        board.client.hset(board.key(name), "at", now_seconds - seconds)


def test_old_notices_are_removed_and_fresh_ones_kept(board_factory):
    board = board_factory()
    board.write("job-old", 1)
    board.write("job-new", 2)
    board.write("poll-old", 3)
    made_old(board, "job-old", 7200)
    made_old(board, "poll-old", 7200)
    board.remove_older_than("job-", 3600)
    assert board.names("") == ["job-new", "poll-old"]


def test_the_board_lists_the_notices_of_one_kind_from_every_process(board_factory):
    one, other = board_factory(), board_factory()
    one.write(notices.audience("a1"), {"streams": 2})
    other.write(notices.audience("b2"), {"streams": 1})
    one.write(notices.poll("amnesia"), {"open": True})
    assert one.names(notices.AUDIENCE) == [notices.audience("a1"), notices.audience("b2")]


def test_a_wait_on_several_notices_wakes_when_another_process_posts_any_of_them(board_factory):
    writer, reader = board_factory(), board_factory()
    seen = {"follow": writer.write("follow", {"n": 1}), "pointer": 0}
    reader.read("follow")
    news = woken(lambda: reader.wait_any(seen, timeout=NEVER), lambda: writer.write("pointer", {"x": 0.5}))
    assert news["pointer"][1] == {"x": 0.5} and news["follow"] == (seen["follow"], {"n": 1})


def test_a_post_made_after_the_clock_stepped_back_is_still_the_newest(board_factory, monkeypatch):
    """A notice's version counts the posts on the store, by every process, and is no time: a post
    made after the clock went back an hour reaches a reader, and wakes a waiter, as any other."""
    first, second, reader, waiter = (board_factory() for _ in range(4))
    version = first.write("follow", {"n": 1})
    assert reader.read("follow")[0] == waiter.read("follow")[0] == version
    step_the_clock_back(monkeypatch)
    newer, value = woken(lambda: waiter.wait("follow", version, timeout=NEVER),
                         lambda: second.write("follow", {"n": 2}))
    assert newer > version and value == {"n": 2}
    assert reader.read("follow") == (newer, {"n": 2})


def test_every_post_has_a_greater_version_than_every_earlier_one_on_the_store(board_factory):
    one, other = board_factory(), board_factory()
    assert one.current_version() == 0, "nothing posted yet"
    versions = [board.write(name, 0) for board, name in [(one, "a"), (other, "b"), (one, "b"), (other, "a")]]
    assert versions == sorted(set(versions))
    assert one.current_version() == other.current_version() == versions[-1]


def test_changing_keeps_every_read_change_post_of_threads_on_two_boards(board_factory):
    """Two processes' threads each add one to a count at once: under `changing`, none is lost."""
    boards, threads_per_board, rounds = [board_factory(), board_factory()], 4, 15

    def add_ones(board):
        for _ in range(rounds):
            with board.changing("count"):
                board.write("count", board.read("count", 0)[1] + 1)

    threads = [threading.Thread(target=add_ones, args=(board,)) for board in boards for _ in range(threads_per_board)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert boards[1].read("count")[1] == len(boards) * threads_per_board * rounds



# ---- map notices: one field at a time

def test_a_field_written_by_one_board_is_read_and_waited_on_by_another(board_factory):
    writer, reader = board_factory(), board_factory()
    assert reader.read("answers", {}) == (0, {})
    first = writer.write_field("answers", "ada", 1)
    assert reader.read("answers", {}) == (first, {"ada": 1})
    version, value = woken(lambda: reader.wait("answers", first, timeout=NEVER),
                           lambda: writer.write_field("answers", "bob", [2, "x"]))
    assert version > first and value == {"ada": 1, "bob": [2, "x"]}
    changed = writer.write_field("answers", "ada", 3)  # a change of mind: the same field again
    assert reader.wait("answers", version, timeout=5) == (changed, {"ada": 3, "bob": [2, "x"]})


def test_fields_written_at_once_by_threads_on_two_boards_are_all_kept_each_once(board_factory):
    boards, threads_per_board = [board_factory(), board_factory()], 50

    def write(board, number):
        board.write_field("answers", f"voter-{number}", number)

    threads = [threading.Thread(target=write, args=(board, b * threads_per_board + i))
               for b, board in enumerate(boards) for i in range(threads_per_board)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    expected = {f"voter-{n}": n for n in range(len(boards) * threads_per_board)}
    assert board_factory().read("answers", {})[1] == expected  # a process that starts now
    last = max(board.current_version() for board in boards)
    for board in boards:  # and each writer
        assert board.read("answers") == (last, expected)


def test_a_guarded_field_is_written_while_its_guard_holds_and_never_after_the_guard_changes(board_factory):
    # A poll's answers: each lands while the poll is open, or not at all, however close to its Close.
    answering, lecturing = board_factory(), board_factory()
    assert answering.write_field("answers", "early", 1, only_while=("standing", "open")) is None  # never opened
    lecturing.write("standing", {"open": True})
    written, refused, lock = {}, [], threading.Lock()

    def answer(number):
        version = answering.write_field("answers", f"voter-{number}", number, only_while=("standing", "open"))
        with lock:
            (refused.append(number) if version is None else written.update({number: version}))

    before = [threading.Thread(target=answer, args=(n,)) for n in range(30)]
    after = [threading.Thread(target=answer, args=(n,)) for n in range(30, 40)]
    for thread in before:
        thread.start()
    with lecturing.changing("standing"):  # the Close, while answers are arriving, as PollStore changes a poll
        closed = lecturing.write("standing", {"open": False})
    for thread in after:
        thread.start()
    for thread in before + after:
        thread.join(timeout=120)
    assert set(range(30, 40)) <= set(refused), "sent after the Close: refused"
    assert all(version < closed for version in written.values()), "none written after the Close"
    assert set(written) | set(refused) == set(range(40))
    assert board_factory().read("answers", {})[1] == {f"voter-{n}": n for n in written}


def test_a_field_set_to_none_is_removed_and_clear_removes_every_field(board_factory):
    writer, reader = board_factory(), board_factory()
    writer.write_field("answers", "ada", 1)
    writer.write_field("answers", "bob", 2)
    assert reader.read("answers")[1] == {"ada": 1, "bob": 2}
    removed = writer.write_field("answers", "ada", None)
    assert reader.read("answers") == (removed, {"bob": 2})
    cleared = woken(lambda: reader.wait("answers", removed, timeout=NEVER), lambda: writer.clear("answers"))
    assert cleared[0] > removed and cleared[1] == {}
    again = writer.write_field("answers", "cy", 0)
    assert reader.read("answers") == (again, {"cy": 0})


def test_a_board_that_starts_watching_a_map_after_its_changes_sees_it_whole(board_factory):
    writer = board_factory()
    for number in range(20):
        writer.write_field("answers", f"voter-{number}", number)
    writer.write_field("answers", "voter-3", None)
    late = board_factory()
    expected = {f"voter-{n}": n for n in range(20) if n != 3}
    version, value = late.read("answers")  # as an event stream starts: its first event, then waits
    assert value == expected and version == writer.read("answers")[0]
    changed = woken(lambda: late.wait("answers", version, timeout=NEVER),
                    lambda: writer.write_field("answers", "voter-3", 33))
    assert changed[1] == {**expected, "voter-3": 33}


def test_a_map_waited_on_before_its_first_field_wakes_its_waiter(board_factory):
    writer, reader = board_factory(), board_factory()
    version, value = woken(lambda: reader.wait("answers", 0, timeout=NEVER, default={}),
                           lambda: writer.write_field("answers", "ada", 1))
    assert version > 0 and value == {"ada": 1}


# ---- the folder's own

def test_without_a_folder_the_board_lives_in_memory():
    board = FileBoard(None)
    assert board.current_version() == 0
    version = board.write("follow", {"n": 2})
    board.write(notices.audience("a1"), {"streams": 2})
    assert board.read("follow") == (version, {"n": 2})
    assert board.wait("follow", 0, timeout=0.1) == (version, {"n": 2})
    assert board.names(notices.AUDIENCE) == [notices.audience("a1")]
    with board.changing("follow"):
        board.write("follow", {"n": 3})


def test_two_posts_within_one_tick_of_the_file_clock_both_reach_another_process(tmp_path):
    """A pointer's last move and its hiding can be written in the same millisecond: the second is a
    new file with the same modification time, and the other process must not take it for the first."""
    writer, reader = FileBoard(tmp_path), FileBoard(tmp_path)
    first = writer.write("pointer", {"x": 0.5})
    assert reader.wait("pointer", 0, timeout=5)[0] == first
    stamp = writer.path("pointer").stat().st_mtime_ns
    writer.write("pointer", {"x": None})
    os.utime(writer.path("pointer"), ns=(stamp, stamp))  # as if in the same tick
    assert reader.wait("pointer", first, timeout=5)[1] == {"x": None}


def test_posts_stay_newer_than_notices_written_before_the_board_counted_its_versions(tmp_path):
    """Notices left by an older server held times (nanoseconds) as versions: a board without a count
    yet starts above the newest of them, or its posts would be taken for older."""
    folder = tmp_path / "board"
    folder.mkdir()
    (folder / "follow.json").write_text(json.dumps({"version": time.time_ns(), "value": {"n": 1}}))
    old = FileBoard(tmp_path).read("follow")[0]
    reader = FileBoard(tmp_path)
    reader.read("follow")
    newer = FileBoard(tmp_path).write("follow", {"n": 2})
    assert newer > old and reader.read("follow") == (newer, {"n": 2})


# ---- Redis's own

only_redis = pytest.mark.parametrize("board_factory", ["redis"], indirect=True)


@only_redis
def test_a_waiter_wakes_for_a_post_made_after_redis_restarted(board_factory, redis_server):
    """Redis restarted, without persistence, while a process waited: its subscriber reconnects by
    itself, and the post made after the restart still has the greater version and wakes the waiter;
    later posts reach it through the channel again."""
    writer, reader = board_factory(), board_factory()
    before = writer.write("follow", {"n": 1})
    assert reader.wait("follow", 0, timeout=NEVER)[0] == before  # subscribed, and watching
    answer = []
    waiter = threading.Thread(target=lambda: answer.append(reader.wait("follow", before, timeout=NEVER)), daemon=True)
    waiter.start()
    redis_server.stop()
    redis_server.start()
    after = writer.write("follow", {"n": 2})
    waiter.join(timeout=60)  # only bounds a hang
    assert after > before and answer == [(after, {"n": 2})]
    later = woken(lambda: reader.wait("follow", after, timeout=NEVER), lambda: writer.write("follow", {"n": 3}))
    assert later[1] == {"n": 3}


@only_redis
def test_a_board_whose_redis_is_down_says_so_and_works_again_once_it_is_back(board_factory, redis_server, caplog):
    board = board_factory()
    version = board.write("follow", {"n": 1})
    redis_server.stop()
    with caplog.at_level(logging.ERROR, logger="engine.redis_board"):
        with pytest.raises(BoardUnavailable):
            board.write("follow", {"n": 2})
        with pytest.raises(BoardUnavailable):
            board.read("follow")
        with pytest.raises(BoardUnavailable), board.changing("follow"):
            pass
    assert f"the board's Redis at 127.0.0.1:{redis_server.port} cannot be reached" in caplog.text
    redis_server.start()
    assert board.write("follow", {"n": 3}) > version
    assert board.read("follow")[1] == {"n": 3}


@only_redis
def test_a_change_lock_left_by_a_process_that_died_expires(board_factory):
    board = board_factory()
    board.client.set(f"{board.prefix}lock:count", "a process that died", px=200)
    with board.changing("count"):  # waits out the dead holder's lease (the test's deadline only bounds a hang)
        board.write("count", 1)
    assert board.read("count")[1] == 1


@only_redis
def test_rooms_with_their_own_prefix_share_a_redis_without_seeing_each_other(board_factory, redis_server):
    from engine.redis_board import RedisBoard

    ours, theirs = board_factory(), RedisBoard(redis_server.url, prefix="another-room:")
    try:
        ours.write("follow", {"n": 1})
        assert theirs.read("follow") == (0, None) and theirs.names("") == []
    finally:
        theirs.close()


@only_redis
def test_a_map_change_publishes_that_change_not_the_map(board_factory):
    """With a thousand fields in, one more is a message of a few dozen bytes, which every process
    applies to its copy; it never reads the map again."""
    writer, reader = board_factory(), board_factory()
    for number in range(1000):
        writer.write_field("answers", f"voter-{number:04d}", number % 4)
    reader.wait("answers", 0, timeout=0)  # follows it now: loaded whole, once
    pubsub = writer.subscriber_client.pubsub()
    pubsub.subscribe(writer.channel)
    assert pubsub.get_message(timeout=5)["type"] == "subscribe"
    version = writer.write_field("answers", "voter-0001", 3)
    message = pubsub.get_message(timeout=5)
    pubsub.close()
    assert json.loads(message["data"]) == ["answers", version, "voter-0001", 3] and len(message["data"]) < 60
    loads = []
    reader._load_maps = lambda names: loads.append(names)  # noqa: a later load would be a whole read
    assert reader.wait("answers", version - 1, timeout=5)[1]["voter-0001"] == 3
    assert reader.read("answers")[0] == version and loads == []


@only_redis
def test_a_map_changed_while_redis_was_away_is_loaded_whole_once_it_is_back(board_factory, redis_server):
    writer, reader = board_factory(), board_factory()
    before = writer.write_field("answers", "ada", 1)
    assert reader.wait("answers", 0, timeout=NEVER)[0] == before
    redis_server.stop()
    with pytest.raises(BoardUnavailable):
        writer.write_field("answers", "bob", 2)
    deadline = time.monotonic() + 60  # only bounds a hang
    while reader.listening.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)  # until the reader's subscriber has noticed
    redis_server.start()  # forgets everything: no persistence
    assert reader.listening.wait(60)  # subscribed again, and loaded the map anew: empty now
    after = writer.write_field("answers", "cy", 3)
    version, value = reader.wait("answers", before, timeout=NEVER)
    assert version == after and value == {"cy": 3}
