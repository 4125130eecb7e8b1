"""Follow mode: the lecturer's browser posts where the lecture is; students' browsers follow.

  GET  /api/follow          {"on": bool, "n": slide, "demo": {"id", "params", "job", "events"} | null}
  POST /api/follow          (instructor) any of "on", "n", "demo": move the class
  GET  /api/follow/events   the same state as Server-Sent Events, now and after every change

The state is a notice on the engine's board, so every server process sees the same one.
"""
from flask import Blueprint, Flask, jsonify, url_for

from demos import UnknownDemo
from demos.runtime.params import ParamError
from engine.board import Board
from engine.jobs import JOB_ID
from web.auth import is_instructor
from web.deck import get_deck
from web.engine import get_engine
from web.jsonio import json_error, read_json_object
from web.sse import event_stream

bp = Blueprint("follow", __name__, url_prefix="/api/follow")
NOTICE = "follow"
NOBODY_LEADS = {"on": False, "n": 1, "demo": None}


def board() -> Board:
    return get_engine().board


def public(state: dict) -> dict:
    """The state as browsers get it: with the URL of the lecturer's job's event stream."""
    demo = state.get("demo")
    if demo and demo.get("job"):
        demo = {**demo, "events": url_for("api.job_events", job_id=demo["job"])}
    return {**state, "demo": demo}


def read_state() -> tuple[int, dict]:
    return board().read(NOTICE, NOBODY_LEADS)


def checked_demo(value) -> dict | None:
    """The lecturer's demo as posted: which demo, with which parameters, and its job if one runs."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"id", "params", "job"} or "id" not in value:
        raise ParamError("demo", 'must be null or {"id": ..., "params": {...}, "job": ...}')
    try:
        _, params, _ = get_engine().resolve(value["id"], value.get("params") or {})
    except UnknownDemo:
        raise ParamError("demo", f"there is no demo called {value['id']!r}") from None
    job = value.get("job")
    if job is not None and not (isinstance(job, str) and JOB_ID.match(job)):
        raise ParamError("demo", "job must be null or a job id")
    return {"id": value["id"], "params": params, "job": job}


@bp.get("")
def show():
    return jsonify(public(read_state()[1]))


@bp.post("")
def update():
    if not is_instructor():
        return json_error(403, "Only the instructor can move the class.")
    body = read_json_object()
    unknown = sorted(set(body) - {"on", "n", "demo"})
    if unknown:
        raise ParamError(unknown[0], "is not part of the follow state; send on, n or demo")
    state = dict(read_state()[1])
    if "on" in body:
        if not isinstance(body["on"], bool):
            raise ParamError("on", "must be true or false")
        state["on"] = body["on"]
    if "n" in body:
        total = len(get_deck())
        if isinstance(body["n"], bool) or not isinstance(body["n"], int) or not 1 <= body["n"] <= total:
            raise ParamError("n", f"must be a slide number from 1 to {total}")
        if body["n"] != state["n"]:
            state["demo"] = None  # a new slide: its demo has not been run yet
        state["n"] = body["n"]
    if "demo" in body:
        state["demo"] = checked_demo(body["demo"])
    board().write(NOTICE, state)
    return jsonify(public(state))


@bp.get("/events")
def events():
    """A `follow` event with the state now, and again after every change."""
    return event_stream(lambda seen, timeout: board().wait(NOTICE, seen, timeout, NOBODY_LEADS)[0],
                        lambda: ("follow", public(read_state()[1]), False))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
