"""Server-Sent Events: one loop for every stream the site sends (a job's progress, follow mode).

Under gunicorn's gthread workers each open stream holds a server thread; under its gevent workers
(gunicorn.conf.py) a greenlet of a few kilobytes. Either way their number is capped
(`MAX_EVENT_STREAMS` per process: under gunicorn.conf.py a gthread worker's threads less a
hundred kept for pages and answers, or thousands of greenlets); a stream that cannot
start gets a 503 and the browser's EventSource retries.

One change wakes every stream that waits on it at once (a slide change: every follower of the
process). At most `BUILDING_AT_ONCE` of them build their event at the same moment, since building it
may read the board: on Redis each reader takes a connection from the process's pool (engine/redis_board.py, which
waits for a free one), and a thousand greenlets woken together would otherwise queue there all at once.
A comment goes out every few seconds (`SSE_HEARTBEAT_SECONDS`): it keeps proxies from closing
quiet streams, and it is how the server notices a listener that has gone (the write fails and
the thread ends).
"""
import json
import random
import threading
import time
from contextlib import nullcontext
from typing import Any, Callable, ContextManager, Iterator

from flask import Response, current_app, jsonify, stream_with_context

RECONNECT_MS = 1000  # how soon a dropped browser reconnects (the browsers' default is about 3 s)
BUILDING_AT_ONCE = 32  # streams building an event at once per process; the rest of the Redis pool serves pages
_open = 0
_open_lock = threading.Lock()
_building = threading.BoundedSemaphore(BUILDING_AT_ONCE)  # under gevent, patched: a greenlet waits its turn


def open_streams() -> int:
    return _open


def format_event(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


Event = tuple[str, dict, bool]  # (event name, data, final)


def event_stream(wait_for_change: Callable[[Any, float], Any], current: Callable[[], Event | list[Event]],
                 watching: Callable[[], ContextManager] = nullcontext) -> Response:
    """Send `current()` now and after every change; stop after an event marked final.

    `wait_for_change(seen_version, timeout)` blocks until something changes and returns the
    version now (anything comparable, e.g. a tuple when a stream watches several notices);
    `current()` returns (event name, data, final), or a list of them when one change makes
    several events. `watching()` is held while the stream is open (a job counts who follows it).
    """
    global _open
    with _open_lock:
        if _open >= current_app.config["MAX_EVENT_STREAMS"]:
            response = jsonify(error="Too many live connections right now; try again in a few seconds.", status=503)
            response.status_code = 503
            response.headers["Retry-After"] = "5"
            return response
        _open += 1
    heartbeat = current_app.config["SSE_HEARTBEAT_SECONDS"]

    def stream() -> Iterator[str]:
        global _open
        try:
            with watching():
                retry = f"retry: {RECONNECT_MS}\n"  # sent with the first event
                seen = -1
                while True:
                    # The first event reads the board at once: it takes its turn too.
                    with _building if seen == -1 else nullcontext():
                        version = wait_for_change(seen, heartbeat)
                    if version == seen:
                        yield ": still here\n\n"
                        continue
                    seen = version
                    with _building:
                        events = current()
                    for event, data, final in events if isinstance(events, list) else [events]:
                        yield retry + format_event(event, data)
                        retry = ""
                        if final:
                            return
        finally:  # also when the listener has gone and the server closes the stream
            with _open_lock:
                _open -= 1

    return Response(stream_with_context(stream()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def board_changes(board, name: str, default, coalesce_seconds: float) -> tuple[Callable[[int, float], int], dict]:
    """A `wait_for_change` for `event_stream` that follows one notice of the engine's board, and the
    dict where it keeps the notice's latest value (`["value"]`), from which `current()` builds the
    event without reading the disk again. A burst of changes (a class answering) is one event."""
    latest = {}

    def wait_for_change(seen: int, timeout: float) -> int:
        if seen < 0:  # the first event: the notice as it stands
            version, value = board.read(name, default)
        else:
            version, value = board.wait(name, seen, timeout, default)
            if version != seen:
                # Let the changes arriving with this one go out together; a random share of the
                # pause, so that a room's streams, all woken by one change, do not send at once.
                time.sleep(random.uniform(0.5, 1.5) * coalesce_seconds)
                version, value = board.wait(name, 0, 0, default)  # the newest this process has, at once
        latest["value"] = value
        return version

    return wait_for_change, latest
