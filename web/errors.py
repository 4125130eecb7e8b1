"""Error answers: JSON under /api/, a friendly page everywhere else; never a traceback.

A bad parameter (ParamError), an unknown demo or a board that cannot be reached (503) raised
anywhere is answered here, the same way for every blueprint."""
from flask import Flask, current_app, make_response, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

from demos import UnknownDemo
from demos.runtime.params import ParamError
from engine.board import BoardUnavailable
from web.jsonio import json_error

BOARD_RETRY_SECONDS = 5


def wants_json() -> bool:
    return request.path.startswith("/api/")


def handle_http_error(error: HTTPException):
    if error.code == 413 and wants_json():
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        return json_error(413, f"The request body is too large: it must fit in {limit // 1024} KB.")
    if wants_json():
        return json_error(error.code, error.description)
    return render_template("errors/error.html", error=error), error.code


def handle_param_error(error: ParamError):
    return json_error(400, str(error), param=error.name)


def handle_unknown_demo(error: UnknownDemo):
    return json_error(404, f"There is no demo called {error.args[0]!r}.")


def handle_board_unavailable(error: BoardUnavailable):
    # Logged where it happened (engine/redis_board.py): the shared state is away, so this request can
    # be tried again in a moment, and an EventSource does so by itself.
    response = make_response(handle_http_error(ServiceUnavailable(
        "The lecture's shared state cannot be reached just now; try again in a few seconds.")))
    response.headers["Retry-After"] = str(BOARD_RETRY_SECONDS)
    return response


def handle_unexpected_error(error: Exception):
    # Logged with its traceback for us; the audience sees a plain message.
    current_app.logger.exception("unexpected error on %s", request.path)
    return handle_http_error(InternalServerError())


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(ParamError, handle_param_error)
    app.register_error_handler(UnknownDemo, handle_unknown_demo)
    app.register_error_handler(BoardUnavailable, handle_board_unavailable)
    app.register_error_handler(Exception, handle_unexpected_error)
