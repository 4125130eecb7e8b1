"""`GET /api/recap`: the last slide's table of what the deck measured, read from the cache.

For each slide whose demo has a `headline(result)`, the headline of its cached result: which
model won that test, by how much, and on what device; or a note that it has not run. Where the
instructor computed the demo's longer run (`flask warm --full`), that one speaks for the slide.
"""
import logging

from flask import Blueprint, Flask, jsonify

from demos import DEMOS
from web.deck import get_deck
from web.engine import get_engine

bp = Blueprint("recap", __name__)
log = logging.getLogger(__name__)


def build_recap() -> list[dict]:
    engine = get_engine()
    rows = []
    for slide in get_deck():
        demo = DEMOS.get(slide.demo)
        headline = getattr(demo, "headline", None)
        if headline is None:
            continue
        row = {"n": slide.n, "slide": slide.title, "demo": slide.demo}
        full_params = getattr(demo, "FULL_PARAMS", None)
        longer = engine.cached(slide.demo, full_params) if full_params else None
        entry = longer or engine.cached(slide.demo)
        if entry is None:
            rows.append({**row, "measured": False})
            continue
        try:
            rows.append({**row, "measured": True, "device": entry.result["device"], "longer_run": longer is not None,
                         **headline(entry.result)})
        except (KeyError, IndexError, TypeError, ValueError) as error:  # an old result's shape: leave it out
            log.warning("no headline for %s: %s", slide.demo, error)
    return rows


@bp.get("/api/recap")
def recap():
    return jsonify(rows=build_recap())


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
