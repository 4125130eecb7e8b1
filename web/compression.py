"""JSON answers gzipped for browsers that accept it: a demo's result is up to about 90 KB of
numbers, a few KB on the wire. Pages and assets compress themselves (web/deck.py,
web/static_assets.py); event streams are never buffered."""
from flask import Flask, Response, request

from web.assets import gzip_bytes

SMALLEST = 1024  # bytes: below this, gzip saves less than it costs


def compress_json(response: Response) -> Response:
    if (response.mimetype != "application/json" or response.direct_passthrough or response.is_streamed
            or "Content-Encoding" in response.headers or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return response
    body = response.get_data()
    if len(body) < SMALLEST:
        return response
    response.set_data(gzip_bytes(body))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def init_app(app: Flask) -> None:
    app.after_request(compress_json)
