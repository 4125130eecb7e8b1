"""The class's anonymous questions and their upvotes, kept on the engine's board, which every
server process shares.

The record is the board notice `questions`: `{"next_id": int, "questions": [{"id", "text", "slide",
"asker", "voters": [voter ids], "answered", "hidden", "asked_at"}]}`, posted whole or not at all.
Every change reads, changes and posts it under the notice's lock (`board.changing`), so questions and votes sent to different processes at the same moment
are all kept, each once. Voter ids stay here: what browsers see is built by web/questions.py.
"""
from collections.abc import Callable
from datetime import datetime, timezone

from engine import notices
from engine.board import Board

EMPTY = {"next_id": 1, "questions": []}
MAX_QUESTIONS = 500  # a lecture's worth; the store refuses more rather than grow without end
ACTIONS = ("answered", "hide", "restore")


class UnknownQuestion(LookupError):
    """No question has that id."""


class QuestionRefused(Exception):
    """A change the questions cannot take as they stand (full, hidden): 409."""


def find(record: dict, question_id: int) -> dict:
    for question in record["questions"]:
        if question["id"] == question_id:
            return question
    raise UnknownQuestion(question_id)


def ask(record: dict, text: str, slide: int, asker: str) -> dict:
    if len(record["questions"]) >= MAX_QUESTIONS:
        raise QuestionRefused(f"The lecturer's list is full ({MAX_QUESTIONS} questions); ask at the end of the lecture.")
    question = {"id": record["next_id"], "text": text, "slide": slide, "asker": asker, "voters": [],
                "answered": False, "hidden": False, "asked_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    record["next_id"] += 1
    record["questions"].append(question)
    return question


def vote(record: dict, question_id: int, voter: str, up: bool) -> dict:
    """This voter's upvote on, or off; a second upvote from the same voter changes nothing."""
    question = find(record, question_id)
    if question["hidden"]:
        raise QuestionRefused("The lecturer has hidden this question: it takes no votes.")
    if up and voter not in question["voters"]:
        question["voters"].append(voter)
    elif not up and voter in question["voters"]:
        question["voters"].remove(voter)
    return question


def act(record: dict, question_id: int, action: str) -> dict:
    """The lecturer's mark: answered, hidden from the class, or restored (shown again, not answered)."""
    question = find(record, question_id)
    if action == "answered":
        question["answered"] = True
    elif action == "hide":
        question["hidden"] = True
    else:
        question.update(hidden=False, answered=False)
    return question


def by_votes(questions: list[dict]) -> list[dict]:
    """Most upvoted first; among equals, the earlier question first."""
    return sorted(questions, key=lambda question: (-len(question["voters"]), question["id"]))


class QuestionStore:
    def __init__(self, board: Board):
        self.board = board

    def record(self) -> dict:
        return self.board.read(notices.QUESTIONS, EMPTY)[1]

    def change(self, update: Callable[[dict], object]):
        """Apply `update` to a copy of the record and post it for every process; returns (record,
        what `update` returned). If `update` raises, or changes nothing (a second upvote), nothing is posted."""
        with self.board.changing(notices.QUESTIONS):
            current = self.record()
            # A copy deep enough for what an update changes (a question's fields and voters), and no
            # deeper: a class voting at once waits on this lock, so the time inside it counts.
            record = {"next_id": current["next_id"],
                      "questions": [{**question, "voters": list(question["voters"])} for question in current["questions"]]}
            outcome = update(record)
            if record != current:
                self.board.write(notices.QUESTIONS, record)
        return record, outcome
