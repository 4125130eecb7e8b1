"""Server-Sent Events: one loop for every stream the site sends (a job's progress, follow mode)."""
import json
from typing import Callable, Iterator

from flask import Response, stream_with_context

HEARTBEAT_SECONDS = 15  # a comment this often, so a dead connection is noticed and closed


def format_event(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def event_stream(wait_for_change: Callable[[int, float], int], current: Callable[[], tuple[str, dict, bool]]) -> Response:
    """Send `current()` now and after every change; stop after an event marked final.

    `wait_for_change(seen_version, timeout)` blocks until something changes and returns the
    version now; `current()` returns (event name, data, final).
    """
    def stream() -> Iterator[str]:
        seen = -1
        while True:
            version = wait_for_change(seen, HEARTBEAT_SECONDS)
            if version == seen:
                yield ": still here\n\n"
                continue
            seen = version
            event, data, final = current()
            yield format_event(event, data)
            if final:
                return

    return Response(stream_with_context(stream()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
