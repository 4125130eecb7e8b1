"""Error answers: JSON under /api/, a friendly page everywhere else; never a traceback.

A bad parameter (ParamError) or an unknown demo raised anywhere is answered here, the same
way for every blueprint."""
from flask import Flask, current_app, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from demos import UnknownDemo
from demos.runtime.params import ParamError
from web.jsonio import json_error


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


def handle_unexpected_error(error: Exception):
    # Logged with its traceback for us; the audience sees a plain message.
    current_app.logger.exception("unexpected error on %s", request.path)
    return handle_http_error(InternalServerError())


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(ParamError, handle_param_error)
    app.register_error_handler(UnknownDemo, handle_unknown_demo)
    app.register_error_handler(Exception, handle_unexpected_error)
