"""Past one machine, on loopback (tests/redis_room.py, started once for the module): two web servers,
A and B, and one training worker share one Redis. A lecturer on A moves the class and phones on A and
B follow within a second; a poll answered through both counts every answer once; a job started from B
is trained by the worker, followed on B and cancelled from A within a second; a worker or a web server
killed mid-run leaves no job stuck; a Redis restarted mid-lecture, without its data, is rejoined by
every process by itself, and meanwhile the shared state answers 503 in JSON.

Each test leaves the room whole (what it killed, it starts again): the tests run in any order."""
import itertools
import time

import pytest

from tests.redis_room import LEASE, EventStream, Room, get, phone, request

TOKEN = "two-servers-token"
POLL = "/api/polls/recall_vs_length"
RUN = "/api/demos/line_fit/run"
seeds = itertools.count(1)  # a new seed: a new job, never a cached result of an earlier test


def long_run() -> dict:
    return {"steps": 3000, "seed": next(seeds)}  # 30 s on the paced worker: ended by each test


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    room = Room(tmp_path_factory.mktemp("two_servers"), TOKEN).start()
    yield room
    room.stop()


def lecturer(server, path: str, body: dict) -> dict:
    status, answer = request(server, path, body, token=TOKEN)
    assert status in (200, 202), answer
    return answer


def follow(server) -> EventStream:
    stream = EventStream(server, "/api/follow/events")
    stream.next("follow")  # the state as it stands
    return stream


def test_phones_on_both_servers_follow_the_lecturer_on_a_within_a_second(room):
    a, b = room.servers
    phones = [follow(a), follow(b)]
    for n in (3, 4):
        moved = time.monotonic()
        lecturer(a, "/api/follow", {"on": True, "n": n})
        for stream in phones:
            _, arrived = stream.next("follow", where=lambda state: state["n"] == n)
            assert arrived - moved < 1.0, f"slide {n} reached a phone after {arrived - moved:.2f} s"
    for stream in phones:
        stream.close()


def test_a_poll_answered_through_both_servers_counts_every_answer_once(room):
    a, b = room.servers
    for action in ("reset", "open"):
        lecturer(a, POLL, {"action": action})
    phones = [phone() for _ in range(4)]
    for browser, server, choice in zip(phones, (a, a, b, b), (0, 1, 1, 2)):
        assert request(server, POLL + "/answer", {"choice": choice}, opener=browser)[0] == 200
    # A phone whose connection moved to the other server changes its mind there: still one answer.
    assert request(b, POLL + "/answer", {"choice": 2}, opener=phones[0])[0] == 200
    lecturer(b, POLL, {"action": "close"})
    for server in (a, b):
        assert get(server, POLL)[1]["counts"] == [0, 2, 2], "closed: the counts are everyone's, on both servers"


def test_a_job_started_from_b_is_trained_by_the_worker_and_cancelled_from_a_within_a_second(room):
    a, b = room.servers
    params = {"steps": 20, "seed": next(seeds)}
    done, _ = EventStream(b, lecturer(b, RUN, params)["events"]).next("done")
    assert done["cached"] is False and "slope" in done["result"], "trained by the worker, followed on B"
    assert lecturer(a, RUN, params)["result"] == done["result"], "and served from the shared cache folder by A"

    job = lecturer(b, RUN, long_run())
    stream = EventStream(b, job["events"])
    stream.next("progress", where=lambda state: state["status"] == "running" and state["message"] == "training")
    asked = time.monotonic()
    lecturer(a, job["cancel"], {})
    state, arrived = stream.next("cancelled")
    assert state["stopped_by"] == "cancel"
    assert arrived - asked < 1.0, f"the cancel took {arrived - asked:.2f} s"
    assert get(a, "/healthz")[1]["training_queue"]["waiting"] == 0
    # The worker lives on after a cancel: it trains the next job. (Its heartbeat can lapse for a moment
    # under a loaded machine's 2 s lease, so `worker_alive` read at one instant is not the test.)
    again = lecturer(a, RUN, {"steps": 20, "seed": next(seeds)})
    assert EventStream(b, again["events"]).next("done")[0]["cached"] is False, "trained by the same worker"


def test_a_worker_killed_mid_run_fails_its_job_and_a_new_worker_carries_on(room):
    a, b = room.servers
    params = long_run()
    job = lecturer(a, RUN, params)
    stream = EventStream(b, job["events"])
    stream.next("progress", where=lambda state: state["message"] == "training")
    room.worker.kill()
    killed = time.monotonic()
    state, arrived = stream.next("failed", timeout=30)
    assert "stopped before it finished" in state["error"]
    assert arrived - killed < LEASE + 2.5, f"noticed after {arrived - killed:.2f} s"
    room.start_worker()
    again = lecturer(a, RUN, {**params, "steps": 20})
    assert again["job"] != job["job"]
    assert EventStream(b, again["events"]).next("done")[0]["cached"] is False


def test_a_web_server_killed_mid_stream_leaves_the_other_and_the_job_going(room):
    a, b = room.servers
    job = lecturer(b, RUN, {"steps": 300, "seed": next(seeds)})  # 3 s
    on_a, on_b = EventStream(a, job["events"]), EventStream(b, job["events"])
    for stream in (on_a, on_b):
        stream.next("progress", where=lambda state: state["status"] == "running")
    a.process.kill()
    a.process.wait(timeout=10)
    assert on_b.next("done")[0]["cached"] is False, "the job ran to its end, followed on B"
    assert lecturer(b, "/api/follow", {"on": True, "n": 2})["n"] == 2
    a.start()  # on its port again, for the other tests


def test_a_redis_restarted_mid_lecture_is_rejoined_by_every_process_by_itself(room):
    a, b = room.servers
    phones = [follow(a), follow(b)]
    room.redis.stop()
    for server, path, body in ((a, "/api/follow", None), (b, POLL + "/answer", {"choice": 0})):
        status, answer = request(server, path, body)
        assert status == 503 and answer["status"] == 503 and "try again" in answer["error"]
    assert get(a, "/healthz")[1]["shared_state"] == "unreachable"

    room.redis.start()  # on the same port, without the data it had (no persistence)
    restarted = time.monotonic()
    while (status := request(a, "/api/follow", {"on": True, "n": 5}, token=TOKEN)[0]) != 200:
        assert status == 503 and time.monotonic() - restarted < 10, status
        time.sleep(0.05)
    for stream in phones:  # the streams stayed open through it, and hear the lecturer again
        _, arrived = stream.next("follow", where=lambda state: state["n"] == 5, timeout=10)
        assert arrived - restarted < 3.0, f"a phone heard the lecturer {arrived - restarted:.2f} s after the restart"
        stream.close()
    job = lecturer(b, RUN, {"steps": 20, "seed": next(seeds)})  # the worker took up its queues again
    assert EventStream(b, job["events"]).next("done", timeout=30)[0]["cached"] is False
