"""Error answers: JSON under /api/, a friendly page everywhere else; never a traceback."""
from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError


def wants_json() -> bool:
    return request.path.startswith("/api/")


def handle_http_error(error: HTTPException):
    if wants_json():
        response = jsonify(error=error.description, status=error.code)
    else:
        response = render_template("errors/error.html", error=error)
    return response, error.code


def handle_unexpected_error(error: Exception):
    # Logged with its traceback for us; the audience sees a plain message.
    current_app.logger.exception("unexpected error on %s", request.path)
    return handle_http_error(InternalServerError())


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(Exception, handle_unexpected_error)
