"""Who may change shared state (retrain a cached demo, warm every demo): the instructor.

With FLASK_INSTRUCTOR_TOKEN set, a request proves it with the header X-Instructor-Token,
compared in constant time. Without a token, only requests from this machine count as the
instructor, so a lecturer on their own laptop needs no set-up.
"""
import hmac

from flask import current_app, request

TOKEN_HEADER = "X-Instructor-Token"
LOOPBACK = ("127.0.0.1", "::1")


def is_instructor() -> bool:
    configured = current_app.config.get("INSTRUCTOR_TOKEN")
    if configured:
        given = request.headers.get(TOKEN_HEADER, "")
        return hmac.compare_digest(given.encode(), str(configured).encode())
    return request.remote_addr in LOOPBACK
