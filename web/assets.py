"""Plotly's JavaScript, served from the installed `plotly` package so no page needs a CDN.

The file is 4.8 MB; lecture-hall Wi-Fi is slow, so it goes out gzipped (about a third
of that) and is cached by browsers for a year. Its URL carries the version, so an
upgrade of plotly is never hidden behind an old cached copy.
"""
import gzip
from functools import cache
from importlib.metadata import version
from importlib.resources import files

from flask import Blueprint, Flask, Response, abort, request

bp = Blueprint("assets", __name__)
ONE_YEAR = 365 * 24 * 3600


def plotly_version() -> str:
    return version("plotly")


def gzipped_response(raw: bytes, compressed: bytes, mimetype: str) -> Response:
    """`compressed` (gzip of `raw`) to a browser that accepts gzip, else `raw`."""
    wants_gzip = "gzip" in request.headers.get("Accept-Encoding", "")
    response = Response(compressed if wants_gzip else raw, mimetype=mimetype)
    if wants_gzip:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response


def gzip_bytes(raw: bytes) -> bytes:
    return gzip.compress(raw, compresslevel=6, mtime=0)


@cache
def plotly_js() -> tuple[bytes, bytes]:
    """The file as shipped by the plotly package, and gzipped (computed once per process)."""
    raw = files("plotly").joinpath("package_data", "plotly.min.js").read_bytes()
    return raw, gzip_bytes(raw)


def kept_for_a_year(response: Response) -> None:
    """For a URL whose content never changes (it carries a version or a hash): browsers keep it."""
    response.cache_control.public = True
    response.cache_control.max_age = ONE_YEAR
    response.cache_control.immutable = True


@bp.get("/vendor/plotly-<ver>.min.js")
def plotly(ver: str):
    if ver != plotly_version():
        abort(404)
    response = gzipped_response(*plotly_js(), mimetype="text/javascript")
    kept_for_a_year(response)
    response.set_etag(f"plotly-{ver}-{response.headers.get('Content-Encoding', 'raw')}")
    return response.make_conditional(request)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["plotly_version"] = plotly_version
