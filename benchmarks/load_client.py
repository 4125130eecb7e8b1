"""The load benchmarks' client: a small asyncio HTTP/1.1 client of our own (one process, one
thread, so that it takes as little of the machine's CPU from the server as it can), event streams,
and the latencies it records."""
import asyncio
import gzip
import time
from collections import defaultdict

from benchmarks.stats import percentile


class Connection:
    """One keep-alive HTTP/1.1 connection, keeping the cookies the server sets (a browser's), and
    sending `headers` with every request (the lecturer's X-Instructor-Token)."""

    def __init__(self, host: str, port: int, headers: dict[str, str] | None = None):
        self.host, self.port = host, port
        self.headers = headers or {}
        self.reader = self.writer = None
        self.cookies: dict[str, str] = {}

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        """Send on the open connection; if the server had closed it meanwhile (it keeps an idle one a
        few seconds), send again on a new one, as a browser does."""
        if self.writer is not None:
            try:
                return await self.exchange(method, path, body)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return await self.exchange(method, path, body)

    async def exchange(self, method: str, path: str, body: bytes) -> tuple[int, bytes]:
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(body)}\r\n"
                "Accept-Encoding: gzip\r\n")  # as every browser sends
        head += "".join(f"{name}: {value}\r\n" for name, value in self.headers.items())
        if self.cookies:
            head += "Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()) + "\r\n"
        if body:
            head += "Content-Type: application/json\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
            if name.strip().lower() == "set-cookie":
                cookie, _, _ = value.strip().partition(";")
                self.cookies[cookie.partition("=")[0]] = cookie.partition("=")[2]
        content = await self.reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("content-encoding") == "gzip":
            content = gzip.decompress(content)
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, content

    def close(self):
        if self.writer is not None:
            self.writer.close()
            self.writer = self.reader = None


async def first_event(host: str, port: int, path: str) -> None:
    """Open an event stream, read until its first event, and hang up (a student who looks, then leaves)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        status_line = await reader.readline()
        status = int(status_line.split()[1])
        if status != 200:
            raise RuntimeError(f"event stream answered {status}")
        data = b""
        while True:
            chunk = await reader.read(4096)
            if not chunk:
                raise ConnectionError("the event stream ended before its first event")
            data += chunk
            start = data.find(b"event:")
            if start >= 0 and b"\n\n" in data[start:]:
                return
    finally:
        writer.close()


async def open_stream(host: str, port: int, path: str):
    """An event stream, open: (reader, writer) once the server has answered 200."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    status = int((await reader.readline()).split()[1])
    if status != 200:
        writer.close()
        raise RuntimeError(f"event stream {path} answered {status}")
    return reader, writer


class Results:
    def __init__(self):
        self.latency = defaultdict(list)
        self.errors = defaultdict(int)
        self.error_examples = []

    def record(self, kind: str, seconds: float, ok: bool, detail: str = ""):
        if ok:
            self.latency[kind].append(seconds)
        else:
            self.errors[kind] += 1
            if len(self.error_examples) < 5:
                self.error_examples.append(f"{kind}: {detail}")


async def timed(results: Results, kind: str, coroutine):
    started = time.perf_counter()
    try:
        outcome = await coroutine
        ok = outcome is None or outcome[0] < 400
        detail = "" if ok else f"HTTP {outcome[0]}"
    except Exception as error:  # a failed request is counted, and the student carries on
        ok, detail = False, repr(error)
    results.record(kind, time.perf_counter() - started, ok, detail)


def print_latencies(results: Results, kinds: tuple[str, ...]) -> None:
    """One line per kind of request (median, p99, max, errors), then the errors seen."""
    for kind in kinds:
        values = [v * 1000 for v in results.latency[kind]]
        if values:
            print(f"  {kind:<16} n={len(values):6d}  p50 {percentile(values, 50):7.1f} ms  "
                  f"p99 {percentile(values, 99):7.1f} ms  max {max(values):7.1f} ms  errors {results.errors[kind]}")
    for example in results.error_examples:
        print(f"  error: {example}")
