"""`flask --app app serve`: the lecture for a room. Phones on the hall's network can join, and only
the lecturer holds the instructor token.

It listens on every interface (port 8000) through gunicorn and the project's gunicorn.conf.py, the
server measured with 200 students (several processes, many threads: an open event stream holds a
thread), so the same command serves one laptop in a seminar room and one GPU server for a hall.
It always has an instructor token, whatever the address, since without one every browser that
reaches it (on this machine, every one) would be the lecturer: FLASK_INSTRUCTOR_TOKEN, else the one
an earlier start made, else a new one. A
token it makes is kept in a file only its user can read (FLASK_INSTRUCTOR_TOKEN_FILE, default
instance/instructor-token), so a restart leaves the lecturer's browser unlocked, and is printed
only to a terminal: with the output going to a file, it names the token's file instead.
"""
import ipaddress
import os
import secrets
import socket
import struct
import sys
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from web.join import SHORT_PATH

DEFAULT_PORT = 8000
TOKEN_FILE = "instructor-token"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: it may be reachable from the network


def is_every_interface(host: str) -> bool:
    return host in ("0.0.0.0", "::")


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses on its network interfaces (Wi-Fi, Ethernet), loopback left out:
    where phones on the same network reach it. Read from the interfaces themselves, so nothing is
    sent and no name is looked up. Linux only; elsewhere none is known (FLASK_PUBLIC_URL says it)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl  # Unix only: imported here so the app itself also starts elsewhere

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:  # SIOCGIFADDR: the interface's IPv4 address (OSError: it has none)
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue
            address = socket.inet_ntoa(packed[20:24])
            if not ipaddress.ip_address(address).is_loopback and address not in found:
                found.append(address)
    return found


SIOCGIFADDR = 0x8915


def join_addresses(host: str, port: int) -> list[str]:
    """Where the class joins: FLASK_PUBLIC_URL if set, else this machine's network address."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return [str(public).rstrip("/") + SHORT_PATH]
    hosts = network_addresses() if is_every_interface(host) else [host]
    return [f"http://{url_host(h)}:{port}{SHORT_PATH}" for h in hosts]


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def token_file() -> Path:
    configured = current_app.config.get("INSTRUCTOR_TOKEN_FILE")
    return Path(configured) if configured else Path(current_app.instance_path) / TOKEN_FILE


def saved_token(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except FileNotFoundError:
        return None


def save_new_token(path: Path) -> str:
    """A new token (16 letters and digits, in groups of four to type), in a file only this user reads."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread
    token = "-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(4))
    path.parent.mkdir(parents=True, exist_ok=True)
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="utf-8") as file:
        file.write(token + "\n")
    return token


def instructor_token(host: str, new_token: bool) -> tuple[str, str]:
    """The token this server will ask for, and where it came from: "set", "saved" or "new"."""
    configured = current_app.config.get("INSTRUCTOR_TOKEN")
    if configured:
        return str(configured), "set"
    path = token_file()
    saved = saved_token(path)
    if saved:
        return saved, "saved"
    if not new_token:
        raise click.ClickException(
            f"Refusing to serve on {host} without an instructor token: anyone who reaches it could move the "
            "class, open polls and retrain. Set FLASK_INSTRUCTOR_TOKEN=<a secret>, or leave out --no-new-token "
            "to have one made and printed here.")
    return save_new_token(path), "new"


def tell_the_lecturer(host: str, port: int, token: str, source: str) -> None:
    echo = click.echo
    addresses = join_addresses(host, port)
    if is_loopback(host):
        lecture = f"http://{url_host(host)}:{port}/"
        echo(f"The lecture: {lecture} (this machine only: phones cannot join; serve on 0.0.0.0, the default, for them)")
    elif addresses:
        lecture = addresses[0].removesuffix(SHORT_PATH) + "/"
        echo("Students join at (slide 1 shows its QR code, J shows it full screen):")
        for address in addresses:
            echo(f"    {address}")
    else:
        lecture = f"http://<this machine's address>:{port}/"
        echo(f"No network address found: is this machine on the hall's network? Students join at http://<its address>:{port}{SHORT_PATH}")
    echo(f"On the lecture laptop open {lecture}, press I and enter the instructor token (once per browser;")
    echo("it unlocks follow mode, polls, Retrain and the speaker notes, on this machine's browser too).")
    if source == "set":
        echo("The instructor token is your FLASK_INSTRUCTOR_TOKEN.")
    elif sys.stdout.isatty():
        echo(f"The instructor token: {token}    (kept in {token_file()}, readable by you only)")
    else:  # the output goes to a file or a pipe, which others may read: the token stays in its own file
        echo(f"The instructor token is in {token_file()} (readable by you only); it is printed only to a terminal.")


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="The address to listen on: 0.0.0.0 is every network this machine is on; 127.0.0.1 this machine only.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
@click.option("--no-new-token", is_flag=True,
              help="Never make up an instructor token: refuse to serve without FLASK_INSTRUCTOR_TOKEN "
                   "(or the token an earlier start saved).")
@with_appcontext
def serve_command(host: str, port: int, no_new_token: bool):
    """Serve the lecture to the room: phones on this network join, and the lecturer alone holds the
    instructor token (made and printed here if FLASK_INSTRUCTOR_TOKEN is not set)."""
    token, source = instructor_token(host, new_token=not no_new_token)
    tell_the_lecturer(host, port, token, source)
    env = {**os.environ, "FLASK_INSTRUCTOR_TOKEN": token}  # for every worker; never on a command line others can list
    root = current_app.root_path
    sys.stdout.flush()
    # The process becomes gunicorn: Ctrl+C stops the lecture as it would `flask run`.
    os.execve(sys.executable, [sys.executable, "-m", "gunicorn", "--chdir", root, "-c", str(Path(root) / "gunicorn.conf.py"),
                               "--bind", f"{url_host(host)}:{port}", "app:create_app()"], env)


def init_app(app: Flask) -> None:
    app.cli.add_command(serve_command)
