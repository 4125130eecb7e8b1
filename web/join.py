"""Joining the lecture from a phone: a short address and a QR code of it.

  GET /join, /j        the slide the lecturer is on (the page then follows the lecturer)
  GET /api/join        {"url": the join address, "short": the same without "http://", to read out,
                        "local": true when only this machine can reach it}
  GET /join/qr.svg     a QR code of the join address, drawn here (segno), never by an outside service

The address uses the host the asking browser reached (the lecturer's browser on the hall's
network reaches the server by the address students can reach too), unless the instructor sets
it with FLASK_PUBLIC_URL (behind a proxy, or to print it in advance).
"""
import io
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    redirect,
    request,
    url_for,
)

from web.follow import read_state

bp = Blueprint("join", __name__)
SHORT_PATH = "/j"


def join_url() -> str:
    public = current_app.config.get("PUBLIC_URL")
    base = str(public).rstrip("/") if public else request.host_url.rstrip("/")
    return base + SHORT_PATH


@bp.get("/join")
@bp.get(SHORT_PATH)
def join():
    """To the lecturer's slide when follow mode is on, else to the first slide."""
    state = read_state()[1]
    return redirect(url_for("deck.slide", n=state["n"] if state["on"] else 1))


@bp.get("/api/join")
def address():
    """The join address, and whether only this machine can reach it (the deck opened as localhost)."""
    url = join_url()
    local = urlsplit(url).hostname in ("localhost", "127.0.0.1", "::1")
    return jsonify(url=url, short=url.split("://", 1)[-1], local=local)


@bp.get("/join/qr.svg")
def qr_code():
    # Error correction M survives a glare spot on the projector; the quiet zone of 4 modules is the standard's.
    svg = io.BytesIO()
    segno.make(join_url(), error="m").save(svg, kind="svg", border=4, omitsize=True, xmldecl=False,
                                          dark="#000", light="#fff", title="QR code: join the lecture")
    # Depends on the Host the browser reached, so no shared cache may keep it.
    return Response(svg.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def init_app(app: Flask) -> None:
    public = app.config.get("PUBLIC_URL")
    if public and not str(public).startswith(("http://", "https://")):
        raise ValueError(f"FLASK_PUBLIC_URL must start with http:// or https://, not {public!r}")
    app.register_blueprint(bp)
