"""Plotly's JavaScript, served from this project (web/vendor/) so no page needs a CDN.

The deck draws only bar, scatter and heatmap traces, so it ships Plotly's published "cartesian"
build (1.5 MB, against 4.8 MB for the full one; web/vendor/plotly.json says which, with its
checksum). Lecture-hall Wi-Fi is slow, so it goes out gzipped (a third of that), compressed once
per process, and browsers keep it for a year. Its URL carries the build and version, so a new
build is never hidden behind an old cached copy.
"""
import gzip
import json
from functools import cache
from importlib.resources import files

from flask import Blueprint, Flask, Response, abort, request

bp = Blueprint("assets", __name__)
ONE_YEAR = 365 * 24 * 3600
VENDOR = files("web").joinpath("vendor")


@cache
def plotly_build() -> dict:
    """What web/vendor/plotly.json records: the package, its version, the file, its sha256, its trace types."""
    return json.loads(VENDOR.joinpath("plotly.json").read_text())


def plotly_version() -> str:
    """The build and version, as the file's URL names them: "cartesian-4.1.1"."""
    build = plotly_build()
    return f"{build['package'].removeprefix('plotly.js-').removesuffix('-dist-min')}-{build['version']}"


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
    """The vendored file, and gzipped (computed once per process)."""
    raw = VENDOR.joinpath(plotly_build()["file"]).read_bytes()
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
