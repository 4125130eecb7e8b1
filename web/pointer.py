"""The lecturer's pointer: a red dot where the lecturer points on the slide, on every follower's screen.

  POST /api/follow/pointer  (instructor) {"x": 0..1, "y": 0..1}: the place as fractions of the slide's
                            canvas (so a phone and a projector agree on it), or {"x": null, "y": null}
                            to hide it → {"pointer": {"x", "y", "n", "at"}} (`n`: the lecturer's slide).
                            Optionally "page" and "seq": which window sent it and its count of posts
                            (kept with the place), so that a post overtaken on the way by its window's
                            later one is dropped: the hide a closing window sends (a keepalive post)
                            may reach the server before the last move, and that move must not show the
                            pointer again. A dropped post answers with the place that stands.

The pointer is a notice of its own on the engine's board (notices.POINTER), apart from the follow
state, so the lecturer's 20 moves a second rewrite only it. The follow stream sends it to the class
as `pointer` events (web/follow.py).
"""
import re
import time

from flask import Blueprint, Flask, jsonify

from demos.runtime.params import ParamError
from engine import notices
from web.auth import instructor_only
from web.follow import board, read_state
from web.jsonio import read_json_object

bp = Blueprint("pointer", __name__)
FIELDS = ("x", "y")
ORDER = ("page", "seq")  # optional: which window sent the place, and its count of posts
PLACES = 4  # decimals kept: a ten-thousandth of a 1600-pixel canvas is a sixth of a pixel
PAGE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def checked_place(body: dict) -> tuple[float, float] | None:
    """The place asked for, or None to hide the pointer; a ParamError names what is wrong."""
    unknown = sorted(set(body) - set(FIELDS) - set(ORDER))
    if unknown:
        raise ParamError(unknown[0], "is not part of the pointer; send x and y")
    for name in FIELDS:
        if name not in body:
            raise ParamError(name, "is missing: send x and y, fractions of the slide from 0 to 1, or both null to hide the pointer")
    if body["x"] is None and body["y"] is None:
        return None
    for name in FIELDS:
        value = body[name]
        # NaN fails the comparison too (the JSON reader accepts NaN and Infinity).
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise ParamError(name, "must be a number from 0 to 1 (a fraction of the slide), or null with the other null to hide the pointer")
    return round(float(body["x"]), PLACES), round(float(body["y"]), PLACES)


def checked_order(body: dict) -> dict:
    """{"page", "seq"} as sent (both or neither: {} when neither); a ParamError names what is wrong."""
    given = [name for name in ORDER if name in body]
    if not given:
        return {}
    if len(given) == 1:
        missing = "seq" if given == ["page"] else "page"
        raise ParamError(missing, "is missing: send page and seq together, or neither")
    if not isinstance(body["page"], str) or not PAGE_ID.fullmatch(body["page"]):
        raise ParamError("page", "must be 1 to 64 letters, digits, - or _ naming the window that points")
    seq = body["seq"]
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < 2 ** 53:
        raise ParamError("seq", "must be a whole number from 0, one more for each post of the window")
    return {"page": body["page"], "seq": seq}


def overtaken(shown: dict | None, order: dict) -> bool:
    """Whether the place standing came from the same window after this one: this post was overtaken."""
    return bool(order) and shown is not None and shown.get("page") == order["page"] and shown.get("seq", -1) >= order["seq"]


@bp.post("/api/follow/pointer")
@instructor_only("Only the instructor can point at the class's slide.")
def move():
    body = read_json_object()
    place, order = checked_place(body), checked_order(body)
    x, y = place if place else (None, None)
    with board().changing(notices.POINTER):  # one read-compare-write at a time, across processes
        shown = board().read(notices.POINTER)[1]
        if overtaken(shown, order):
            return jsonify(pointer=shown)
        pointer = {"x": x, "y": y, "n": read_state()[1]["n"], "at": round(time.time(), 3), **order}
        board().write(notices.POINTER, pointer)
    return jsonify(pointer=pointer)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
