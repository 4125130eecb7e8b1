"""Anonymous questions with upvotes: the class asks from any slide, the lecturer answers in the
presenter view.

  POST /api/questions               {"text": str, "slide": n} → 201 {"question": {...}}
  GET  /api/questions               {"questions": [...], "count"}: most upvoted first, then the earlier
  POST /api/questions/<id>/vote     {"up": true | false} → {"question": {...}}: one vote per browser
  POST /api/questions/<id>          (instructor) {"action": "answered" | "hide" | "restore"}
  GET  /api/questions/events        `questions` Server-Sent Events: the list now and after every change
  GET  /api/questions.csv           (instructor) every question, hidden ones too

A question as a browser sees it: {"id", "text", "slide", "votes", "answered", "voted" (this browser
upvoted it), "mine" (this browser asked it), "vote_url"}; the instructor also gets the hidden ones,
each question with "hidden" and its "url". Browsers are anonymous (web/voters.py); the questions live
in engine.questions.QuestionStore on the engine's board, so every server process shows the same list.
They are the class's, not the lecture's: `flask export` leaves them out.
"""
import unicodedata

from flask import Blueprint, Flask, current_app, jsonify, url_for

from engine import notices
from engine.questions import ACTIONS, EMPTY, QuestionRefused, QuestionStore, UnknownQuestion, act, ask, by_votes
from web import csv_file, ratelimit, voters
from web.auth import is_instructor
from web.deck import get_deck
from web.jsonio import json_error, read_json_object
from web.sse import board_changes, event_stream

bp = Blueprint("questions", __name__)
MAX_TEXT = 280  # characters: a question, not an essay
COALESCE_SECONDS = 0.25  # an event stream sends the list about four times a second at most
ALLOWED_CONTROLS = {"\n"}
FORMULA_STARTS = ("=", "+", "-", "@")  # a spreadsheet would run such a cell as a formula


@bp.errorhandler(UnknownQuestion)
def unknown_question(error: UnknownQuestion):
    return json_error(404, f"There is no question {error.args[0]}.")


@bp.errorhandler(QuestionRefused)
def question_refused(error: QuestionRefused):
    return json_error(409, str(error))


def store() -> QuestionStore:
    return current_app.extensions["questions"]


def public(question: dict, voter_id: str | None, instructor: bool) -> dict:
    """A question as this browser may see it: never a voter id."""
    seen = {"id": question["id"], "text": question["text"], "slide": question["slide"],
            "votes": len(question["voters"]), "answered": question["answered"],
            "voted": voter_id in question["voters"], "mine": voter_id is not None and question["asker"] == voter_id,
            "vote_url": url_for("questions.vote_on", question_id=question["id"])}
    if instructor:
        seen.update(hidden=question["hidden"], url=url_for("questions.mark", question_id=question["id"]))
    return seen


def listing(record: dict, voter_id: str | None, instructor: bool) -> dict:
    shown = [public(q, voter_id, instructor) for q in by_votes(record["questions"]) if instructor or not q["hidden"]]
    return {"questions": shown, "count": len(shown)}


def text_problem(text) -> str | None:
    """What is wrong with a question's text, in words for the student; None if nothing."""
    if not isinstance(text, str) or not text.strip():
        return "Type a question first."
    if len(text.strip()) > MAX_TEXT:
        return f"A question has at most {MAX_TEXT} characters; this one has {len(text.strip())}."
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in ALLOWED_CONTROLS for c in text):
        return "A question is plain text: no control characters (tabs and the like), only line breaks."
    return None


@bp.post("/api/questions")
def ask_one():
    refusal = voters.refused("question_limiter", "Too many questions from this browser")
    if refusal:
        return refusal
    body = read_json_object()
    unknown = sorted(set(body) - {"text", "slide"})
    if unknown:
        return json_error(400, 'Send {"text": "your question", "slide": n} and nothing else.', param=unknown[0])
    problem = text_problem(body.get("text"))
    if problem:
        return json_error(400, problem, param="text")
    slide, total = body.get("slide"), len(get_deck())
    if isinstance(slide, bool) or not isinstance(slide, int) or not 1 <= slide <= total:
        return json_error(400, f"The slide must be a number from 1 to {total}.", param="slide")
    voter_id = voters.voter() or voters.new_voter()
    _, question = store().change(lambda record: ask(record, body["text"].strip(), slide, voter_id))
    response = jsonify(question=public(question, voter_id, is_instructor()))
    response.status_code = 201
    return voters.remember(response, voter_id)


@bp.get("/api/questions")
def show():
    return jsonify(listing(store().record(), voters.voter(), is_instructor()))


@bp.post("/api/questions/<int:question_id>/vote")
def vote_on(question_id: int):
    refusal = voters.refused("question_vote_limiter", "Too many votes from this browser")
    if refusal:
        return refusal
    body = read_json_object()
    if set(body) != {"up"} or not isinstance(body["up"], bool):
        return json_error(400, 'Send {"up": true} to upvote, {"up": false} to take the vote back.', param="up")
    voter_id = voters.voter() or voters.new_voter()
    question = store().vote(question_id, voter_id, body["up"])
    return voters.remember(jsonify(question=public(question, voter_id, is_instructor())), voter_id)


@bp.post("/api/questions/<int:question_id>")
def mark(question_id: int):
    if not is_instructor():
        return json_error(403, "Only the instructor can mark a question answered, hide it or restore it.")
    body = read_json_object()
    if set(body) != {"action"} or body["action"] not in ACTIONS:
        return json_error(400, 'Send {"action": "answered"}, {"action": "hide"} or {"action": "restore"}.', param="action")
    _, question = store().change(lambda record: act(record, question_id, body["action"]))
    return jsonify(question=public(question, voters.voter(), True))


@bp.get("/api/questions/events")
def events():
    """A `questions` event with the list now, and again after changes (a burst of votes is one event)."""
    voter_id, instructor = voters.voter(), is_instructor()  # as this browser was when it opened the stream
    # The store stands in for the board: it waits on the questions and their votes as on one notice.
    wait_for_change, latest = board_changes(store(), notices.QUESTIONS, EMPTY, COALESCE_SECONDS)

    def current():
        return "questions", listing(latest["value"], voter_id, instructor), False

    return event_stream(wait_for_change, current)


def plain_cell(text: str) -> str:
    """The text as a spreadsheet shows it, never as a formula it would run."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


@bp.get("/api/questions.csv")
def export_csv():
    if not is_instructor():
        return json_error(403, "Only the instructor can download the questions.")
    return csv_file.attachment("questions.csv", ["slide", "text", "votes", "answered", "hidden", "asked at"], (
        [question["slide"], plain_cell(question["text"]), len(question["voters"]),
         question["answered"], question["hidden"], question["asked_at"]]
        for question in by_votes(store().record()["questions"])))


def init_app(app: Flask) -> None:
    app.extensions["questions"] = QuestionStore(app.extensions["engine"].board)
    app.extensions["question_limiter"] = ratelimit.RateLimiter(int(app.config["QUESTIONS_PER_MINUTE"]), 60.0)
    app.extensions["question_vote_limiter"] = ratelimit.RateLimiter(int(app.config["QUESTION_VOTES_PER_MINUTE"]), 60.0)
    voters.init_app(app)
    app.jinja_env.globals["question_max_length"] = MAX_TEXT
    app.register_blueprint(bp)
