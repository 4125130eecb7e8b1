"""The class's answers to each slide's poll, kept on the engine's board, which every server
process shares.

A poll is two notices. `poll-<demo>` says where it stands, which everyone may know: `{"open": bool,
"hides_result": bool, "shows_counts": bool}` (whether it is open, whether it keeps the demo's result
from the class, whether the lecturer shows the live counts on the projector); only the lecturer
changes it, under its lock (`board.changing`). `poll-answers-<demo>` is a map notice (engine/board.py),
voter id → choice index (or number): an answer, or a change of mind, is one `write_field`, so answers
sent to different processes at the same moment are all kept, each once, and none rewrites the others
(on Redis it is one script and a message of a few dozen bytes; in the folder, a rewrite of the map's
file under its lock). Reset writes the standing, then clears the map. Counting happens on reading,
from this process's copy. Each change wakes every process's event streams of that poll (`wait`
follows both notices). Without a folder or Redis the board, and so the answers, live in this
process's memory.

An answer is written only while the poll is open, checked in the same step as the write (the board's
`only_while`: on Redis inside the answer's script, in the folder under the poll's lock): an answer
sent as the lecturer presses Close lands before the Close or is refused, so the counts the class sees
at Close stay those counts. (One sent as the lecturer resets a poll that stays open may land in the
fresh poll, where its voter could have answered a moment later anyway.)

A record kept before the answers had their map held them inside the poll's notice (`"answers"`):
they still count, under the map's, until a Reset.
"""
from engine import notices
from engine.board import Board

STANDING_CLOSED = {"open": False, "hides_result": False, "shows_counts": False}
CLOSED = {**STANDING_CLOSED, "answers": {}}  # a poll's record before anyone touched it


def hides_result(record: dict) -> bool:
    """Whether the class may not see the demo's result yet: from Open (or Reset) until Close.
    A record written before this was kept hid it while open."""
    return bool(record.get("hides_result", record["open"]))


def standing(record: dict) -> dict:
    """Where a poll stands, which everyone may know: open or not, result hidden or not, and whether the
    lecturer chose to show the live counts on the projector (a record older than that choice: not)."""
    return {"open": record["open"], "hides_result": hides_result(record),
            "shows_counts": bool(record.get("shows_counts", False))}


def tally(record: dict, n_choices: int, reveal: bool) -> dict:
    """What a browser may see of a choice poll: where it stands, how many answered and, where `reveal`,
    how many chose each choice (`revealed` says which)."""
    counts = [0] * n_choices
    for choice in record["answers"].values():
        if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < n_choices:
            counts[choice] += 1
    shown = {**standing(record), "total": sum(counts), "revealed": reveal}
    if reveal:
        shown["counts"] = counts
    return shown


def joined(posted: dict, answers: dict) -> dict:
    """The record the routes read: where the poll stands, with every voter's answer (an older record's
    own answers first, the map's over them)."""
    kept = posted.get("answers")
    return {**standing(posted), "answers": {**kept, **answers} if kept else answers}


class PollStore:
    def __init__(self, board: Board):
        self.board = board

    def record(self, demo_id: str) -> dict:
        return self.read(demo_id)[1]

    def standing(self, demo_id: str) -> dict:
        """Where the poll stands, without reading its answers (asked by every request that could carry
        the demo's result, web/poll_secret.py)."""
        return standing(self.board.read(notices.poll(demo_id), STANDING_CLOSED)[1])

    def read(self, demo_id: str, default=None) -> tuple[int, dict]:
        """(version, record): the version is the later of the two notices' (`default` is CLOSED)."""
        standing_version, posted = self.board.read(notices.poll(demo_id), STANDING_CLOSED)
        answers_version, answers = self.board.read(notices.poll_answers(demo_id), {})
        return max(standing_version, answers_version), joined(posted, answers)

    def wait(self, demo_id: str, seen_version: int, timeout: float, default=None) -> tuple[int, dict]:
        """As the board's `wait`, on both notices of the poll: web/sse.py's `board_changes` follows a
        poll through this, as it follows one notice. Versions only grow across the whole board, so a
        change to either has a version greater than both have had."""
        names = (notices.poll(demo_id), notices.poll_answers(demo_id))
        (standing_version, posted), (answers_version, answers) = \
            self.board.wait_any(dict.fromkeys(names, seen_version), timeout).values()
        return max(standing_version, answers_version), joined(posted or STANDING_CLOSED, answers or {})

    def set_standing(self, demo_id: str, fields: dict, clear_answers: bool = False) -> dict:
        """The lecturer's change (open, close, show or hide the counts; with `clear_answers`, reset),
        for every process; returns the record."""
        name = notices.poll(demo_id)
        with self.board.changing(name):
            posted = self.board.read(name, STANDING_CLOSED)[1]
            # Reset: the standing first (closed), so that an answer checked after it is refused; an
            # older record's answers go with it.
            self.board.write(name, {**standing(posted), **fields} if clear_answers else {**posted, **fields})
            if clear_answers:
                self.board.clear(notices.poll_answers(demo_id))
        return self.record(demo_id)

    def answer(self, demo_id: str, voter_id: str, choice, before: dict) -> dict | None:
        """This voter's answer, or change of mind, for every process: one field of the answers' map,
        written only while the poll is open, checked in the same step (the board's `only_while`): an
        answer sent as the lecturer closes the poll lands before the Close or not at all. Returns
        `before` (the record the route read) with the answer in it, without reading the answers again;
        None if the poll had closed meanwhile."""
        written = self.board.write_field(notices.poll_answers(demo_id), voter_id, choice,
                                         only_while=(notices.poll(demo_id), "open"))
        return None if written is None else {**before, "answers": {**before["answers"], voter_id: choice}}
