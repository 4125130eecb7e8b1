"""The class in the loop, under load (`python -m benchmarks.load --loop`).

Every student arrives within the first two seconds and follows the lecture: the follow-mode stream
and the stream of the Amnesia Test's numeric poll, as a phone on that slide holds them. Then:
- each student sends a number within the first --answer-seconds (default 10; a fifth change it once);
- --askers of them (default 50) each send a question at a random moment of the minute, and three
  times during it every student reads the questions and upvotes up to two it did not ask;
- the lecturer moves the pointer twenty times a second all along, and a sample of the students'
  follow streams note when each position arrives.
Checked at the end, as the instructor: every number counted once (the poll's total, and its values
if the answer has them, equal the students' last numbers), every question kept once with exactly
the votes the students sent. Target: 0 errors, p99 under 100 ms for every request, and the pointer
at the followers within 200 ms at the 50th percentile.
"""
import asyncio
import json
import random
import time
import uuid
from collections import Counter

from benchmarks.load_client import Connection, Results, open_stream, print_latencies, timed
from benchmarks.stats import percentile

NUMBER_DEMO = "amnesia"
PAGE = uuid.uuid4().hex[:12]  # the window name the pointer moves carry: another run, another window
POINTER_EVERY = 0.05  # the lecturer's page sends at most twenty moves a second
POINTER_WATCHERS = 20  # follow streams that read every event to time the pointer (the rest only drain)
VOTE_ROUNDS = (0.35, 0.65, 0.9)  # when, as shares of the minute, each student reads and upvotes
REQUESTS = ("open streams", "poll answer", "question", "question list", "vote", "pointer move")


def position(k: int) -> tuple[float, float]:
    """The lecturer's k-th pointer position: a different place for each of 10,000 moves."""
    return (k % 100 + 0.5) / 100, (k // 100 % 100 + 0.5) / 100


class Room:
    """What the class sent, to compare with what the server counted."""

    def __init__(self):
        self.results = Results()
        self.numbers: dict[int, float] = {}  # student → last number the server took
        self.questions: dict[str, int] = {}  # question id → the student who asked it
        self.votes: Counter = Counter()  # question id → upvotes the server took
        self.pointer_sent: dict[tuple[float, float], float] = {}  # position → when its POST began
        self.pointer_seen: list[float] = []  # seconds from a POST to an event on a watcher's stream
        self.done = asyncio.Event()
        self.t0 = time.monotonic()  # the start of the minute


async def ok_json(room: Room, kind: str, connection: Connection, method: str, path: str, body: dict | None = None):
    """A timed request; its parsed answer, or None if it failed."""
    answer = {}

    async def request():
        status, content = await connection.request(method, path, json.dumps(body).encode() if body is not None else b"")
        if status < 400:
            answer["body"] = json.loads(content)
        return status, content

    await timed(room.results, kind, request())
    return answer.get("body")


async def drain(reader, room: Room, watch_pointer: bool) -> None:
    """Read a stream until the end; on a watcher, note when each pointer position arrives."""
    data = b""
    while not room.done.is_set():
        chunk = await reader.read(65536)
        if not chunk:
            return
        if not watch_pointer:
            continue
        arrived = time.perf_counter()
        data += chunk
        *events, data = data.split(b"\n\n")
        for event in events:
            if b"event: pointer" not in event:
                continue
            payload = json.loads(event[event.index(b"data: ") + 6:].split(b"\n", 1)[0])
            sent = room.pointer_sent.get((payload.get("x"), payload.get("y")))
            if sent is not None:
                room.pointer_seen.append(arrived - sent)


async def student(i: int, host: str, port: int, args, room: Room, rng: random.Random, streams: list) -> None:
    await asyncio.sleep(rng.uniform(0, 2))
    connection = Connection(host, port)
    started = time.perf_counter()
    try:
        for path in ("/api/follow/events", f"/api/polls/{NUMBER_DEMO}/events"):
            reader, writer = await open_stream(host, port, path)
            streams.append((writer, asyncio.create_task(drain(reader, room, path.startswith("/api/follow")
                                                                  and i < POINTER_WATCHERS))))
        room.results.record("open streams", time.perf_counter() - started, True)
    except (OSError, RuntimeError, ValueError, IndexError) as error:
        room.results.record("open streams", time.perf_counter() - started, False, repr(error))
    t0 = room.t0
    plan = [(rng.uniform(2, args.answer_seconds), "answer")]
    if rng.random() < 0.2:
        plan.append((rng.uniform(plan[0][0], args.answer_seconds), "answer"))
    if i < args.askers:
        plan.append((rng.uniform(0, args.seconds * 0.95), "ask"))
    plan += [(args.seconds * share + rng.uniform(-1, 1), "vote") for share in VOTE_ROUNDS]
    for at, what in sorted(plan):
        await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
        if what == "answer":
            value = round(rng.uniform(0, 100))
            if await ok_json(room, "poll answer", connection, "POST", f"/api/polls/{NUMBER_DEMO}/answer", {"value": value}):
                room.numbers[i] = value
        elif what == "ask":
            body = await ok_json(room, "question", connection, "POST", "/api/questions",
                                 {"text": f"Question {i}: why does the LSTM forget?", "slide": 3})
            if body:
                room.questions[body["question"]["id"]] = i
        else:
            listing = await ok_json(room, "question list", connection, "GET", "/api/questions")
            if listing:
                open_ones = [q["id"] for q in listing["questions"] if not q["mine"] and not q["voted"]]
                for question_id in rng.sample(open_ones, min(2, len(open_ones))):
                    if await ok_json(room, "vote", connection, "POST", f"/api/questions/{question_id}/vote", {"up": True}):
                        room.votes[question_id] += 1
    connection.close()


async def move_pointer(host: str, port: int, room: Room, seconds: float) -> None:
    """The lecturer holds L and moves the mouse for the whole minute, then lets go."""
    lecturer = Connection(host, port)
    k = 0
    while time.monotonic() < room.t0 + seconds:
        x, y = position(k)
        room.pointer_sent[(x, y)] = time.perf_counter()
        k += 1  # each post numbered, as the slides window numbers them
        await ok_json(room, "pointer move", lecturer, "POST", "/api/follow/pointer", {"x": x, "y": y, "page": PAGE, "seq": k})
        await asyncio.sleep(POINTER_EVERY)
    await ok_json(room, "pointer move", lecturer, "POST", "/api/follow/pointer", {"x": None, "y": None, "page": PAGE, "seq": k + 1})
    lecturer.close()


async def run_class_loop(host: str, port: int, args) -> tuple[Room, dict, dict, float]:
    """The minute of class; returns what was sent, the poll and the questions as the instructor sees them, and the time it took."""
    lecturer = Connection(host, port)  # on the server's machine without a token: the instructor
    for path, body in ((f"/api/polls/{NUMBER_DEMO}", {"action": "reset"}), (f"/api/polls/{NUMBER_DEMO}", {"action": "open"}),
                       ("/api/follow", {"on": True, "n": 3})):
        status, content = await lecturer.request("POST", path, json.dumps(body).encode())
        if status != 200:
            raise SystemExit(f"cannot POST {body} to {path}: HTTP {status} {content[:200]!r} (set no instructor token)")
    lecturer.close()
    room, streams = Room(), []
    started = time.perf_counter()
    await asyncio.gather(move_pointer(host, port, room, args.seconds),
                         *(student(i, host, port, args, room, random.Random(i), streams) for i in range(args.students)))
    elapsed = time.perf_counter() - started
    room.done.set()
    for writer, task in streams:
        task.cancel()
        writer.close()
    status, poll = await lecturer.request("GET", f"/api/polls/{NUMBER_DEMO}")
    status, questions = await lecturer.request("GET", "/api/questions")
    await lecturer.request("POST", f"/api/polls/{NUMBER_DEMO}", json.dumps({"action": "close"}).encode())
    lecturer.close()
    return room, json.loads(poll), json.loads(questions), elapsed


def report(args, room: Room, poll: dict, questions: dict, elapsed: float) -> None:
    results = room.results
    errors = sum(results.errors.values())
    total = sum(len(v) for v in results.latency.values()) + errors
    print(f"{args.students} students following for {args.seconds:.0f} s against {args.url or args.server}: "
          f"numbers within {args.answer_seconds:.0f} s, {args.askers} questions, upvotes, the pointer moving")
    print(f"  {total} requests in {elapsed:.1f} s, {errors} errors")
    print_latencies(results, REQUESTS)
    expected = sorted(room.numbers.values())
    counted = poll.get("total") == len(expected) and poll.get("values", expected) == expected
    print(f"  numbers: {len(expected)} sent, the poll counts {poll.get('total')}"
          f"{'' if 'values' not in poll else ', its values ' + ('match' if poll['values'] == expected else 'DIFFER')}")
    server_votes = {q["id"]: q["votes"] for q in questions.get("questions", [])}
    questions_ok = sorted(server_votes) == sorted(room.questions) and all(
        server_votes[q] == room.votes[q] for q in room.questions)
    print(f"  questions: {len(room.questions)} sent, {len(server_votes)} kept; {sum(room.votes.values())} upvotes sent, "
          f"{sum(server_votes.values())} counted; {'every one once' if questions_ok else 'MISMATCH'}")
    seen = [s * 1000 for s in room.pointer_seen]
    if seen:
        print(f"  pointer at {POINTER_WATCHERS} followers: n={len(seen)}  p50 {percentile(seen, 50):.1f} ms  "
              f"p90 {percentile(seen, 90):.1f} ms  max {max(seen):.1f} ms")
    slow = [kind for kind in REQUESTS if results.latency[kind] and percentile(results.latency[kind], 99) >= 0.1]
    ok = not errors and not slow and counted and questions_ok and bool(seen) and percentile(seen, 50) < 200
    print(f"  {'meets' if ok else 'MISSES'} the target: 0 errors, every answer and vote counted once, "
          f"p99 under 100 ms, pointer p50 under 200 ms" + (f" (slow: {', '.join(slow)})" if slow else ""))
