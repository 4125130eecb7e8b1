"""The deck's pages: every slide at /slides/<n>, and the slide list as JSON."""
import threading
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, jsonify, render_template, request

from demos import DEMOS
from demos.runtime.budgets import budget_text, described
from slides import Slide, demo_ids, load_deck
from web.assets import gzip_bytes, gzipped_response
from web.auth import instructor_only
from web.engine import get_engine
from web.poll_secret import kept_from_this_request

bp = Blueprint("deck", __name__)


def get_deck() -> list[Slide]:
    return load_deck(current_app.extensions["slides_dir"])  # read again after an edit, without a restart


class PageCache:
    """Each slide's page rendered (and gzipped: 87 KB → about 15 KB for the Wi-Fi) once, when first
    asked for, as a whole class opens the same pages; again after an edit, and after the result the
    slide opens on changed (its summary is in the page). A page is rendered under a lock, so 200
    students arriving at once wait for one rendering instead of each doing it."""

    def __init__(self):
        # The deck, and its pages by (slide, summary of the result the slide opens on).
        self.rendered: tuple[list[Slide] | None, dict[tuple[int, str | None], tuple[bytes, bytes]]] = (None, {})
        self.lock = threading.Lock()

    def page(self, deck: list[Slide], n: int) -> tuple[bytes, bytes]:
        summary = opening_summary(deck[n - 1])
        rendered_deck, pages = self.rendered
        if deck is rendered_deck and (n, summary) in pages:
            return pages[n, summary]
        with self.lock:
            if deck is not self.rendered[0]:  # the slide files changed (load_deck read them again): start afresh
                self.rendered = (deck, {})
            pages = self.rendered[1]
            for old in [key for key in pages if key[0] == n and key[1] != summary]:
                del pages[old]  # a new result: the old page will not be asked for again
            if (n, summary) not in pages:
                pages[n, summary] = render_page(deck, n, opening=summary)
            return pages[n, summary]


def opening_summary(slide: Slide) -> str | None:
    """The summary of the result a slide opens on by itself (a run carried in from another machine,
    else its cached default: what its widget looks up first), or None: no such result, or a poll on the
    slide, whose result waits for the class's prediction. The page carries it, so a phone reads the
    measured sentence with the slide's first paint, before the page's script has run or asked for the
    result; the widget then shows that same result, or clears the sentence if it shows another."""
    if slide.poll or slide.demo not in DEMOS:
        return None
    engine = get_engine()
    entry = engine.carried_run(slide.demo) or engine.cached(slide.demo)
    return entry.result.get("summary") if entry is not None else None


def demo_budgets(engine) -> dict[str, dict]:
    """Per demo, what its widget is served with on the engine's device class (`demos.runtime.budgets`):
    each parameter's default (the Settings form's values, which Defaults puts back) and the raw
    parameters of its prepared run (None: none here), which the "Longer run" button looks up."""
    return {demo_id: {"defaults": {param["name"]: param["default"] for param in described(demo, engine.device)},
                      "full": engine.full_params(demo)} for demo_id, demo in DEMOS.items()}


def render_page(deck: list[Slide], n: int, print_mode: bool = False, opening: str | None = None) -> tuple[bytes, bytes]:
    """The deck opened at slide n, with the summary of the result that slide opens on (`opening`,
    opening_summary); for printing, with every demo not measured yet said so."""
    unmeasured = unmeasured_demos(deck) if print_mode else set()
    html = render_template("deck/deck.html", deck=deck, current=deck[n - 1], demos=DEMOS,
                           budgets=demo_budgets(get_engine()), print_mode=print_mode,
                           unmeasured=unmeasured, opening_summary=opening).encode()
    return html, gzip_bytes(html)


def unmeasured_demos(deck: list[Slide]) -> set[str]:
    """The slides' demos with no cached default result: the printed page says so."""
    engine = get_engine()
    return {demo for demo in demo_ids(deck) if demo not in DEMOS or engine.cached(demo) is None}


def render_deck(n: int):
    deck = get_deck()
    if not 1 <= n <= len(deck):
        abort(404)
    if "print" in request.args:  # rendered afresh: which demos are measured changes
        page = render_page(deck, n, print_mode=True)
    else:
        page = current_app.extensions["deck_pages"].page(deck, n)
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
@instructor_only("Speaker notes are for the instructor: send the instructor token.")
def api_notes():
    """Every slide's speaker notes (HTML from our own Markdown), for the presenter view: the
    instructor only, so no student page or request carries them."""
    return jsonify(notes={str(s.n): s.notes_html for s in get_deck()})


@bp.get("/api/measured")
def api_measured():
    """What each demo slide's cached default result says, with its device, its budget ("the GPU
    default") and when it was computed, and the same of its prepared run where there is one (this
    machine's longer run, or a run carried in from another machine: `carried` says where and when it
    was measured): the numbers the presenter view shows beside the notes, which hold none. Not, to
    a student, a demo whose poll hides its result."""
    engine = get_engine()
    measured = {}
    for slide in get_deck():
        if slide.is_recap or slide.demo not in DEMOS or kept_from_this_request(slide.demo):
            continue
        runs = [("default", engine.cached(slide.demo)), ("longer run", engine.prepared(slide.demo))]
        measured[str(slide.n)] = [{"run": "carried run" if "carried" in entry.result else run,
                                   "summary": entry.result.get("summary", ""), "device": entry.result.get("device"),
                                   "budget": budget_text(entry.result), "created": entry.created}
                                  for run, entry in runs if entry is not None]
    return jsonify(slides=measured)


@bp.get("/api/slides")
def api_slides():
    return jsonify(slides=[s.summary() for s in get_deck()])


def init_app(app: Flask) -> None:
    app.extensions["slides_dir"] = Path(app.config["SLIDES_DIR"])
    app.extensions["deck_pages"] = PageCache()
    app.register_blueprint(bp)
