"""Our own CSS, images and JavaScript, served the way a phone on lecture-hall Wi-Fi needs them:

- the JavaScript as one file per page: the ES modules in `static/js/` bundled (web/bundle.py), so
  a page asks for one script instead of a chain of modules, each found only once its importer
  has arrived;
- the stylesheets as one file: a page waits for every stylesheet before it paints, and a phone
  on the hall's Wi-Fi pays a round trip for each beyond the few it asks for at once;
- every file at a URL that carries a hash of its content (`/assets/css/deck.3f2a91c0b7d4.css`),
  cached by browsers for a year as immutable: a repeat visit asks the server for none of them,
  and an edited file gets a new URL;
- gzipped for browsers that accept it (all do).

Each file is read, bundled, hashed and compressed once per process (again after an edit when the
app runs in debug mode).
"""
import hashlib
import mimetypes
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, request

from web.assets import gzip_bytes, gzipped_response, kept_for_a_year
from web.bundle import as_browser_module, bundle

bp = Blueprint("static_assets", __name__)

# A page's script: the bundle of its entry module.
SCRIPTS = {"js/main.bundle.js": "js/main.js", "js/presenter.bundle.js": "js/presenter/main.js"}
# The pages' stylesheet: these files joined, in this order, then every file in css/demos/ in name order
# (a demo's styles are found by their file alone; each styles only its own classes, so their order does
# not matter). None has a relative url() or an @import.
STYLESHEETS = {"css/deck.bundle.css": ("css/deck.css", "css/polls.css", "css/questions.css")}
DEMO_STYLESHEETS = "css/demos"
# Every bundle, served and written by `flask export` alike.
ENTRY_POINTS = {**SCRIPTS, **STYLESHEETS}
HASHED = re.compile(r"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{12})(?P<suffix>\.[a-z0-9]+)$")


@dataclass(frozen=True)
class Asset:
    raw: bytes
    gzipped: bytes
    mimetype: str
    digest: str
    stamp: tuple  # the files it was made from, and the newest one's modification time (Assets.stamp)


class Assets:
    def __init__(self, static_dir: Path):
        self.static_dir = static_dir
        self.built: dict[str, Asset] = {}
        self.lock = threading.Lock()

    def sources(self, name: str) -> list[Path]:
        if name in SCRIPTS:  # a bundle depends on every module (a cheap, safe over-estimate)
            return sorted((self.static_dir / "js").rglob("*.js"))
        if name in STYLESHEETS:
            return [self.static_dir / part for part in STYLESHEETS[name]] + \
                sorted((self.static_dir / DEMO_STYLESHEETS).glob("*.css"))
        return [self.static_dir / name]

    def get(self, name: str, check_for_edits: bool = False) -> Asset:
        asset = self.built.get(name)
        if asset is not None and not (check_for_edits and self.stamp(name) != asset.stamp):
            return asset
        with self.lock:
            asset = self.build(name)
            self.built[name] = asset
            return asset

    def stamp(self, name: str) -> tuple:
        """The files it is made from and the newest one's modification time: either changes after an edit,
        a file added (a new renderer) or a file removed."""
        sources = self.sources(name)
        return tuple(sources), max(path.stat().st_mtime for path in sources)

    def build(self, name: str) -> Asset:
        path = self.static_dir / name
        if name in SCRIPTS:
            raw = bundle(self.static_dir / SCRIPTS[name], self.static_dir).encode()
        elif name in STYLESHEETS:
            raw = b"\n".join(part.read_bytes() for part in self.sources(name))
        elif path.resolve().is_relative_to(self.static_dir.resolve()) and path.is_file():
            raw = path.read_bytes()
        else:
            raise FileNotFoundError(name)
        mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        return Asset(raw, gzip_bytes(raw), mimetype, hashlib.sha256(raw).hexdigest()[:12], self.stamp(name))


def get_assets() -> Assets:
    return current_app.extensions["static_assets"]


def hashed_name(name: str) -> str:
    """`css/deck.css` → `css/deck.<hash of its content>.css`."""
    digest = get_assets().get(name, current_app.debug).digest
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{digest}.{suffix}"


@bp.get("/assets/<path:hashed>")
def asset(hashed: str):
    match = HASHED.match(hashed)
    if not match:
        abort(404)
    name = match["stem"] + match["suffix"]
    try:
        found = get_assets().get(name, current_app.debug)
    except (FileNotFoundError, OSError):
        abort(404)
    response = gzipped_response(found.raw, found.gzipped, found.mimetype)
    if match["digest"] == found.digest:
        kept_for_a_year(response)
    else:  # a page from before an edit: the file as it is now, not to be kept
        response.cache_control.no_cache = True
    response.set_etag(f"{found.digest}-{response.headers.get('Content-Encoding', 'raw')}")
    return response.make_conditional(request)


@bp.get("/modules/<path:name>")
def module(name: str):
    """With FLASK_SCRIPT_MODULES=1, a page loads its ES modules one by one as the browser finds them, each
    as written (to read them in the browser's tools): slower on a phone than the bundle (docs/benchmarks.md)."""
    path = (Path(current_app.static_folder) / "js" / name).resolve()
    if not current_app.config.get("SCRIPT_MODULES") or not path.is_relative_to(Path(current_app.static_folder).resolve()) \
            or path.suffix != ".js" or not path.is_file():
        abort(404)
    raw = as_browser_module(path).encode()
    response = gzipped_response(raw, gzip_bytes(raw), "text/javascript")
    response.cache_control.no_cache = True  # asked again each visit, answered "not modified" until edited
    response.set_etag(f"{hashlib.sha256(raw).hexdigest()[:12]}-{response.headers.get('Content-Encoding', 'raw')}")
    return response.make_conditional(request)


def init_app(app: Flask) -> None:
    app.extensions["static_assets"] = Assets(Path(app.static_folder))
    app.register_blueprint(bp)
