"""Plotly's JavaScript, served from this project (web/vendor/) so no page needs a CDN.

The deck draws only scatter, bar and heatmap traces, so it ships a Plotly built with those alone
(0.98 MB, against 1.5 MB for Plotly's published "cartesian" build and 4.8 MB for the full one), made
by web/vendor/make_plotly.sh, which also leaves it compressed beside it: brotli (290 kB) for a
browser that asks for `br` (Chromium does over https and from localhost), else gzip (337 kB: a
phone on the hall's plain-http network). web/vendor/plotly.json records the build and every file's
checksum. Browsers keep it for a year; its URL carries the build, the version and the start of its
checksum, so a remade build is never hidden behind an old cached copy.
"""
import gzip
import json
from functools import cache
from importlib.resources import files
from typing import NamedTuple

from flask import Blueprint, Flask, Response, abort, request

bp = Blueprint("assets", __name__)
ONE_YEAR = 365 * 24 * 3600
VENDOR = files("web").joinpath("vendor")
# Content-Encodings that Plotly is shipped in, the smallest first.
PLOTLY_ENCODINGS = ("br", "gzip")


@cache
def plotly_build() -> dict:
    """What web/vendor/plotly.json records: the package, version, build, trace types, files and their sha256s."""
    return json.loads(VENDOR.joinpath("plotly.json").read_text())


def plotly_version() -> str:
    """The build, version and checksum, as the file's URL names them: "deck-4.1.1-fde30de1"."""
    build = plotly_build()
    return f"{build['build']}-{build['version']}-{build['sha256'][:8]}"


def encoded_response(raw: bytes, encoded: dict[str, bytes], mimetype: str) -> Response:
    """The first of `encoded` (Content-Encoding → body) that the browser accepts, else `raw`."""
    encoding = next((name for name in encoded if request.accept_encodings[name]), None)
    response = Response(encoded[encoding] if encoding else raw, mimetype=mimetype)
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.headers["Vary"] = "Accept-Encoding"
    return response


def gzipped_response(raw: bytes, compressed: bytes, mimetype: str) -> Response:
    """`compressed` (gzip of `raw`) to a browser that accepts gzip, else `raw`."""
    return encoded_response(raw, {"gzip": compressed}, mimetype)


def gzip_bytes(raw: bytes) -> bytes:
    return gzip.compress(raw, compresslevel=6, mtime=0)


class PlotlyFiles(NamedTuple):
    raw: bytes
    encoded: dict[str, bytes]  # Content-Encoding → the file compressed so


@cache
def plotly_js() -> PlotlyFiles:
    """The vendored file and its compressed copies (read once per process)."""
    build = plotly_build()
    return PlotlyFiles(VENDOR.joinpath(build["file"]).read_bytes(),
                       {name: VENDOR.joinpath(build["encodings"][name]["file"]).read_bytes() for name in PLOTLY_ENCODINGS})


def kept_for_a_year(response: Response) -> None:
    """For a URL whose content never changes (it carries a version or a hash): browsers keep it."""
    response.cache_control.public = True
    response.cache_control.max_age = ONE_YEAR
    response.cache_control.immutable = True


@bp.get("/vendor/plotly-<ver>.min.js")
def plotly(ver: str):
    if ver != plotly_version():
        abort(404)
    response = encoded_response(*plotly_js(), mimetype="text/javascript")
    kept_for_a_year(response)
    response.set_etag(f"plotly-{ver}-{response.headers.get('Content-Encoding', 'raw')}")
    return response.make_conditional(request)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["plotly_version"] = plotly_version
