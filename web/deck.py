"""The deck's pages: every slide at /slides/<n>, and the slide list as JSON."""
import threading
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, jsonify, render_template, request

from demos import DEMOS
from slides import DeckCache, Slide
from web.assets import gzip_bytes, gzipped_response
from web.auth import is_instructor
from web.jsonio import json_error

bp = Blueprint("deck", __name__)


def get_deck() -> list[Slide]:
    return current_app.extensions["deck"].get()


class PageCache:
    """Each slide's page rendered (and gzipped: 87 KB → about 15 KB for the Wi-Fi) once, as a whole
    class opens the same pages; again after an edit. The first request renders every slide under a
    lock, so 200 students arriving at once wait for one rendering instead of each doing it."""

    def __init__(self):
        self.deck = None
        self.pages: dict[tuple[int, bool], tuple[bytes, bytes]] = {}
        self.lock = threading.Lock()

    def page(self, deck: list[Slide], n: int, print_mode: bool) -> tuple[bytes, bytes]:
        key = (n, print_mode)
        if deck is self.deck and key in self.pages:
            return self.pages[key]
        with self.lock:
            if deck is not self.deck:  # the slide files changed (DeckCache read them again): render them all
                self.pages = {(i, False): self.render(deck, i, False) for i in range(1, len(deck) + 1)}
                self.deck = deck
            if key not in self.pages:
                self.pages[key] = self.render(deck, n, print_mode)
            return self.pages[key]

    @staticmethod
    def render(deck: list[Slide], n: int, print_mode: bool) -> tuple[bytes, bytes]:
        html = render_template("deck/deck.html", deck=deck, current=deck[n - 1], demos=DEMOS,
                               print_mode=print_mode).encode()
        return html, gzip_bytes(html)


def render_deck(n: int):
    deck = get_deck()
    if not 1 <= n <= len(deck):
        abort(404)
    page = current_app.extensions["deck_pages"].page(deck, n, "print" in request.args)
    return gzipped_response(*page, mimetype="text/html")


@bp.get("/")
def index():
    return render_deck(1)


@bp.get("/slides/<int:n>")
def slide(n: int):
    return render_deck(n)


@bp.get("/presenter")
def presenter():
    """The lecturer's window: notes, next slide, clock and timer, the demo's status."""
    deck = get_deck()
    return render_template("deck/presenter.html", deck=deck)


@bp.get("/api/notes")
def api_notes():
    """Every slide's speaker notes (HTML from our own Markdown), for the presenter view: the
    instructor only, so no student page or request carries them."""
    if not is_instructor():
        return json_error(403, "Speaker notes are for the instructor: send the instructor token.")
    return jsonify(notes={str(s.n): s.notes_html for s in get_deck()})


@bp.get("/api/slides")
def api_slides():
    return jsonify(slides=[s.summary() for s in get_deck()])


def init_app(app: Flask) -> None:
    app.extensions["deck"] = DeckCache(Path(app.config["SLIDES_DIR"]))
    app.extensions["deck_pages"] = PageCache()
    app.register_blueprint(bp)
