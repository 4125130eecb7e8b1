"""JSON in and out, for every blueprint: read a request body that must be a JSON object, and
answer an error as JSON (`{"error": ..., "status": ...}`)."""
import json

from flask import abort, jsonify, request


def json_error(status: int, message: str, **extra):
    return jsonify(error=message, status=status, **extra), status


def read_json_object() -> dict:
    """The request body as a JSON object; an empty body counts as {}."""
    raw = request.get_data(cache=False)  # over MAX_CONTENT_LENGTH: 413 before anything is read
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        abort(400, "The request body must be a JSON object, for example {\"seed\": 1}.")
    if not isinstance(body, dict):
        abort(400, "The request body must be a JSON object of parameters, for example {\"seed\": 1}.")
    return body
