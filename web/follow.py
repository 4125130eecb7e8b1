"""Follow mode: the lecturer's browser posts where the lecture is; students' browsers follow.

  GET  /api/follow          {"on": bool, "n": slide, "demo": {"id", "params", "job", "events"} | null}
                            (to a student while that demo's poll hides its result: {"id", "reason": "poll_open"})
  POST /api/follow          (instructor) any of "on", "n", "demo": move the class
  GET  /api/follow/events   the same state as Server-Sent Events (`follow`), now and after every change,
                            and the lecturer's pointer (`pointer`: web/pointer.py) when it moves
  GET  /api/follow/audience (instructor) {"students": open follow streams of students, "on": bool}

The state is a notice on the engine's board, so every server process sees the same one. Each
process counts its own students' open streams and posts that count on the board too, so the
presenter view can add them up.
"""
import threading
import time
from typing import Iterator

from flask import Blueprint, Flask, current_app, jsonify, request

from demos import UnknownDemo
from demos.runtime.params import ParamError
from engine import notices
from engine.board import Board
from engine.jobs import JOB_ID
from engine.liveness import Heartbeat, Liveness
from web.auth import instructor_only, is_instructor
from web.deck import get_deck
from web.engine import get_engine
from web.jsonio import read_json_object
from web.poll_secret import POLL_OPEN, job_events_url, kept_from_this_request
from web.sse import event_stream

bp = Blueprint("follow", __name__, url_prefix="/api/follow")
NOTICE = notices.FOLLOW
NOBODY_LEADS = {"on": False, "n": 1, "demo": None}
POINTER_EVERY_SECONDS = 0.05  # a stream sends the pointer at most 20 times a second, always its newest place


def board() -> Board:
    return get_engine().board


def public(state: dict) -> dict:
    """The state as browsers get it: with the URL of the lecturer's job's event stream; a student
    gets neither the parameters nor the job of a demo whose poll hides its result (asked at each event)."""
    demo = state.get("demo")
    if demo and kept_from_this_request(demo["id"]):
        demo = {"id": demo["id"], "reason": POLL_OPEN}
    elif demo and demo.get("job"):
        demo = {**demo, "events": job_events_url(demo["job"])}
    return {**state, "demo": demo}


class Audience:
    """The students' follow streams open in this process, posted on the board for every process. While
    any is open the process's heartbeat beats (engine/liveness.py): a count posted by a process that
    was killed stops counting once its heartbeat stops, with no clock compared between processes."""

    def __init__(self, board: Board, heartbeat: Heartbeat):
        self.board = board  # kept: a stream runs on after its request's context has gone
        self.heartbeat = heartbeat
        self.name = notices.audience(heartbeat.process_id)
        self.streams = 0
        self.lock = threading.Lock()

    def counted(self, chunks: Iterator[str]) -> Iterator[str]:
        """The chunks of one student's stream, counted while it is open."""
        self.change(+1)
        try:
            yield from chunks  # closed with it when the student leaves
        finally:
            self.change(-1)

    def change(self, delta: int) -> None:
        with self.lock:
            self.streams += delta
            if self.streams > 0:
                self.heartbeat.hold(self)
            self.board.write(self.name, {"streams": self.streams, "process": self.heartbeat.process_id})
            if self.streams == 0:
                self.heartbeat.release(self)


def count_students(board: Board, liveness: Liveness) -> int:
    """Students' open follow streams in every process that shares the board and still beats."""
    counts = [board.read(name, {})[1] for name in board.names(notices.AUDIENCE)]
    return sum(count.get("streams", 0) for count in counts
               if isinstance(count, dict) and liveness.alive(str(count.get("process", ""))))


def get_audience() -> Audience:
    audiences = current_app.extensions.setdefault("follow_audience", {})
    engine = get_engine()
    if id(engine.board) not in audiences:
        audiences[id(engine.board)] = Audience(engine.board, engine.heartbeat)
    return audiences[id(engine.board)]


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


def repost_if_shown(demo_id: str) -> None:
    """The poll of `demo_id` opened, closed or was reset: if the lecturer's demo is that one, post the
    state again, so that every student's stream sends what they may see of it now."""
    version, state = read_state()
    if version and (state.get("demo") or {}).get("id") == demo_id:
        board().write(NOTICE, state)


@bp.get("")
def show():
    return jsonify(public(read_state()[1]))


@bp.post("")
@instructor_only("Only the instructor can move the class.")
def update():
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
    """A `follow` event with the state now, and again after every change; a `pointer` event when the
    lecturer's pointer moves, shows or hides. A student's stream is counted while it is open (the
    lecturer's own pages are not: this machine, or `?lecturer`)."""
    student = not is_instructor() and "lecturer" not in request.args
    audience = get_audience() if student else None
    engine_board = board()
    # The version of each notice this stream sent last: the follow state first, then the pointer if
    # it was ever shown. The pointer's own notice changes 20 times a second while the lecturer points.
    sent = {NOTICE: -1, notices.POINTER: 0}
    latest: dict[str, tuple[int, object]] = {}
    pointer_sent_at = 0.0

    def wait_for_change(seen, timeout: float) -> tuple[int, int]:
        latest.update(engine_board.wait_any(sent, timeout))
        only_the_pointer_moved = latest[NOTICE][0] == sent[NOTICE] and latest[notices.POINTER][0] > sent[notices.POINTER]
        pause = pointer_sent_at + POINTER_EVERY_SECONDS - time.monotonic()
        if only_the_pointer_moved and pause > 0:
            # A burst of moves: wait out the rest of the interval, then send only the newest place,
            # so that a phone on a slow network never receives a backlog of old ones.
            time.sleep(pause)
            latest.update(engine_board.wait_any(sent, 0))
        return latest[NOTICE][0], latest[notices.POINTER][0]

    def current() -> list[tuple[str, dict, bool]]:
        nonlocal pointer_sent_at
        events = []
        if latest[NOTICE][0] > sent[NOTICE]:
            sent[NOTICE] = latest[NOTICE][0]
            # The state as the wait brought it, not read again: a slide change wakes every follower
            # of the process at once, and on Redis each read would be a round trip of its own.
            state = latest[NOTICE][1]
            events.append(("follow", public(NOBODY_LEADS if state is None else state), False))
        version, pointer = latest[notices.POINTER]
        if version > sent[notices.POINTER]:
            sent[notices.POINTER] = version
            pointer_sent_at = time.monotonic()
            events.append(("pointer", pointer, False))
        return events

    response = event_stream(wait_for_change, current)
    if audience is not None and response.status_code == 200:
        response.response = audience.counted(response.response)
    return response


@bp.get("/audience")
@instructor_only("The size of the audience is for the instructor.")
def audience():
    """How many students have the lecture open on the follow stream: for the presenter view."""
    return jsonify(students=count_students(board(), get_engine().liveness), on=bool(read_state()[1].get("on")))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
