"""Predict, then run: the class answers a slide's poll before its demo runs.

  GET  /api/polls/<demo>           a choice poll: {"demo", "kind": "choice", "question", "choices", "open",
                                   "hides_result", "shows_counts", "total", "revealed", "mine", and where
                                   revealed "counts"}; a number poll: {"demo", "kind": "number", "question", "unit",
                                   "min", "max", "step", "open", "hides_result", "shows_counts", "total", "mine",
                                   "revealed", and where revealed "values" (sorted) and "median"}
  POST /api/polls/<demo>           (instructor) {"action": "open" | "close" | "reset" | "show_counts" |
                                   "hide_counts"}: Open and Reset hide the demo's result from the class
                                   (web/poll_secret.py), Close shows it; Show counts lets the projector draw the
                                   class's answers while the poll is open, Hide counts (and Reset) stops it
  POST /api/polls/<demo>/answer    {"choice": index} or, on a number poll, {"value": x}: this browser's answer,
                                   changeable while the poll is open
  GET  /api/polls/<demo>/events    the poll as GET shows it (less "mine") as Server-Sent Events, now and after
                                   every change
  POST /api/polls/<demo>/outcome   the parameters of the result on show → the poll settled by its own run, the
                                   cached result at the slide's default settings, whatever else ran since:
                                   {"status": "done", "outcome", "params" (that run's), "same_run" (whether the
                                   result on show is that run)}, or {"status": "missing", "same_run"} where that
                                   run is not cached (or says nothing about the poll). "outcome": which choice
                                   the run supports, or on a number poll the measured {mean, low, high} with
                                   {within, total, median_error}
  GET  /api/polls.csv              (instructor) every poll's counts

A slide declares its poll in its front matter (slides/__init__.py). Students are anonymous: a
random id in a cookie, no names. Answers are kept by engine.polls.PollStore on the engine's
board, so every server process reports the same numbers; no voter id ever leaves the server.
The class's answers (a choice poll's counts, a number poll's values) go to the instructor at once,
and to the class only once the poll is closed: a late voter cannot follow the crowd. Whether the
lecturer's projected page draws them while the poll is open is the lecturer's choice
(`shows_counts`, static/js/demos/poll.js); a phone never gets them before Close, even then.
"""

from flask import Blueprint, Flask, abort, current_app, jsonify

from demos import DEMOS
from engine.polls import CLOSED, PollStore, tally
from slides import NumberPoll, Poll
from web import csv_file, number_poll, ratelimit, voters
from web.auth import instructor_only, is_instructor
from web.deck import get_deck
from web.follow import repost_if_shown
from web.engine import get_engine
from web.jsonio import json_error, read_json_object
from web.poll_secret import kept_from_this_request, withheld
from web.sse import board_changes, event_stream

bp = Blueprint("polls", __name__)
MAX_VOTERS = 5000  # answers one poll keeps; a lecture hall is far smaller
NOT_OPEN = "This poll is not open: the lecturer opens it before the demo runs."
COALESCE_SECONDS = 0.25  # an event stream sends the counts about four times a second at most
# What the instructor may do to a poll; each sets these fields of where it stands (Reset also clears the answers).
ACTIONS = {
    "open": {"open": True, "hides_result": True},
    "close": {"open": False, "hides_result": False},
    # to ask again: the answers go, and the result shown before is hidden again until Close
    "reset": {"open": False, "hides_result": True, "shows_counts": False},
    "show_counts": {"shows_counts": True},
    "hide_counts": {"shows_counts": False},
}


class PollRefused(Exception):
    """An answer the poll cannot take as it stands (closed, full): 409."""


@bp.errorhandler(PollRefused)
def poll_refused(error: PollRefused):
    return json_error(409, str(error))


def store() -> PollStore:
    return current_app.extensions["polls"]


def poll_of(demo_id: str) -> Poll | NumberPoll:
    for slide in get_deck():
        if slide.demo == demo_id and slide.poll is not None:
            return slide.poll
    abort(404, f"There is no poll on the slide of {demo_id!r}.")


def public(demo_id: str, poll: Poll | NumberPoll, counts: dict) -> dict:
    return {"demo": demo_id, **poll.public(), **counts}


def counted(poll: Poll | NumberPoll, record: dict, instructor: bool) -> dict:
    """The record as a browser may see it: the class's answers (a choice poll's counts, a number poll's
    values) to the instructor at once, to the class only once the poll is closed. Not to a phone while
    it is open even when the lecturer shows them on the projector (`shows_counts`): the projector is
    the room's view, chosen and taken back by the lecturer; a phone is where a student answers."""
    reveal = instructor or not record["open"]
    if isinstance(poll, NumberPoll):
        return number_poll.tally(record, reveal)
    return tally(record, len(poll.choices), reveal)


def show_state(demo_id: str, poll: Poll | NumberPoll, record: dict | None = None, voter_id: str | None = None):
    """The poll as this browser sees it: with the answer it gave, if any."""
    record = record if record is not None else store().record(demo_id)
    mine = record["answers"].get(voter_id or voters.voter() or "")
    return jsonify({**public(demo_id, poll, counted(poll, record, is_instructor())), "mine": mine})


@bp.get("/api/polls/<demo_id>")
def show(demo_id: str):
    return show_state(demo_id, poll_of(demo_id))


@bp.post("/api/polls/<demo_id>")
def change(demo_id: str):
    poll = poll_of(demo_id)
    if not is_instructor():
        return json_error(403, "Only the instructor can open, close or reset a poll, or show its counts.")
    body = read_json_object()
    if set(body) != {"action"} or not isinstance(body["action"], str) or body["action"] not in ACTIONS:
        named = ", ".join(f'{{"action": "{action}"}}' for action in ACTIONS)
        return json_error(400, f"Send one of {named}.", param="action")
    record = store().set_standing(demo_id, ACTIONS[body["action"]], clear_answers=body["action"] == "reset")
    repost_if_shown(demo_id)
    return show_state(demo_id, poll, record)


@bp.post("/api/polls/<demo_id>/answer")
def answer(demo_id: str):
    poll = poll_of(demo_id)
    voter_id = voters.voter()
    refused = voters.refused("poll_answer_limiter", "Too many answers from this browser")
    if refused:
        return refused
    body = read_json_object()
    if isinstance(poll, NumberPoll):
        choice = number_poll.read_value(body, poll)
        if choice is None:
            return json_error(400, f'Send {{"value": x}} with a number x from {poll.min:g} to {poll.max:g}.',
                              param="value")
    else:
        choice = body.get("choice")
        if set(body) != {"choice"} or isinstance(choice, bool) or not isinstance(choice, int) \
                or not 0 <= choice < len(poll.choices):
            return json_error(400, f'Send {{"choice": n}} with n from 0 to {len(poll.choices) - 1}.', param="choice")
    voter_id = voter_id or voters.new_voter()
    record = store().record(demo_id)
    if not record["open"]:
        raise PollRefused(NOT_OPEN)
    if voter_id not in record["answers"] and len(record["answers"]) >= MAX_VOTERS:
        raise PollRefused("This poll has all the answers it can hold.")  # give or take the answers arriving with it
    answered = store().answer(demo_id, voter_id, choice, record)
    if answered is None:  # closed (or reset) between the check above and the answer
        raise PollRefused(NOT_OPEN)
    response = show_state(demo_id, poll, answered, voter_id)
    return voters.remember(response, voter_id)


@bp.get("/api/polls/<demo_id>/events")
def events(demo_id: str):
    """A `poll` event with the poll now, and again after changes (a burst of answers is one event)."""
    poll = poll_of(demo_id)
    # A browser's stream cannot send the token's header: the lecturer's page asks for the class's
    # answers with GET while the poll is open (this machine's own browser is the instructor here too).
    instructor = is_instructor()
    # The store stands in for the board: it waits on the poll's two notices as on one.
    wait_for_change, latest = board_changes(store(), demo_id, CLOSED, COALESCE_SECONDS)

    def current():
        return "poll", public(demo_id, poll, counted(poll, latest["value"], instructor)), False

    return event_stream(wait_for_change, current)


def outcome(demo_id: str, poll: Poll | NumberPoll, result: dict, record: dict | None = None) -> dict | None:
    """What a result says about the poll: the demo's recap headline (who won, by how much) and the
    index of the choice that predicted that winner (None if no choice did); None without a headline.
    On a number poll: the measured value beside the class's answers in `record` (web/number_poll.py)."""
    if isinstance(poll, NumberPoll):
        return number_poll.outcome(demo_id, poll, result, record if record is not None else store().record(demo_id))
    headline = getattr(DEMOS.get(demo_id), "headline", None)
    if headline is None:
        return None
    try:
        row = headline(result)
    except (KeyError, IndexError, TypeError, ValueError):  # an old result's shape
        return None
    outcomes = [name for name, _ in poll.choices]
    winner = row["winner"]
    return {**row, "choice": outcomes.index(winner) if winner in outcomes else None}


def own_run(demo_id: str):
    """The run a poll asks about, which alone settles it: its demo's cached result at the slide's
    default settings (None until computed), whatever else has run since. The CSV, the recap and
    `flask export` read the same run."""
    return get_engine().cached(demo_id, None)


@bp.post("/api/polls/<demo_id>/outcome")
def result_outcome(demo_id: str):
    """Never trains: the poll settled by its own run, and whether the result on show (its parameters
    in the body) is that run; for a student, a refusal while the poll hides the result (the verdict
    names the winner)."""
    poll = poll_of(demo_id)
    if kept_from_this_request(demo_id):
        return withheld(demo_id)
    engine = get_engine()
    _, _, shown_key = engine.resolve(demo_id, read_json_object())  # a bad setting: 400, as for a run
    _, _, own_key = engine.resolve(demo_id, None)
    same_run = shown_key == own_key
    entry = own_run(demo_id)
    judged = outcome(demo_id, poll, entry.result) if entry is not None else None
    if judged is None:
        return jsonify(status="missing", same_run=same_run)
    return jsonify(status="done", outcome=judged, params=entry.result["params"], same_run=same_run)


def poll_rows() -> list[dict]:
    """Every poll of the deck with its counts: the CSV export and `flask export` read these."""
    rows = []
    for slide in get_deck():
        if slide.poll is not None:
            counts = counted(slide.poll, store().record(slide.demo), instructor=True)
            rows.append({"n": slide.n, **public(slide.demo, slide.poll, counts)})
    return rows


def frozen_polls(frozen: dict) -> list[dict]:
    """For `flask export`: every poll, closed, with its counts and what the frozen result says."""
    polls = []
    for row in poll_rows():
        result = frozen.get(row["demo"])
        judged = outcome(row["demo"], poll_of(row["demo"]), result) if result else None
        polls.append({**row, "open": False, "hides_result": False, "revealed": True, "outcome": judged})
    return polls


def number_outcome_now(demo_id: str) -> dict | None:
    """A number poll settled by its own run, if it is cached (the CSV, and the recap beside its row)."""
    entry = own_run(demo_id)
    return outcome(demo_id, poll_of(demo_id), entry.result) if entry is not None else None


def class_guess(slide) -> dict | None:
    """For the recap: a number poll's answers against the default result, with the unit; None for a
    choice poll, no answers or no result."""
    if not isinstance(slide.poll, NumberPoll):
        return None
    settled = number_outcome_now(slide.demo)
    return {**settled, "unit": slide.poll.unit, "step": slide.poll.step} if settled and settled["total"] else None


@bp.get("/api/polls.csv")
@instructor_only("Only the instructor can download the answers.")
def export_csv():
    header = ["slide", "demo", "question", "choice", "predicts", "answers", "share", "median", "unit",
              "measured_mean", "measured_low", "measured_high", "within", "median_error"]
    return csv_file.attachment("predictions.csv", header, csv_rows())


def csv_rows():
    """A choice poll's rows, one per choice; a number poll's one row: the class's median, and the
    default settings' cached result beside it."""
    for row in poll_rows():
        if row["kind"] == "number":
            yield [row["n"], row["demo"], row["question"], "", "", row["total"], "",
                   *number_poll.csv_cells(row, number_outcome_now(row["demo"]))]
            continue
        for (count, choice) in zip(row["counts"], row["choices"]):
            share = f"{count / row['total']:.3f}" if row["total"] else ""
            yield [row["n"], row["demo"], row["question"], choice["text"], choice["outcome"], count, share]


def init_app(app: Flask) -> None:
    app.extensions["polls"] = PollStore(app.extensions["engine"].board)
    app.extensions["poll_answer_limiter"] = ratelimit.RateLimiter(int(app.config["POLL_ANSWERS_PER_MINUTE"]), 60.0)
    voters.init_app(app)
    app.register_blueprint(bp)
