"""Two server processes (two apps, each with a cache folder of its own) on one Redis (`REDIS_URL`):
the lecturer's follow state posted through one is what the other serves, a poll answered through both
counts both answers, and a request while Redis is down is a 503 in JSON, not a traceback, even in a
server started while it was down."""
import pytest

from app import create_app
from engine.redis_board import RedisBoard

STUDENT = {"REMOTE_ADDR": "10.0.0.7"}
POLL = "/api/polls/recall_vs_length"


@pytest.fixture
def apps(redis_server, tmp_path):
    made = [create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / name), "REDIS_URL": redis_server.url})
            for name in ("a", "b")]
    yield made
    for app in made:
        app.extensions["engine"].board.close()


def test_two_servers_on_one_redis_share_follow_mode_and_count_every_answer(apps):
    first, second = apps
    assert all(isinstance(app.extensions["engine"].board, RedisBoard) for app in apps)
    lecturer = first.test_client()  # this machine: the instructor
    assert lecturer.post("/api/follow", json={"on": True, "n": 3}).status_code == 200
    state = second.test_client().get("/api/follow").get_json()
    assert state["on"] is True and state["n"] == 3

    assert lecturer.post(POLL, json={"action": "open"}).get_json()["open"] is True
    for app, choice in ((first, 0), (second, 1)):  # a student on each server
        assert app.test_client().post(POLL + "/answer", json={"choice": choice}, environ_base=STUDENT).status_code == 200
    assert second.test_client().get(POLL).get_json()["counts"] == [1, 1, 0]  # this machine: the instructor sees them


def test_a_request_while_redis_is_down_is_a_503_in_json(apps, redis_server):
    client = apps[0].test_client()
    assert client.get("/api/follow").status_code == 200
    redis_server.stop()
    for response in (client.get("/api/follow"), client.post(POLL + "/answer", json={"choice": 0}, environ_base=STUDENT)):
        body = response.get_json()
        assert response.status_code == 503 and body["status"] == 503 and "try again" in body["error"]
        assert response.headers["Retry-After"] == "5"
    redis_server.start()
    assert client.get("/api/follow").status_code == 200


def test_a_server_starts_while_redis_is_down_and_answers_503_until_it_is_back(redis_server, tmp_path):
    redis_server.stop()
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path), "REDIS_URL": redis_server.url, "TRAINING": "worker"})
    client = app.test_client()
    try:
        for response in (client.get("/api/follow"), client.post("/api/demos/line_fit/run", json={"steps": 20})):
            assert response.status_code == 503 and response.get_json()["status"] == 503
        health = client.get("/healthz").get_json()  # up, saying what is missing
        assert health["status"] == "ok" and health["shared_state"] == "unreachable"
        redis_server.start()
        assert client.get("/api/follow").status_code == 200
        assert client.get("/healthz").get_json()["training_queue"] == {"waiting": 0, "worker_alive": False}
    finally:
        app.extensions["engine"].board.close()
