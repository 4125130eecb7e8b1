"""Test servers started by forking one process that has imported the app once, instead of a new
Python each time: a server then answers in half a second, not after 2.6 s of importing PyTorch and
the app (26 servers in a run of the suite, on the 2-core machine). Each server still runs the real
`flask --app tests.fixture_app run` command, with its own environment, in a process of its own.

The forking process (`serve`, started once per test process and ended with it) never runs a tensor
operation, so no thread pool exists yet when it forks: each server makes its own."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def serve() -> None:
    """The forking process: imports the app, then reads one request a line from stdin ({"args", "env",
    "log"}) and answers each with the pid of a new server; ends when stdin closes."""
    import flask.cli  # noqa: F401  (everything a server imports, imported here once)
    import werkzeug.serving  # noqa: F401
    import tests.fixture_app  # noqa: F401

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the servers are reaped as they exit
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            run_server(request)
        print(json.dumps({"pid": pid}), flush=True)


def run_server(request: dict) -> None:
    """In the forked child: the log as stdout and stderr, the request's environment, then `flask`."""
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the server may wait for processes of its own
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # line by line, as PYTHONUNBUFFERED would
        sys.stderr = open(2, "w", buffering=1, closefd=False)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(ROOT)
        from flask.cli import cli

        cli.main(args=request["args"], prog_name="flask")
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # noqa: BLE001 (shown in the log, as a new Python would show it)
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


class ForkedProcess:
    """A server forked by the forking process: what the tests use of subprocess.Popen. It is not this
    process's child, so its exit status is unknown: `returncode` is -1 once it has gone."""

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = -1
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout)
            time.sleep(0.02)
        return self.returncode


_forker: subprocess.Popen | None = None


def start_server(args: list[str], env: dict, log: Path) -> ForkedProcess:
    """`flask <args>` in a new server process with exactly `env` as its environment, writing to `log`."""
    global _forker
    if _forker is None or _forker.poll() is not None:
        _forker = subprocess.Popen([sys.executable, "-c", "from tests.forked_servers import serve; serve()"],
                                   cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    _forker.stdin.write(json.dumps({"args": args, "env": env, "log": str(log)}) + "\n")
    _forker.stdin.flush()
    answer = _forker.stdout.readline()
    if not answer:
        raise RuntimeError("the process that forks the test servers exited (its errors are above)")
    return ForkedProcess(json.loads(answer)["pid"])
