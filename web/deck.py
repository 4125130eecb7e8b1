"""The deck's pages: every slide at /slides/<n>, and the slide list as JSON."""
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, jsonify, render_template, request

from demos import DEMOS
from slides import DeckCache, Slide

bp = Blueprint("deck", __name__)


def get_deck() -> list[Slide]:
    return current_app.extensions["deck"].get()


class PageCache:
    """Each slide's page rendered once (a whole class opens the same pages), again after an edit."""

    def __init__(self):
        self.deck = None
        self.pages: dict[tuple[int, bool], str] = {}

    def page(self, deck: list[Slide], n: int, print_mode: bool) -> str:
        if deck is not self.deck:  # the slide files changed: DeckCache read them again
            self.deck, self.pages = deck, {}
        key = (n, print_mode)
        if key not in self.pages:
            self.pages[key] = render_template("deck/deck.html", deck=deck, current=deck[n - 1], demos=DEMOS,
                                              print_mode=print_mode)
        return self.pages[key]


def render_deck(n: int):
    deck = get_deck()
    if not 1 <= n <= len(deck):
        abort(404)
    return current_app.extensions["deck_pages"].page(deck, n, "print" in request.args)


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


@bp.get("/api/slides")
def api_slides():
    return jsonify(slides=[s.summary() for s in get_deck()])


def init_app(app: Flask) -> None:
    app.extensions["deck"] = DeckCache(Path(app.config["SLIDES_DIR"]))
    app.extensions["deck_pages"] = PageCache()
    app.register_blueprint(bp)
