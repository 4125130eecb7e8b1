"""The class's answers to each slide's poll, kept on the engine's board, which every server
process shares.

A poll's record is the board notice `poll-<demo>`: whether the poll is open, whether it keeps the
demo's result from the class, whether the lecturer shows the live counts on the projector, and each
voter's choice (`{"open": bool, "hides_result": bool, "shows_counts": bool, "answers": {voter id:
choice index}}`), posted whole or not at all. Every change reads, changes and posts the record under
the notice's lock (`board.changing`), so answers sent to different processes at the same moment are
all kept, each once; the post wakes every process's event streams of that poll. Without a folder or
Redis the board, and so the answers, live in this process's memory.
"""
from collections.abc import Callable

from engine import notices
from engine.board import Board

CLOSED = {"open": False, "hides_result": False, "shows_counts": False, "answers": {}}


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


class PollStore:
    def __init__(self, board: Board):
        self.board = board

    def record(self, demo_id: str) -> dict:
        return self.board.read(notices.poll(demo_id), CLOSED)[1]

    def change(self, demo_id: str, update: Callable[[dict], None]) -> dict:
        """Apply `update` to a copy of the record and post it for every process; returns the record."""
        with self.board.changing(notices.poll(demo_id)):
            current = self.record(demo_id)
            record = {**standing(current), "answers": dict(current["answers"])}
            update(record)
            self.board.write(notices.poll(demo_id), record)
        return record
