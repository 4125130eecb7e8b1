"""What one poll answer and one question upvote cost through their stores (engine/polls.py,
engine/questions.py), on the board in a folder and on Redis, with 1,000 voters already in: the median
and p99 of 1,000 timed changes, and on Redis the bytes published per change and the bytes each other
watching process then reads (the whole record before map notices, the change itself after).

    .venv/bin/python -m benchmarks.board_ops            # this checkout
    PYTHONPATH=/path/to/other/checkout .venv/bin/python /this/checkout/benchmarks/board_ops.py

The stores are driven as the routes drive them (web/polls.py, web/questions.py); it runs on a checkout
from before map notices too (the stores' `change`), to compare."""
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from engine import notices
from engine.file_board import FileBoard
from engine.polls import PollStore
from engine import questions as question_functions
from engine.questions import QuestionStore, ask
from tests.redis_server import RedisServer

VOTERS = 1000
TIMED = 1000
DEMO = "recall_vs_length"


def answer(store: PollStore, voter: str, choice: int) -> None:
    if hasattr(store, "answer"):  # map notices: the route reads the standing, then writes one field
        store.answer(DEMO, voter, choice, store.record(DEMO))
    else:
        store.change(DEMO, lambda record: record["answers"].__setitem__(voter, choice))


def upvote(store: QuestionStore, question_id: int, voter: str) -> None:
    if hasattr(store, "vote"):
        store.vote(question_id, voter, True)
    else:
        store.change(lambda record: question_functions.vote(record, question_id, voter, True))


def timed(operation, count: int) -> list[float]:
    times = []
    for i in range(count):
        start = time.perf_counter()
        operation(i)
        times.append(time.perf_counter() - start)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    return f"median {statistics.median(ordered) * 1000:.2f} ms, p99 {ordered[int(len(ordered) * 0.99) - 1] * 1000:.2f} ms"


class Published:
    """Counts the messages and bytes on the board's channel (a Redis board only)."""

    def __init__(self, board):
        self.pubsub = board.subscriber_client.pubsub()
        self.pubsub.subscribe(board.channel)
        self.sizes: list[int] = []
        self.names: set[str] = set()  # the plain notices posted (a map's change is not a name)
        self.running = True
        self.thread = threading.Thread(target=self.listen, daemon=True)
        self.thread.start()

    def listen(self):
        while self.running:
            message = self.pubsub.get_message(timeout=0.1)
            if message and message["type"] == "message":
                self.sizes.append(len(message["data"].encode()))
                self.names.add(message["data"])

    def stop(self, board) -> str:
        """What was published per change, and what every other watching process then read."""
        time.sleep(0.3)
        self.running = False
        self.thread.join()
        self.pubsub.close()
        posted = [name for name in self.names if not name.startswith("[")]
        read = sum(notice_bytes(board, name) for name in posted)
        return (f"{statistics.mean(self.sizes):.0f} bytes published in {len(self.sizes) / TIMED:.1f} messages, "
                f"then read by every watching process: {read} bytes ({', '.join(posted) or 'nothing: the change is the message'})")


def notice_bytes(board, name: str) -> int:
    """What a watching process reads per plain post of `name` (the notice's JSON text)."""
    text = board.client.hget(board.key(name), "value")
    return len(text.encode()) if text else 0


def run(kind: str, board) -> None:
    polls, questions = PollStore(board), QuestionStore(board)
    # a watching process, as every other server process is: it follows the poll and the questions
    watcher = type(board)(*([board.directory.parent] if kind == "files" else [os.environ["BOARD_REDIS_URL"]]))
    if hasattr(polls, "set_standing"):
        polls.set_standing(DEMO, {"open": True, "hides_result": True})
    else:
        polls.change(DEMO, lambda record: record.update(open=True, hides_result=True))
    for i in range(VOTERS):
        answer(polls, f"voter-{i:04d}", i % 4)
    _, question = questions.change(lambda record: ask(record, "why?", 3, "asker"))
    for i in range(VOTERS):
        upvote(questions, question["id"], f"voter-{i:04d}")
    # it waits on every notice the stores write, as its event streams would
    watched = [notices.poll(DEMO), notices.QUESTIONS]
    if hasattr(notices, "poll_answers"):
        watched += [notices.poll_answers(DEMO), notices.QUESTION_VOTES]
    watcher.wait_any({name: 0 for name in watched}, 0)
    listening = Published(board) if kind == "redis" else None
    answers = timed(lambda i: answer(polls, f"voter-{i % VOTERS:04d}", (i + 1) % 4), TIMED)
    print(f"{kind}: a poll answer, {VOTERS} voters in: {summary(answers)}")
    if listening:
        print(f"  per answer: {listening.stop(board)}")
    listening = Published(board) if kind == "redis" else None
    upvotes = timed(lambda i: upvote(questions, question["id"], f"late-{i:04d}"), TIMED)
    print(f"{kind}: an upvote, {VOTERS}+ voters in: {summary(upvotes)}")
    if listening:
        print(f"  per upvote: {listening.stop(board)}")
    record = polls.record(DEMO)
    assert len(record["answers"]) == VOTERS, len(record["answers"])
    assert all(choice == (i + 1) % 4 for i, choice in enumerate(record["answers"][f"voter-{i:04d}"] for i in range(VOTERS)))
    if hasattr(watcher, "close"):
        watcher.close()


def main() -> None:
    print(time.strftime("%Y-%m-%d %H:%M:%S"), "load average", " ".join(f"{x:.2f}" for x in os.getloadavg()),
          "on", os.cpu_count(), "cores")
    with tempfile.TemporaryDirectory() as folder:
        run("files", FileBoard(Path(folder)))
        server = RedisServer(Path(folder)).start()
        try:
            from engine.redis_board import RedisBoard

            os.environ["BOARD_REDIS_URL"] = server.url
            board = RedisBoard(server.url)
            run("redis", board)
            board.close()
        finally:
            server.stop()
    print("load average after", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
