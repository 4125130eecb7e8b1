"""Who may change shared state (retrain a cached demo, warm every demo): the instructor.

With FLASK_INSTRUCTOR_TOKEN set, a request proves it with the header X-Instructor-Token,
compared in constant time. Without a token, only requests from this machine count as the
instructor, so a lecturer on their own laptop needs no set-up.
"""
import functools
import hmac

from flask import current_app, request

from web.jsonio import json_error

TOKEN_HEADER = "X-Instructor-Token"
LOOPBACK = ("127.0.0.1", "::1")


def is_instructor() -> bool:
    configured = current_app.config.get("INSTRUCTOR_TOKEN")
    if configured:
        given = request.headers.get(TOKEN_HEADER, "")
        return same_secret(given, str(configured))
    return request.remote_addr in LOOPBACK


def instructor_only(refusal: str):
    """A route only the instructor may use (as flaskr's `login_required`): anyone else gets 403 and `refusal`."""
    def decorate(view):
        @functools.wraps(view)
        def guarded(*args, **kwargs):
            if not is_instructor():
                return json_error(403, refusal)
            return view(*args, **kwargs)
        return guarded
    return decorate


def same_secret(given, expected: str) -> bool:
    """`given` (anything a client sent) equals the secret `expected`, compared in constant time;
    as bytes, so text in any script is simply unequal rather than an error."""
    return isinstance(given, str) and bool(given) and hmac.compare_digest(given.encode(), expected.encode())
