"""The lecturer's pointer: a red dot where the lecturer points on the slide, on every follower's screen.

  POST /api/follow/pointer  (instructor) {"x": 0..1, "y": 0..1}: the place as fractions of the slide's
                            canvas (so a phone and a projector agree on it), or {"x": null, "y": null}
                            to hide it → {"pointer": {"x", "y", "n", "at"}} (`n`: the lecturer's slide)

The pointer is a notice of its own on the engine's board (notices.POINTER), apart from the follow
state, so the lecturer's 20 moves a second rewrite only it. The follow stream sends it to the class
as `pointer` events (web/follow.py).
"""
import time

from flask import Blueprint, Flask, jsonify

from demos.runtime.params import ParamError
from engine import notices
from web.auth import is_instructor
from web.follow import board, read_state
from web.jsonio import json_error, read_json_object

bp = Blueprint("pointer", __name__)
FIELDS = ("x", "y")
PLACES = 4  # decimals kept: a ten-thousandth of a 1600-pixel canvas is a sixth of a pixel


def checked_place(body: dict) -> tuple[float, float] | None:
    """The place asked for, or None to hide the pointer; a ParamError names what is wrong."""
    unknown = sorted(set(body) - set(FIELDS))
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


@bp.post("/api/follow/pointer")
def move():
    if not is_instructor():
        return json_error(403, "Only the instructor can point at the class's slide.")
    place = checked_place(read_json_object())
    x, y = place if place else (None, None)
    pointer = {"x": x, "y": y, "n": read_state()[1]["n"], "at": round(time.time(), 3)}
    board().write(notices.POINTER, pointer)
    return jsonify(pointer=pointer)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
