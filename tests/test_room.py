"""`flask --app app serve`: the lecture on the hall's network, only with an instructor token, and
the join address printed for the lecturer. The tests send traffic to loopback only."""
import json
import os
import pty
import re
import select
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.live_server import ROOT, free_port
from web import room

TOKEN = "a-secret-for-the-test"


def environment_without_token(tmp_path: Path) -> dict:
    """This environment with no instructor token, a fresh cache and a token file in `tmp_path`."""
    env = {name: value for name, value in os.environ.items() if name != "FLASK_INSTRUCTOR_TOKEN"}
    return {**env, "FLASK_CACHE_DIR": str(tmp_path / "cache"), "FLASK_INSTRUCTOR_TOKEN_FILE": str(tmp_path / "token")}


# Straight to this machine, whatever proxy the environment names.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def ask(url: str, token: str | None = None) -> dict:
    headers = {"X-Instructor-Token": token} if token else {}
    with DIRECT.open(urllib.request.Request(url, headers=headers), timeout=5) as answer:
        return json.loads(answer.read())


class Room:
    """`flask --app app serve` in a child process (one small worker), its output read as it comes."""

    def __init__(self, tmp_path: Path, host: str, env: dict | None = None, terminal: bool = False):
        self.port = free_port()
        self.output = b""
        env = {**environment_without_token(tmp_path), "PYTHONUNBUFFERED": "1", "WEB_CONCURRENCY": "1",
               "GREATSHIFT_THREADS": "8", **(env or {})}
        if terminal:  # its output on a terminal of its own, as a lecturer's would be
            self.reader, writer = pty.openpty()
        else:
            self.reader, writer = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "app", "serve", "--host", host, "--port", str(self.port)],
            cwd=ROOT, env=env, stdout=writer, stderr=writer, stdin=subprocess.DEVNULL)
        os.close(writer)

    def read_until(self, pattern: str, timeout: float = 120) -> re.Match:
        deadline = time.monotonic() + timeout
        while not (found := re.search(pattern, self.output.decode(errors="replace"))):
            if time.monotonic() > deadline:
                raise AssertionError(f"no {pattern!r} in the output within {timeout} s: {self.output.decode(errors='replace')}")
            if select.select([self.reader], [], [], 0.5)[0]:
                try:
                    chunk = os.read(self.reader, 65536)
                except OSError:  # a terminal whose other end closed
                    chunk = b""
                if not chunk and self.process.poll() is not None:
                    raise AssertionError(f"the server exited ({self.process.returncode}): {self.output.decode(errors='replace')}")
                self.output += chunk
        return found

    def wait_until_serving(self, address: str) -> None:
        self.read_until(r"Booting worker")
        deadline = time.monotonic() + 120
        while True:
            try:
                ask(f"http://{address}:{self.port}/api/slides")
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)  # the worker is still loading the app

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        os.close(self.reader)


@pytest.fixture
def rooms():
    started = []

    def start(*args, **kwargs) -> Room:
        started.append(Room(*args, **kwargs))
        return started[-1]
    yield start
    for server in started:
        server.stop()


# The servers below listen on every interface (0.0.0.0), as in a lecture hall; the tests reach them
# on loopback only, the one address a test may send to.
REACH = "127.0.0.1"


def test_serves_the_network_with_the_token_set_and_prints_where_to_join(tmp_path, rooms):
    server = rooms(tmp_path, "0.0.0.0", env={"FLASK_INSTRUCTOR_TOKEN": TOKEN})
    reach = REACH
    server.wait_until_serving(reach)
    server.read_until("press I and enter the instructor token")
    # The join addresses it printed are this machine's interfaces (read without sending anything); a
    # machine on no network says so instead of printing none.
    printed = re.findall(rf"^ +http://([\d.]+):{server.port}/j$", server.output.decode(), re.MULTILINE)
    assert printed == room.network_addresses()
    if not printed:
        assert "No network address found" in server.output.decode()
    assert TOKEN not in server.output.decode()  # the lecturer set it: it is never echoed
    # The network reaches it; the token, and nothing else, makes the instructor (this machine too).
    assert ask(f"http://{reach}:{server.port}/api/instructor") == {"instructor": False, "token_configured": True}
    assert ask(f"http://{reach}:{server.port}/api/instructor", TOKEN)["instructor"] is True
    with DIRECT.open(f"http://{reach}:{server.port}/j", timeout=5) as page:
        assert page.url.endswith("/slides/1")


def test_a_token_it_makes_is_printed_to_the_terminal_only_and_unlocks_the_instructor(tmp_path, rooms):
    server = rooms(tmp_path, "0.0.0.0", terminal=True)
    token = server.read_until(r"The instructor token: (\S+)").group(1)
    reach = REACH
    server.wait_until_serving(reach)
    kept = tmp_path / "token"
    assert kept.read_text().strip() == token
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # readable by the lecturer's user only
    assert ask(f"http://{reach}:{server.port}/api/instructor", token)["instructor"] is True
    assert ask(f"http://{reach}:{server.port}/api/instructor", "a-guess")["instructor"] is False
    with DIRECT.open(f"http://{reach}:{server.port}/slides/1", timeout=5) as page:
        assert token not in page.read().decode()


def test_on_this_machine_only_the_token_is_printed_and_is_the_only_way_to_lecture(tmp_path, rooms):
    server = rooms(tmp_path, "127.0.0.1", terminal=True)
    token = server.read_until(r"The instructor token: (\S+)").group(1)
    server.wait_until_serving(REACH)
    assert ask(f"http://{REACH}:{server.port}/api/instructor") == {"instructor": False, "token_configured": True}
    assert ask(f"http://{REACH}:{server.port}/api/instructor", token)["instructor"] is True


def test_refuses_the_network_without_a_token_when_told_not_to_make_one(tmp_path):
    refused = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "serve", "--no-new-token", "--port", str(free_port())],
                             cwd=ROOT, env=environment_without_token(tmp_path), capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0
    assert "Refusing to serve on 0.0.0.0 without an instructor token" in refused.stderr
    assert "FLASK_INSTRUCTOR_TOKEN" in refused.stderr
    assert not (tmp_path / "token").exists()


# The rest without starting a server: the command's last step (becoming gunicorn) is recorded instead.

@pytest.fixture
def serve(app, tmp_path, monkeypatch):
    app.config["INSTRUCTOR_TOKEN_FILE"] = str(tmp_path / "token")
    started = []
    monkeypatch.setattr(room.os, "execve", lambda path, args, env: started.append((args, env)))
    monkeypatch.setattr(room, "network_addresses", lambda: ["192.168.1.20"])  # a lecture hall's Wi-Fi

    def serve(*args):
        result = app.test_cli_runner().invoke(args=["serve", *args])
        return result, started[-1] if started else None
    return serve


def test_output_to_a_file_names_the_token_file_but_never_the_token(serve, tmp_path):
    result, (args, env) = serve("--port", "8001")
    token = (tmp_path / "token").read_text().strip()
    assert result.exit_code == 0, result.output
    assert token not in result.output
    assert str(tmp_path / "token") in result.output
    assert "http://192.168.1.20:8001/j" in result.output
    assert "open http://192.168.1.20:8001/, press I" in result.output
    assert env["FLASK_INSTRUCTOR_TOKEN"] == token
    assert token not in " ".join(args)  # not on a command line that other users can list
    assert args[args.index("--bind") + 1] == "0.0.0.0:8001"
    assert "gunicorn.conf.py" in args[args.index("-c") + 1]


def test_a_restart_keeps_the_token_it_made(serve, tmp_path):
    serve()
    first = (tmp_path / "token").read_text()
    _, (_, env) = serve()
    assert (tmp_path / "token").read_text() == first
    assert env["FLASK_INSTRUCTOR_TOKEN"] == first.strip()


def test_this_machine_only_still_has_one_lecturer_the_token_holder(serve, tmp_path):
    # Without a token every browser of this machine would be the lecturer (a student's remote desktop, a
    # second user): on loopback too the command makes, keeps and hands over the token.
    result, (args, env) = serve("--host", "127.0.0.1")
    token = (tmp_path / "token").read_text().strip()
    assert result.exit_code == 0, result.output
    assert "phones cannot join" in result.output
    assert "open http://127.0.0.1:8000/, press I" in result.output
    assert str(tmp_path / "token") in result.output  # where the token is (the output here is not a terminal)
    assert env["FLASK_INSTRUCTOR_TOKEN"] == token
    assert args[args.index("--bind") + 1] == "127.0.0.1:8000"


def test_this_machine_only_is_refused_too_without_a_token_when_told_not_to_make_one(serve, tmp_path):
    result, started = serve("--host", "127.0.0.1", "--no-new-token")
    assert result.exit_code != 0 and started is None
    assert "Refusing to serve on 127.0.0.1 without an instructor token" in result.output
    assert not (tmp_path / "token").exists()


def test_the_public_address_is_the_join_address_when_set(serve, app):
    app.config["PUBLIC_URL"] = "https://lecture.example.org/"
    result, _ = serve()
    assert "https://lecture.example.org/j" in result.output


INTERFACES = {"lo": "127.0.0.1", "wlan0": "192.168.1.20", "docker0": None, "eth0": "10.0.0.5", "eth0:1": "10.0.0.5"}


@pytest.fixture
def interfaces(monkeypatch):
    """The machine's network interfaces as `network_addresses` reads them, made up: loopback, Wi-Fi,
    one with no IPv4 address, and an alias of Ethernet with the same address."""
    import fcntl

    monkeypatch.setattr(room.sys, "platform", "linux")
    monkeypatch.setattr(room.socket, "if_nameindex", lambda: list(enumerate(INTERFACES, start=1)))

    def ioctl(fd, request, packed):
        assert request == room.SIOCGIFADDR
        address = INTERFACES[packed.rstrip(b"\0").decode()]
        if address is None:
            raise OSError(99, "Cannot assign requested address")
        return packed[:20] + socket.inet_aton(address) + packed[24:]
    monkeypatch.setattr(fcntl, "ioctl", ioctl)


def test_the_join_addresses_are_the_interfaces_ipv4_addresses_without_loopback(interfaces):
    assert room.network_addresses() == ["192.168.1.20", "10.0.0.5"]


def test_serve_prints_a_join_address_for_each_interface(interfaces, app, tmp_path, monkeypatch):
    app.config["INSTRUCTOR_TOKEN_FILE"] = str(tmp_path / "token")
    monkeypatch.setattr(room.os, "execve", lambda path, args, env: None)  # it would become gunicorn here
    result = app.test_cli_runner().invoke(args=["serve", "--port", "8001"])
    assert result.exit_code == 0, result.output
    assert re.findall(r"^    (http://\S+)$", result.output, re.MULTILINE) == ["http://192.168.1.20:8001/j", "http://10.0.0.5:8001/j"]
    assert "open http://192.168.1.20:8001/, press I" in result.output


def test_a_machine_on_no_network_says_so_instead_of_a_join_address(app, tmp_path, monkeypatch):
    app.config["INSTRUCTOR_TOKEN_FILE"] = str(tmp_path / "token")
    monkeypatch.setattr(room.os, "execve", lambda path, args, env: None)
    monkeypatch.setattr(room, "network_addresses", lambda: [])
    result = app.test_cli_runner().invoke(args=["serve"])
    assert result.exit_code == 0, result.output
    assert "No network address found: is this machine on the hall's network?" in result.output
    assert "http://<its address>:8000/j" in result.output and "/j\n    " not in result.output


def test_the_join_addresses_read_here_are_this_machines_own():
    addresses = room.network_addresses()  # on a machine with no network, none: the tests above cover the rest
    assert "127.0.0.1" not in addresses and len(addresses) == len(set(addresses))
    for address in addresses:  # each is this machine's own: a socket can be bound to it
        with socket.socket() as probe:
            probe.bind((address, 0))
