"""Thousands of phones following the lecture: N simulated followers spread over S web servers (gunicorn,
gunicorn.conf.py) while the lecturer changes slides for T seconds. Not a timed test.

    python -m benchmarks.followers [--backend redis|files] [--servers 2] [--followers 2000] [--seconds 60]
                                   [--every 2] [--workers 2] [--worker-class gevent|gthread] [--poll]

With --backend redis it starts a Redis of its own (tests/redis_server.py) and the servers share it, with
FLASK_TRAINING=worker, so gunicorn.conf.py picks the gevent worker unless --worker-class says otherwise
(no training worker runs: nothing here trains). With --backend files the servers are the embedded kind
(the cache folder's board, training in the web processes, so gthread). The lecturer holds the instructor
token and posts every slide change to the first server; each follower (a student: no token) reads its
follow stream. Prints p50 and p99 from the lecturer's POST to each follower's event, errors (streams
refused or broken, events missed) and each server's memory (RSS of its master and workers together).

With --poll, 200 students (--followers) answer slide 4's poll within 10 s (--seconds) through every server
(benchmarks/load.py --poll, student i on server i mod S): every answer counted once, p99 latency.
The servers then have no instructor token, as in load.py: every loopback client sees the counts.

The client is one asyncio process (benchmarks/load_client.py): at 2,000 followers its own event loop
takes part of the latency it reports, on a machine it shares with the servers.
"""
import argparse
import asyncio
import json
import os
import resource
import signal
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlparse

from benchmarks import load
from benchmarks.load_client import Connection, Results, open_stream, print_latencies
from tests.redis_server import RedisServer

TOKEN = "benchmark-lecturer"  # the servers' FLASK_INSTRUCTOR_TOKEN: followers on this machine are students
OPENING_AT_ONCE = 100  # followers connecting at the same moment (a class arriving, not one SYN flood)
OPEN_SECONDS = 20  # a stream not answered within this is counted an error


def raise_file_limit() -> None:
    """Every follower is an open socket, here and in the servers (which inherit this limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (gunicorn's master and workers), in MB."""
    pids = [pid] + [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()
                    and parent_of(int(entry.name)) == pid]
    total_kb = 0
    for each in pids:
        try:
            status = Path(f"/proc/{each}/status").read_text()
        except OSError:
            continue  # gone meanwhile
        total_kb += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total_kb / 1024


def parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


class Lecture:
    """The lecturer's slide changes as the followers see them: slide → its latest change's number, and
    when each change was posted."""

    def __init__(self):
        self.changes: dict[int, int] = {}
        self.posted_at: list[float] = [0.0]  # change number → when (change 0: the slide before the first)

    @property
    def count(self) -> int:
        return len(self.posted_at) - 1

    def posting(self, n: int) -> None:
        self.posted_at.append(time.perf_counter())
        self.changes[n] = self.count


async def follower(host: str, port: int, lecture: Lecture, results: Results, opened: list, done: asyncio.Event,
                   gate: asyncio.Semaphore) -> None:
    """Open the follow stream, then time every slide change it brings until `done`."""
    async with gate:
        try:
            # A gthread server with every thread taken leaves the request unanswered: an error, not a hang.
            reader, writer = await asyncio.wait_for(open_stream(host, port, "/api/follow/events"), OPEN_SECONDS)
        except (OSError, RuntimeError, ValueError, IndexError) as error:  # TimeoutError is an OSError
            results.record("open stream", 0, False, repr(error))
            return
    opened.append(writer)
    last_change, buffer = 0, b""
    try:
        while not done.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                raise ConnectionError("the server ended the follow stream")
            buffer += chunk
            *events, buffer = buffer.split(b"\n\n")
            for event in events:
                if b"event: follow" not in event:
                    continue  # the heartbeat's comment
                change = lecture.changes.get(json.loads(event.rpartition(b"data: ")[2])["n"], 0)
                # A stream sends the newest state: behind by two changes, it skips the older one (by
                # design: a phone shows where the lecture is). Each change counts as reached then.
                now = time.perf_counter()
                for reached in range(last_change + 1, change + 1):
                    results.record("slide change", now - lecture.posted_at[reached], True)
                last_change = max(last_change, change)
    except (OSError, ValueError) as error:
        if not done.is_set():
            results.record("stream", 0, False, repr(error))


async def lecturer(host: str, port: int, lecture: Lecture, seconds: float, every: float, slides: int,
                   results: Results) -> None:
    """Change slides every `every` seconds for `seconds` (the POST is the lecturer's key)."""
    connection = Connection(host, port, {"X-Instructor-Token": TOKEN})
    deadline = time.monotonic() + seconds
    n = 1
    while time.monotonic() < deadline:
        await asyncio.sleep(every)
        n = n % slides + 1
        lecture.posting(n)
        status, body = await connection.request("POST", "/api/follow", json.dumps({"on": True, "n": n}).encode())
        if status != 200:
            results.record("lecturer", 0, False, f"HTTP {status} {body[:100]!r}")
    connection.close()


async def run_followers(urls: list[str], followers: int, seconds: float, every: float, server_pids: list[int]):
    """Connect the followers, change slides; returns (results, changes, followers connected, RSS per server)."""
    addresses = [(parsed.hostname, parsed.port) for parsed in map(urlparse, urls)]
    setup = Connection(*addresses[0], {"X-Instructor-Token": TOKEN})
    status, body = await setup.request("GET", "/api/slides")
    slides = len(json.loads(body)["slides"])
    await setup.request("POST", "/api/follow", json.dumps({"on": True, "n": 1}).encode())
    setup.close()
    lecture, results, opened, done = Lecture(), Results(), [], asyncio.Event()
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    tasks = [asyncio.create_task(follower(*addresses[i % len(addresses)], lecture, results, opened, done, gate))
             for i in range(followers)]
    while len(opened) + sum(results.errors.values()) < followers:
        await asyncio.sleep(0.1)
    await asyncio.sleep(2)  # every stream past its first event
    memory = [rss_mb(pid) for pid in server_pids]
    await lecturer(*addresses[0], lecture, seconds, every, slides, results)
    deadline = time.monotonic() + 10  # the last change reaches everyone, or it is counted missed
    while len(results.latency["slide change"]) < lecture.count * len(opened) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    memory = [max(before, rss_mb(pid)) for before, pid in zip(memory, server_pids)]
    done.set()
    for writer in opened:
        writer.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return results, lecture.count, len(opened), memory


def report_followers(args, results: Results, changes: int, connected: int, memory: list[float]) -> None:
    received = len(results.latency["slide change"])
    missed = changes * connected - received
    errors = sum(results.errors.values()) + missed
    print(f"{args.followers} followers on {args.servers} server(s) ({args.backend} board, {args.worker_class} "
          f"workers × {args.workers}), {changes} slide changes in {args.seconds:.0f} s")
    print(f"  {connected} streams open; {received} of {changes * connected} changes reached their followers; "
          f"{errors} errors ({missed} changes never reached)")
    print_latencies(results, ("slide change",))
    print("  servers' memory: " + ", ".join(f"{mb:.0f} MB" for mb in memory))


def start_servers(args, folder: Path) -> list:
    """The web servers (load.start_server: gunicorn, gunicorn.conf.py), configured through the environment."""
    os.environ.update({"WEB_CONCURRENCY": str(args.workers), "FLASK_CALIBRATE": "0"})
    os.environ.pop("FLASK_INSTRUCTOR_TOKEN", None)
    if not args.poll:
        os.environ["FLASK_INSTRUCTOR_TOKEN"] = TOKEN
    if args.worker_class:
        os.environ["GREATSHIFT_WORKER_CLASS"] = args.worker_class
    return [load.start_server("gunicorn", folder / f"cache-{i}", None) for i in range(args.servers)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("redis", "files"), default="redis")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--followers", type=int, help="default 2000; with --poll, 200 students")
    parser.add_argument("--seconds", type=float, help="how long the lecturer changes slides (default 60; --poll: 10)")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between the lecturer's slide changes")
    parser.add_argument("--workers", type=int, default=2, help="WEB_CONCURRENCY of each server")
    parser.add_argument("--worker-class", choices=("gevent", "gthread"),
                        help="GREATSHIFT_WORKER_CLASS; default: gunicorn.conf.py's choice")
    parser.add_argument("--poll", action="store_true", help="a class answers a poll instead (see above)")
    args = parser.parse_args()
    args.followers = args.followers or (200 if args.poll else 2000)
    args.seconds = args.seconds or (10 if args.poll else 60)
    if args.backend == "files" and args.servers > 1:
        parser.error("the files board is one machine's: one server (its workers share the folder)")
    raise_file_limit()

    with tempfile.TemporaryDirectory() as tmp:
        redis_server = None
        if args.backend == "redis":
            redis_server = RedisServer(Path(tmp)).start()
            os.environ.update({"FLASK_REDIS_URL": redis_server.url, "FLASK_TRAINING": "worker"})
        servers = start_servers(args, Path(tmp))
        args.worker_class = args.worker_class or ("gevent" if args.backend == "redis" else "gthread")
        urls = [url for _, url in servers]
        try:
            if args.poll:
                load.report_poll(SimpleNamespace(students=args.followers, seconds=args.seconds, url=" and ".join(urls)),
                                 *asyncio.run(load.run_poll(urls, args.followers, args.seconds)))
            else:
                report_followers(args, *asyncio.run(run_followers(urls, args.followers, args.seconds, args.every,
                                                                  [process.pid for process, _ in servers])))
        finally:
            for process, _ in servers:
                process.send_signal(signal.SIGTERM)
            for process, _ in servers:
                process.wait(timeout=30)
            if redis_server is not None:
                redis_server.stop()


if __name__ == "__main__":
    main()
