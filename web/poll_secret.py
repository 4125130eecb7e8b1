"""A poll keeps its secret: while a slide's poll is open (or reset and not closed again), no
request but the instructor's gets that slide's demo result, by any route.

The routes that could carry a result ask `kept_from_this_request(demo)`: running or looking up the
demo, its jobs' progress and result, the poll's verdict, follow mode's state, the recap and the
presenter's numbers. A refusal is data (`withheld()`: 409, reason "poll_open", the poll's URL), so the
page can say why and try again when the poll closes. The instructor is never refused: the lecturer's
own page hides the result on the projector until Close (static/js/demos/withhold.js).

A browser's event stream (EventSource) cannot send the instructor's header, so the event-stream URL
of a job handed to the instructor carries a key made from the token (`job_events_url`): the
lecturer's page follows its own run while the poll is open, and a student cannot make the key.
"""
import hashlib
import hmac

from flask import current_app, request, url_for

from demos import DEMOS
from engine.polls import hides_result
from web.auth import is_instructor
from web.jsonio import json_error

POLL_OPEN = "poll_open"  # the `reason` of a refusal, for people and other programs (the page reads `withheld`)
MESSAGE = "The class is predicting: the result is shown when the lecturer closes the poll."


def hidden_now(demo_id: str) -> bool:
    """Whether `demo_id` has a poll that hides its result from the class at this moment (only a
    slide's poll ever writes a record that hides it)."""
    if demo_id not in DEMOS:
        return False
    return hides_result(current_app.extensions["polls"].standing(demo_id))


def kept_from_this_request(demo_id: str) -> bool:
    return not is_instructor() and hidden_now(demo_id)


def lecturer_key(job_id: str) -> str | None:
    """The key in the instructor's URL of a job's event stream; None without a token (then the
    lecturer is this machine, which an event stream proves like any request)."""
    token = current_app.config.get("INSTRUCTOR_TOKEN")
    if not token:
        return None
    return hmac.new(str(token).encode(), f"job-events:{job_id}".encode(), hashlib.sha256).hexdigest()[:32]


def job_events_url(job_id: str) -> str:
    """Where to follow a job: for the instructor, with the key that passes an open poll."""
    key = lecturer_key(job_id) if is_instructor() else None
    return url_for("api.job_events", job_id=job_id, **({"key": key} if key else {}))


def job_kept_from_this_request(job_id: str, demo_id: str) -> bool:
    """As kept_from_this_request, for a job's event stream, whose URL may hold the instructor's key."""
    key = lecturer_key(job_id)
    if key and hmac.compare_digest(request.args.get("key", "").encode(), key.encode()):
        return False
    return kept_from_this_request(demo_id)


def withheld(demo_id: str):
    """The refusal: changes nothing, and names the poll that holds the result back."""
    # `withheld`: the field the page reacts to (it shows the message as a note, not an error); the
    # `reason` names why for anyone reading the answer, and no page matches its words.
    return json_error(409, MESSAGE, reason=POLL_OPEN, withheld=True, demo=demo_id,
                      poll=url_for("polls.show", demo_id=demo_id))
