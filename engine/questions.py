"""The class's anonymous questions and their upvotes, kept on the engine's board, which every
server process shares.

Two notices. `questions`: `{"next_id": int, "questions": [{"id", "text", "slide", "asker", "answered",
"hidden", "asked_at"}]}`, posted whole, under its lock (`board.changing`), when a question is asked
or the lecturer marks one: a few hundred at most, and a lecture's worth of changes. `question-votes`:
a map notice (engine/board.py), "<question id>:<voter id>" → true, one field per upvote, so an upvote
(or taking it back) is one `write_field` and never rewrites the questions or the other votes (on Redis
one script and a message of a few dozen bytes). Questions and votes sent to different processes at
the same moment are all kept, each once. The record the routes read joins the two, each question with
its "voters", once per change in each process. Voter ids stay here: what browsers see is built by
web/questions.py.

A record kept before the votes had their map held each question's "voters" inside: they still count,
and a vote taken back among them is written false.
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
    question = {"id": record["next_id"], "text": text, "slide": slide, "asker": asker,
                "answered": False, "hidden": False, "asked_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    record["next_id"] += 1
    record["questions"].append(question)
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


def joined(posted: dict, votes: dict) -> dict:
    """The record the routes read: each question with its voters."""
    ballots: dict[int, dict[str, bool]] = {}  # question id → voter → up
    for field, up in votes.items():
        question_id, _, voter = field.partition(":")
        if question_id.isdigit():
            ballots.setdefault(int(question_id), {})[voter] = up
    return {"next_id": posted["next_id"], "questions": [with_voters(question, ballots.get(question["id"], {}))
                                                         for question in posted["questions"]]}


def with_voters(question: dict, ballot: dict[str, bool]) -> dict:
    """The question with its "voters": an older record's own list, less the votes taken back since,
    then the map's (`ballot`: voter → up, for this question)."""
    kept = question.get("voters", [])
    voters = [voter for voter in kept if ballot.get(voter, True)] + \
        [voter for voter, up in ballot.items() if up and voter not in kept]
    return {**question, "voters": voters}


def ballot(question_id: int, voter: str) -> str:
    """The field of the votes' map that holds this voter's upvote on this question."""
    return f"{question_id}:{voter}"


class QuestionStore:
    def __init__(self, board: Board):
        self.board = board
        self.last: tuple[tuple[int, int], dict] = ((0, 0), joined(EMPTY, {}))  # the record last joined, by versions

    def record(self) -> dict:
        return self.read()[1]

    def read(self, name: str = notices.QUESTIONS, default=None) -> tuple[int, dict]:
        """(version, record): the version is the later of the two notices' (`name` and `default` are
        there for web/sse.py's `board_changes`, which follows the questions through this)."""
        return self._joined(self.board.read(notices.QUESTIONS, EMPTY), self.board.read(notices.QUESTION_VOTES, {}))

    def wait(self, name: str, seen_version: int, timeout: float, default=None) -> tuple[int, dict]:
        """As the board's `wait`, on the questions and their votes together (versions only grow across
        the board, so a change to either is newer than both were)."""
        names = (notices.QUESTIONS, notices.QUESTION_VOTES)
        questions, votes = self.board.wait_any(dict.fromkeys(names, seen_version), timeout).values()
        return self._joined((questions[0], questions[1] or EMPTY), (votes[0], votes[1] or {}))

    def _joined(self, questions: tuple[int, dict], votes: tuple[int, dict]) -> tuple[int, dict]:
        """The joined record, made once per change in this process: every event stream of the process
        reads the same one."""
        versions, record = self.last
        if versions != (questions[0], votes[0]):
            record = joined(questions[1], votes[1])
            self.last = ((questions[0], votes[0]), record)
        return max(questions[0], votes[0]), record

    def change(self, update: Callable[[dict], dict]) -> tuple[dict, dict]:
        """Apply `update` (ask, or the lecturer's mark) to a copy of the questions and post it for every
        process; returns (record, the question `update` returned), voters and all. If `update` raises,
        or changes nothing, nothing is posted. The votes are not in it: they have their own map."""
        with self.board.changing(notices.QUESTIONS):
            current = self.board.read(notices.QUESTIONS, EMPTY)[1]
            record = {"next_id": current["next_id"], "questions": [dict(question) for question in current["questions"]]}
            question = update(record)
            if record != current:
                self.board.write(notices.QUESTIONS, record)
        record = self.record()
        return record, find(record, question["id"])

    def vote(self, question_id: int, voter: str, up: bool) -> dict:
        """This voter's upvote on, or off: one field of the votes' map, never the questions; a second
        upvote from the same voter writes nothing. Returns the question, voters and all, as read with
        this vote (its own voters only: not the whole record joined again)."""
        question = find(self.board.read(notices.QUESTIONS, EMPTY)[1], question_id)
        if question["hidden"]:
            raise QuestionRefused("The lecturer has hidden this question: it takes no votes.")
        prefix, kept = ballot(question_id, ""), question.get("voters", [])
        start = len(prefix)
        votes = {field[start:]: value for field, value in self.board.read(notices.QUESTION_VOTES, {})[1].items()
                 if field.startswith(prefix)}
        if votes.get(voter, voter in kept) != up:
            # Taken back: the field goes, unless an older record's own list holds the vote (then: false).
            value = True if up else (False if voter in kept else None)
            self.board.write_field(notices.QUESTION_VOTES, ballot(question_id, voter), value)
            votes[voter] = bool(value)
        return with_voters(question, votes)
