"""Every HTML, SVG, JSON and CSV answer gzipped for browsers that accept it: a demo's result is up
to about 90 KB of numbers, the presenter view 26 KB of markup, a QR code 10 KB of SVG, each a few
KB on the wire. Slide pages, cached results and static assets arrive compressed once and for all
(web/deck.py, web/api.py, web/static_assets.py) and pass through untouched; event streams are
never buffered."""
from flask import Flask, Response, request

from web.assets import gzip_bytes

COMPRESSIBLE = {"text/html", "image/svg+xml", "application/json", "text/csv"}
HEADER_BYTES = 48  # "Content-Encoding: gzip" and "Vary: Accept-Encoding": a tiny answer would grow


def compress(response: Response) -> Response:
    if (response.mimetype not in COMPRESSIBLE or response.direct_passthrough or response.is_streamed
            or "Content-Encoding" in response.headers or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return response
    body = response.get_data()
    compressed = gzip_bytes(body)
    if len(compressed) + HEADER_BYTES >= len(body):  # e.g. {"instructor": false}: gzip would add bytes
        return response
    response.set_data(compressed)
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def init_app(app: Flask) -> None:
    app.after_request(compress)
