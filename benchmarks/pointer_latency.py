"""How soon the lecturer's pointer reaches the class: POST /api/follow/pointer, then the `pointer`
event on each follower's follow stream (GET /api/follow/events).

N followers hold the follow stream open (the server spreads them over its workers); the lecturer
moves the pointer 20 times a second for T seconds, each move at a place of its own, holds it still
until every follower has its last place, then hides it.
A follower's latency for a place is the time from the start of its POST to its arrival; a stream
sends only the newest place, so a place overtaken before a stream sent it never arrives there (the
count of places each follower saw says how many). Every follower must see the place where the
pointer stopped, and then the hiding. Target: p50 under 200 ms on loopback.

    python -m benchmarks.pointer_latency [--followers 200] [--seconds 10] [--server gunicorn|flask] [--url URL]
                                         [--cross-process]

Gunicorn spreads the followers over its workers as they connect, often most of them onto one, so
--cross-process times the slowest path alone: two servers on one cache folder, the lecturer posting
to one and every follower on the other, which hears of each move from the board's watcher (it looks
ten times a second).
"""
import argparse
import asyncio
import json
import signal
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

from benchmarks.load import start_server
from benchmarks.load_client import Connection, open_stream
from benchmarks.stats import percentile

MOVE_EVERY_SECONDS = 0.05  # the lecturer's page sends at most this often
PAGE = uuid.uuid4().hex[:12]  # the window name its moves carry: another run, another window
PLACES = 10_000  # move i is at x = i / PLACES, so that each arrival says which move it was


async def follow(host: str, port: int, arrivals: list, ready: asyncio.Event, followers_ready: list) -> None:
    """One follower: the follow stream, noting (x, arrival time) of every `pointer` event."""
    reader, writer = await open_stream(host, port, "/api/follow/events")
    data = b""
    try:
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.perf_counter()
            data += chunk
            *events, data = data.split(b"\n\n")
            for event in events:
                if b"event: follow" in event and not ready.is_set():
                    followers_ready.append(1)
                if b"event: pointer" in event:
                    x = json.loads(event.rpartition(b"data: ")[2])["x"]
                    arrivals.append((x, now))
    finally:
        writer.close()


async def run(url: str, follow_url: str, followers: int, seconds: float) -> dict:
    parsed, follows = urlparse(url), urlparse(follow_url)
    host, port = parsed.hostname, parsed.port
    ready, followers_ready = asyncio.Event(), []
    arrivals = [[] for _ in range(followers)]
    tasks = [asyncio.create_task(follow(follows.hostname, follows.port, arrivals[i], ready, followers_ready))
             for i in range(followers)]
    while len(followers_ready) < followers:  # every stream open and past its first event
        await asyncio.sleep(0.05)
    ready.set()
    lecturer = Connection(host, port)  # on the server's machine without a token: the instructor
    posted: dict[float | None, float] = {}
    moves = int(seconds / MOVE_EVERY_SECONDS)
    start = time.perf_counter()
    last = moves / PLACES

    sent = 0

    async def move(x: float | None) -> None:  # numbered as the slides window numbers its posts
        nonlocal sent
        sent += 1
        posted[x] = time.perf_counter()
        place = {"x": x, "y": 0.5 if x else None, "page": PAGE, "seq": sent}
        status, body = await lecturer.request("POST", "/api/follow/pointer", json.dumps(place).encode())
        if status != 200:
            raise SystemExit(f"the pointer was refused: HTTP {status} {body[:200]!r} (set no instructor token)")

    async def until_everyone_saw(x: float | None) -> int:
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and any(not seen or seen[-1][0] != x for seen in arrivals):
            await asyncio.sleep(0.05)
        return sum(bool(seen) and seen[-1][0] == x for seen in arrivals)

    for i in range(1, moves + 1):
        await asyncio.sleep(max(0.0, start + i * MOVE_EVERY_SECONDS - time.perf_counter()))
        await move(i / PLACES)
    still = await until_everyone_saw(last)  # the pointer held still: its place must reach everyone
    await move(None)  # then hidden
    hidden = await until_everyone_saw(None)
    for task in tasks:
        task.cancel()
    lecturer.close()
    latencies = [(at - posted[x]) * 1000 for seen in arrivals for x, at in seen if x in posted]
    return {"latencies": latencies, "moves": moves, "seen": [len(seen) for seen in arrivals],
            "hidden_everywhere": hidden, "last_place_everywhere": still}


def report(args, figures: dict) -> None:
    values = figures["latencies"]
    print(f"{args.followers} followers, the pointer moved {figures['moves']} times in {args.seconds:.0f} s "
          f"(one move per {MOVE_EVERY_SECONDS * 1000:.0f} ms) against "
          f"{args.url or ('two development servers, one posting, one following' if args.cross_process else args.server)}")
    print(f"  POST → pointer event: p50 {percentile(values, 50):.0f} ms, p90 {percentile(values, 90):.0f} ms, "
          f"p99 {percentile(values, 99):.0f} ms, max {max(values):.0f} ms ({len(values)} arrivals)")
    seen = sorted(figures["seen"])
    print(f"  places a follower saw: median {seen[len(seen) // 2]} of {figures['moves'] + 1}, fewest {seen[0]} "
          "(a stream sends only the newest)")
    print(f"  {figures['last_place_everywhere']} of {args.followers} saw the place where it stopped, "
          f"{figures['hidden_everywhere']} of {args.followers} then saw it hidden")
    ok = percentile(values, 50) < 200 and figures["hidden_everywhere"] == args.followers == figures["last_place_everywhere"]
    print(f"  {'meets' if ok else 'MISSES'} the target: p50 under 200 ms, the place where it stopped and the hiding seen by everyone")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--server", choices=("gunicorn", "flask"), default="gunicorn")
    parser.add_argument("--url", help="an already running server (then --server is ignored)")
    parser.add_argument("--cross-process", action="store_true",
                        help="the followers on a second development server sharing the first one's cache folder")
    args = parser.parse_args()
    processes = []
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url
        try:
            if url is None:
                for _ in range(2 if args.cross_process else 1):
                    processes.append(start_server("flask" if args.cross_process else args.server, Path(tmp) / "cache", None))
                url = processes[0][1]
            follow_url = processes[-1][1] if args.cross_process else url
            report(args, asyncio.run(run(url, follow_url, args.followers, args.seconds)))
        finally:
            for process, _ in processes:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)


if __name__ == "__main__":
    main()
