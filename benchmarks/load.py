"""A lecture hall at once: N simulated students against the real server for T seconds.

Each student, with a short pause between steps: opens a slide page, fetches a cached demo
result, and now and then subscribes to the progress stream of the job that is training
(reads its first event, then leaves). Meanwhile one training job runs at all times. Prints
requests per second, p50/p99 latency per kind of request, and errors.

Target on a 2-core machine: 200 students for 60 s, 0 errors, p99 under 100 ms for slide
pages and cached results, while one training job runs.

With --poll, a class predicts instead: the lecturer opens slide 4's poll (three choices) and each
student, at a random moment within --seconds (default 10), follows the lecture and the poll
over their two event streams, reads the poll and answers it (a third change their minds once).
Target: 0 errors, every answer counted once (the final counts, and the last counts every
student's stream received, equal the students' last choices), p99 under 100 ms.

With --loop, the class in the loop (benchmarks/class_loop.py): while 200 follow, every student
sends a number within 10 s, 50 send questions within the minute and the others upvote them, and
the lecturer moves the pointer.

    python -m benchmarks.load [--students 200] [--seconds 60] [--server gunicorn|flask] [--url URL] [--poll | --loop]

The client is a small asyncio HTTP/1.1 client of our own: one process, one thread, so that
it takes as little of the machine's CPU from the server as possible.
"""
import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

from benchmarks import class_loop
from benchmarks.load_client import Connection, Results, first_event, open_stream, print_latencies, timed
from benchmarks.stats import percentile
from tests.live_server import ROOT, free_port

CACHED_DEMO = "system_check"


async def student(host, port, deadline, results: Results, job_events: dict, rng: random.Random):
    connection = Connection(host, port)
    try:
        while time.monotonic() < deadline:
            await timed(results, "slide page", connection.request("GET", f"/slides/{rng.randint(1, 13)}"))
            await asyncio.sleep(rng.uniform(0.2, 1.0))
            await timed(results, "cached result", connection.request("POST", f"/api/demos/{CACHED_DEMO}/run", b"{}"))
            await asyncio.sleep(rng.uniform(0.2, 1.0))
            if job_events.get("path") and rng.random() < 0.3:
                await timed(results, "progress stream", first_event(host, port, job_events["path"]))
                await asyncio.sleep(rng.uniform(0.2, 1.0))
    finally:
        connection.close()


async def keep_training(host, port, deadline, job_events: dict, demo: str, params: dict, started_jobs: list):
    """One training job at all times: when it ends, start another (a new seed, so nothing is cached)."""
    connection = Connection(host, port)
    seed = random.randrange(10**6)
    while time.monotonic() < deadline:
        seed += 1
        status, body = await connection.request("POST", f"/api/demos/{demo}/run", json.dumps({**params, "seed": seed}).encode())
        if status != 202:
            continue
        job = json.loads(body)
        job_events["path"] = job["events"]
        started_jobs.append(job["job"])
        while time.monotonic() < deadline:
            status, body = await connection.request("GET", f"/api/jobs/{job['job']}")
            if json.loads(body)["status"] in ("done", "failed"):
                break
            await asyncio.sleep(0.5)
    connection.close()


async def run_load(url: str, students: int, seconds: float, demo: str, params: dict):
    parsed = urlparse(url)
    host, port = parsed.hostname, parsed.port
    results, job_events, started_jobs = Results(), {}, []
    deadline = time.monotonic() + seconds
    trainer = asyncio.create_task(keep_training(host, port, deadline, job_events, demo, params, started_jobs))
    await asyncio.sleep(0.5)  # let the first job start
    rngs = [random.Random(i) for i in range(students)]
    started = time.perf_counter()
    await asyncio.gather(*(student(host, port, deadline, results, job_events, rng) for rng in rngs))
    elapsed = time.perf_counter() - started
    await trainer
    return results, elapsed, started_jobs


POLL_DEMO = "recall_vs_length"  # a poll of three choices (slide 4)


async def last_counts(reader, seen: dict, done: asyncio.Event) -> None:
    """Read a poll's event stream until `done`, keeping the last event's data in seen["data"] (parsed
    only when asked for: the client should take as little of the machine as it can)."""
    data = b""
    while not done.is_set():
        chunk = await reader.read(4096)
        if not chunk:
            return
        data += chunk
        if b"\n\n" in data:
            complete, _, data = data.rpartition(b"\n\n")
            start = complete.rfind(b"data: ")
            if start >= 0:
                seen["data"] = complete[start + 6:].split(b"\n", 1)[0]


def stream_counts(seen: dict) -> list | None:
    return json.loads(seen["data"])["counts"] if "data" in seen else None


async def poll_student(host, port, seconds, results: Results, rng: random.Random, finals: list, streams: list,
                       done: asyncio.Event) -> None:
    """Arrive at a random moment, open the two streams a page opens, read the poll, answer it."""
    await asyncio.sleep(rng.uniform(0, seconds))
    connection = Connection(host, port)
    seen: dict = {}
    try:
        started = time.perf_counter()
        follow = await open_stream(host, port, "/api/follow/events")
        poll = await open_stream(host, port, f"/api/polls/{POLL_DEMO}/events")
        results.record("open streams", time.perf_counter() - started, True)
    except (OSError, RuntimeError, ValueError, IndexError) as error:  # counted; the student still answers
        results.record("open streams", time.perf_counter() - started, False, repr(error))
        follow = poll = None
    if poll is not None:
        streams.append((seen, asyncio.create_task(last_counts(poll[0], seen, done)), follow[1], poll[1]))
    await timed(results, "poll read", connection.request("GET", f"/api/polls/{POLL_DEMO}"))
    choices = [rng.randrange(3)] + ([rng.randrange(3)] if rng.random() < 1 / 3 else [])
    for choice in choices:
        await asyncio.sleep(rng.uniform(0.05, 0.5))
        await timed(results, "poll answer",
                    connection.request("POST", f"/api/polls/{POLL_DEMO}/answer", json.dumps({"choice": choice}).encode()))
    finals.append(choices[-1])
    connection.close()


async def run_poll(urls: list[str], students: int, seconds: float):
    """The whole class answers one poll, student i through server i mod len(urls); returns (results,
    elapsed, expected counts, final counts, stream counts)."""
    addresses = [(parsed.hostname, parsed.port) for parsed in map(urlparse, urls)]
    host, port = addresses[0]
    lecturer = Connection(host, port)  # on the server's machine without a token: the instructor
    for action in ("reset", "open"):
        status, body = await lecturer.request("POST", f"/api/polls/{POLL_DEMO}", json.dumps({"action": action}).encode())
        if status != 200:
            raise SystemExit(f"cannot {action} the poll: HTTP {status} {body[:200]!r} (set no instructor token)")
    results, finals, streams, done = Results(), [], [], asyncio.Event()
    started = time.perf_counter()
    await asyncio.gather(*(poll_student(*addresses[i % len(addresses)], seconds, results, random.Random(i), finals,
                                        streams, done) for i in range(students)))
    elapsed = time.perf_counter() - started
    expected = [finals.count(choice) for choice in range(3)]
    deadline = time.monotonic() + 5  # the streams send the last counts within a quarter of a second
    while time.monotonic() < deadline and any(stream_counts(seen) != expected for seen, *_ in streams):
        await asyncio.sleep(0.05)
    done.set()
    last = [stream_counts(seen) for seen, *_ in streams]
    for _, task, *writers in streams:
        task.cancel()
        for writer in writers:
            writer.close()
    lecturer.close()  # idle for longer than the server keeps a connection: a new one
    status, body = await lecturer.request("GET", f"/api/polls/{POLL_DEMO}")
    await lecturer.request("POST", f"/api/polls/{POLL_DEMO}", json.dumps({"action": "close"}).encode())
    lecturer.close()
    return results, elapsed, expected, json.loads(body)["counts"], last


def report_poll(args, results: Results, elapsed: float, expected: list, final: list, stream_counts: list) -> None:
    total = sum(len(v) for v in results.latency.values()) + sum(results.errors.values())
    errors = sum(results.errors.values())
    print(f"{args.students} students answering a poll within {args.seconds:.0f} s against {args.url or args.server}")
    print(f"  {total} requests in {elapsed:.1f} s, {errors} errors")
    print_latencies(results, ("open streams", "poll read", "poll answer"))
    agreeing = sum(counts == expected for counts in stream_counts)
    print(f"  students' last choices {expected}; server's counts {final}; "
          f"{agreeing} of {len(stream_counts)} event streams ended on those counts")
    slow = [kind for kind in ("poll read", "poll answer") if percentile(results.latency[kind], 99) >= 0.1]
    ok = not errors and not slow and final == expected and agreeing == args.students
    print(f"  {'meets' if ok else 'MISSES'} the target: 0 errors, every answer counted once, p99 under 100 ms")


def start_server(kind: str, cache_dir: Path, train_threads: str | None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "FLASK_CACHE_DIR": str(cache_dir)}
    if train_threads:
        env["FLASK_TORCH_THREADS"] = train_threads
    if kind == "gunicorn":
        command = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
                   "--access-logfile", "/dev/null", "app:create_app()"]
    else:
        command = [sys.executable, "-m", "flask", "--app", "app", "run", "--port", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1)
            return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def warm(url: str, demo: str) -> None:
    request = urllib.request.Request(f"{url}/api/demos/{demo}/run", data=b"{}", headers={"Content-Type": "application/json"})
    body = json.load(urllib.request.urlopen(request))
    if body.get("events"):
        urllib.request.urlopen(url + body["events"]).read()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--seconds", type=float, help="how long the load lasts (default 60; with --poll, 10)")
    parser.add_argument("--poll", action="store_true", help="the class answers a poll instead (see above)")
    parser.add_argument("--loop", action="store_true",
                        help="the class in the loop instead: numbers, questions, upvotes, the pointer (benchmarks/class_loop.py)")
    parser.add_argument("--answer-seconds", type=float, default=10, help="with --loop: when every number is in")
    parser.add_argument("--askers", type=int, default=50, help="with --loop: how many students send a question")
    parser.add_argument("--server", choices=("gunicorn", "flask"), default="gunicorn")
    parser.add_argument("--url", help="an already running server (then --server is ignored)")
    parser.add_argument("--train-demo", default="line_fit")
    parser.add_argument("--train-params", default='{"steps": 5000, "points": 4096}')
    parser.add_argument("--torch-threads", help="FLASK_TORCH_THREADS for the server it starts")
    args = parser.parse_args()
    args.seconds = args.seconds or (10 if args.poll else 60)

    process = None
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url
        if url is None:
            process, url = start_server(args.server, Path(tmp) / "cache", args.torch_threads)
        try:
            if args.loop:
                parsed = urlparse(url)
                class_loop.report(args, *asyncio.run(class_loop.run_class_loop(parsed.hostname, parsed.port, args)))
                return
            if args.poll:
                report_poll(args, *asyncio.run(run_poll([url], args.students, args.seconds)))
                return
            warm(url, CACHED_DEMO)
            results, elapsed, jobs = asyncio.run(run_load(url, args.students, args.seconds, args.train_demo,
                                                          json.loads(args.train_params)))
        finally:
            if process is not None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)

    total = sum(len(v) for v in results.latency.values()) + sum(results.errors.values())
    print(f"{args.students} students for {args.seconds:.0f} s against {args.url or args.server} "
          f"({len(jobs)} training jobs of {args.train_demo} ran meanwhile)")
    print(f"  {total} requests, {total / elapsed:.0f} requests/s, {sum(results.errors.values())} errors")
    print_latencies(results, ("slide page", "cached result", "progress stream"))
    slow = [kind for kind in ("slide page", "cached result")
            if results.latency[kind] and percentile(results.latency[kind], 99) >= 0.1]
    ok = not sum(results.errors.values()) and not slow
    print(f"  {'meets' if ok else 'MISSES'} the target: 0 errors, p99 under 100 ms for slide pages and cached results")


if __name__ == "__main__":
    main()
