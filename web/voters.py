"""The class's anonymous browsers: one random id in a cookie, shared by the polls and the questions.

No names and no accounts. An id never leaves the server except in its own browser's cookie. Each
browser may send a few things a minute (a limiter per feature); a browser without an id is limited
per address instead, so that dropping the cookie is no way round the limit (a generous limit: a
lecture hall may reach the server from one address).
"""
import re
import secrets

from flask import Flask, Response, current_app, request

from web import ratelimit
from web.jsonio import json_error

VOTER_COOKIE = "greatshift_voter"
VOTER_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
COOKIE_SECONDS = 7 * 24 * 3600
NEW_VOTER_LIMITER = "new_voter_limiter"


def voter() -> str | None:
    """This browser's anonymous id, if it has one."""
    value = request.cookies.get(VOTER_COOKIE, "")
    return value if VOTER_ID.match(value) else None


def new_voter() -> str:
    return secrets.token_urlsafe(18)


def remember(response: Response, voter_id: str) -> Response:
    """Give this browser its id (again: the week starts over)."""
    response.set_cookie(VOTER_COOKIE, voter_id, max_age=COOKIE_SECONDS, httponly=True, samesite="Lax")
    return response


def limited(limiter_name: str, client: str, message: str = "Too many answers from this browser"):
    """A 429 with Retry-After if `client` has used up its bucket, else None."""
    wait = current_app.extensions[limiter_name].take(client)
    if not wait:
        return None
    seconds = ratelimit.retry_after(wait)
    response, status = json_error(429, f"{message}; try again in {seconds} s.")
    response.headers["Retry-After"] = str(seconds)
    return response, status


def refused(limiter_name: str, message: str):
    """A 429 if this browser (by its id) or, without one, its address has sent too many; else None."""
    voter_id = voter()
    if voter_id:
        return limited(limiter_name, voter_id, message)
    return limited(NEW_VOTER_LIMITER, ratelimit.client_id(), message)


def init_app(app: Flask) -> None:
    if NEW_VOTER_LIMITER not in app.extensions:  # the polls and the questions share it
        app.extensions[NEW_VOTER_LIMITER] = ratelimit.RateLimiter(int(app.config["POLL_NEW_VOTERS_PER_MINUTE"]), 60.0)
