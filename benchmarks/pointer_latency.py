"""How soon the lecturer's pointer reaches the class: POST /api/follow/pointer, then the `pointer`
event on each follower's follow stream (GET /api/follow/events).

N followers hold the follow stream open (the server spreads them over its workers); the lecturer
moves the pointer 20 times a second for T seconds, each move at a place of its own, then hides it.
A follower's latency for a place is the time from the start of its POST to its arrival; a stream
sends only the newest place, so a place overtaken before a stream sent it never arrives there (the
count of places each follower saw says how many). Every follower must see the last place and the
hiding. Target: p50 under 200 ms on loopback.

    python -m benchmarks.pointer_latency [--followers 200] [--seconds 10] [--server gunicorn|flask] [--url URL]
"""
import argparse
import asyncio
import json
import signal
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

from benchmarks.load import Connection, open_stream, start_server
from benchmarks.stats import percentile

MOVE_EVERY_SECONDS = 0.05  # the lecturer's page sends at most this often
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


async def run(url: str, followers: int, seconds: float) -> dict:
    parsed = urlparse(url)
    host, port = parsed.hostname, parsed.port
    ready, followers_ready = asyncio.Event(), []
    arrivals = [[] for _ in range(followers)]
    tasks = [asyncio.create_task(follow(host, port, arrivals[i], ready, followers_ready)) for i in range(followers)]
    while len(followers_ready) < followers:  # every stream open and past its first event
        await asyncio.sleep(0.05)
    ready.set()
    lecturer = Connection(host, port)  # on the server's machine without a token: the instructor
    posted: dict[float | None, float] = {}
    moves = int(seconds / MOVE_EVERY_SECONDS)
    start = time.perf_counter()
    for i in range(1, moves + 2):
        await asyncio.sleep(max(0.0, start + i * MOVE_EVERY_SECONDS - time.perf_counter()))
        x = i / PLACES if i <= moves else None  # the last post hides it
        posted[x] = time.perf_counter()
        status, body = await lecturer.request("POST", "/api/follow/pointer", json.dumps({"x": x, "y": 0.5 if x else None}).encode())
        if status != 200:
            raise SystemExit(f"the pointer was refused: HTTP {status} {body[:200]!r} (set no instructor token)")
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and any(not seen or seen[-1][0] is not None for seen in arrivals):
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    lecturer.close()
    latencies = [(at - posted[x]) * 1000 for seen in arrivals for x, at in seen if x in posted]
    return {"latencies": latencies, "moves": moves, "seen": [len(seen) for seen in arrivals],
            "hidden_everywhere": sum(bool(seen) and seen[-1][0] is None for seen in arrivals),
            "last_place_everywhere": sum(any(x == moves / PLACES for x, _ in seen) for seen in arrivals)}


def report(args, figures: dict) -> None:
    values = figures["latencies"]
    print(f"{args.followers} followers, the pointer moved {figures['moves']} times in {args.seconds:.0f} s "
          f"(one move per {MOVE_EVERY_SECONDS * 1000:.0f} ms) against {args.url or args.server}")
    print(f"  POST → pointer event: p50 {percentile(values, 50):.0f} ms, p90 {percentile(values, 90):.0f} ms, "
          f"p99 {percentile(values, 99):.0f} ms, max {max(values):.0f} ms ({len(values)} arrivals)")
    seen = sorted(figures["seen"])
    print(f"  places a follower saw: median {seen[len(seen) // 2]} of {figures['moves'] + 1}, fewest {seen[0]} "
          "(a stream sends only the newest)")
    print(f"  {figures['last_place_everywhere']} of {args.followers} saw the last place, "
          f"{figures['hidden_everywhere']} of {args.followers} saw it hidden")
    ok = percentile(values, 50) < 200 and figures["hidden_everywhere"] == args.followers == figures["last_place_everywhere"]
    print(f"  {'meets' if ok else 'MISSES'} the target: p50 under 200 ms, the last place and the hiding seen by everyone")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--server", choices=("gunicorn", "flask"), default="gunicorn")
    parser.add_argument("--url", help="an already running server (then --server is ignored)")
    args = parser.parse_args()
    process = None
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url
        if url is None:
            process, url = start_server(args.server, Path(tmp) / "cache", None)
        try:
            report(args, asyncio.run(run(url, args.followers, args.seconds)))
        finally:
            if process is not None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)


if __name__ == "__main__":
    main()
