"""`GET /api/recap`: the closing slide's recap of what the deck measured, read from the cache, and
the takeaway that follows from it.

For each slide whose demo has a `headline(result)`, the headline of its cached result: which
model won that test, by how much, on what device and at which budget ("the CPU default",
`demos.runtime.budgets`); or a note that it has not run. Where the instructor computed the demo's
longer run (`flask warm --full`, the prepared run of the server's device class), or loaded a run
measured on another machine (`flask results load`), that one speaks for the slide (`Engine.prepared`),
and the row says where and when it was measured. The takeaway sums the rows up act by act (the acts
the slide files declare: a slide's `act:`, and their order and questions in the closing slide's `acts:`,
so a new slide joins an act by saying so in its own file): who won the act's measured tests, in
words made from the rows' winners, never typed, and which tests are not measured yet. Only contests
count: a row whose demo declares its headline an illustration (`"contest": false`,
demos/shared/recap.py) is shown in its act but never counted as a test, won or to come.
"""
import logging
from pathlib import Path

from flask import Blueprint, Flask, current_app, jsonify

from demos import DEMOS
from demos.runtime.budgets import budget_text
from demos.shared.recap import is_contest
from engine.carried import carried_text
from slides import load_deck
from web.deck import get_deck
from web.engine import get_engine
from web.poll_secret import POLL_OPEN, kept_from_this_request
from web.polls import class_guess

bp = Blueprint("recap", __name__)
log = logging.getLogger(__name__)

Act = tuple[str, str, tuple[str, ...]]  # an act of the lecture: its name, the question its tests ask, its demos
FAMILIES = {"transformer": "the Transformer", "lstm": "the LSTM", "rnn": "the RNN"}  # a headline's `winner`
LEVEL = "tie"


def lecture_acts(folder: Path) -> tuple[Act, ...]:
    """The lecture's acts as its slide files declare them (`slides.load_deck` reads them): a slide's
    `act: <name>` puts its demo in that act; the closing slide's `acts: {<name>: <question>, ...}` orders
    them and gives each its question. An act that only slides name comes after, in the deck's order."""
    deck = load_deck(folder)
    questions = dict(next((slide.acts for slide in deck if slide.is_recap), ()))
    members: dict[str, list[str]] = {}
    for slide in deck:
        if slide.act:
            members.setdefault(slide.act, []).append(slide.demo)
    names = [*questions, *(name for name in members if name not in questions)]
    return tuple((name, questions.get(name, "what its slides measured"), tuple(members.get(name, ())))
                 for name in names)


def build_recap() -> list[dict]:
    engine = get_engine()
    rows = []
    for slide in get_deck():
        demo = DEMOS.get(slide.demo)
        headline = getattr(demo, "headline", None)
        if headline is None:
            continue
        row = {"n": slide.n, "slide": slide.title, "demo": slide.demo, "contest": is_contest(demo)}
        if kept_from_this_request(slide.demo):  # its poll is open: not even who won, for a student
            rows.append({**row, "measured": False, "reason": POLL_OPEN})
            continue
        longer = engine.prepared(slide.demo)  # a run carried in from elsewhere, or this device class's prepared run
        entry = longer or engine.cached(slide.demo)
        if entry is None:
            rows.append({**row, "measured": False})
            continue
        guess = class_guess(slide)  # a number poll's answers beside what was measured
        if guess:
            row["class_guess"] = guess
        try:
            rows.append({**row, "measured": True, "device": entry.result["device"],
                         "budget": budget_text(entry.result), "longer_run": longer is not None,
                         **({"carried": carried_text(entry.result)} if carried_text(entry.result) else {}),
                         **headline(entry.result)})
        except (KeyError, IndexError, TypeError, ValueError) as error:  # an old result's shape: leave it out
            log.warning("no headline for %s: %s", slide.demo, error)
    return rows


def contests(rows: list[dict]) -> list[dict]:
    """The rows the recap counts: every one but the illustrations."""
    return [row for row in rows if row.get("contest", True)]


def tally(rows: list[dict]) -> dict[str, int]:
    """How many of the measured contests each family won (LEVEL: no winner), most first."""
    counts: dict[str, int] = {}
    for row in contests(rows):
        if row["measured"]:
            counts[row["winner"]] = counts.get(row["winner"], 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0] == LEVEL)))


def wins_text(counts: dict[str, int], measured: int) -> str:
    """"the LSTM won 3 of 5 tests, the Transformer 1, 1 with no clear winner", from the counts alone."""
    if measured == 1:
        winner = next(iter(counts))
        return "no clear winner in the one test measured" if winner == LEVEL else \
            f"{FAMILIES.get(winner, winner)} won the one test measured"
    families = [(w, k) for w, k in counts.items() if w != LEVEL]
    if len(families) == 1 and LEVEL not in counts:
        return f"{FAMILIES.get(families[0][0], families[0][0])} won all {measured} tests"
    parts = [f"{FAMILIES.get(w, w)} won {k} of {measured} tests" if i == 0 else f"{FAMILIES.get(w, w)} {k}"
             for i, (w, k) in enumerate(families)]
    if LEVEL in counts:
        parts.append(f"{counts[LEVEL]} with no clear winner" if families else f"no clear winner in all {measured}")
    return ", ".join(parts)


def leader(counts: dict[str, int]) -> str | None:
    """The family that won more of the act's measured tests than any other (LEVEL if none did)."""
    families = [(w, k) for w, k in counts.items() if w != LEVEL]
    if not families:
        return LEVEL if counts else None
    if len(families) > 1 and families[0][1] == families[1][1]:
        return LEVEL
    return families[0][0]


def illustrations_text(count: int) -> str:
    """What an act of illustrations only says instead of a tally."""
    return f"{'an illustration' if count == 1 else f'{count} illustrations'}, no contest to count"


def act_line(name: str, question: str, rows: list[dict]) -> dict:
    """One line of the takeaway: the act's question and what its measured contests answer."""
    counted = contests(rows)
    measured = [row for row in counted if row["measured"]]
    missing = [row for row in counted if not row["measured"]]
    counts = tally(rows)
    if not counted:
        text = illustrations_text(len(rows))
    elif not measured:
        text = "not measured yet"
    else:
        text = wins_text(counts, len(measured))
        if missing:
            text += f"; {len(missing)} not measured yet"
    return {"act": name, "question": question, "text": text, "leader": leader(counts),
            "tests": [row["n"] for row in rows], "measured": len(measured),
            "illustrations": [row["n"] for row in rows if not row.get("contest", True)]}


def takeaway(rows: list[dict], lecture: tuple[Act, ...]) -> dict:
    """The recap's rows summed up by the lecture's acts, then over the whole deck, with the devices they ran
    on and their budgets; `tests` and `measured` count contests, `illustrations` the rows that are not."""
    named = {demo for _, _, demos in lecture for demo in demos}
    acts = [(name, question, [row for row in rows if row["demo"] in demos]) for name, question, demos in lecture]
    acts.append(("Other tests", "what else the deck measured", [row for row in rows if row["demo"] not in named]))
    lines = [act_line(name, question, act_rows) for name, question, act_rows in acts if act_rows]
    measured = [row for row in rows if row["measured"]]  # illustrations too: they ran on these devices
    overall = act_line("Today", "every test", rows) if rows else None
    devices = sorted({row["device"] for row in measured})
    budgets = sorted({row["budget"] for row in measured if row.get("budget")})  # "the CPU default", ...
    counted = contests(rows)
    return {"acts": lines, "overall": overall, "devices": devices, "budgets": budgets,
            "measured": sum(row["measured"] for row in counted), "tests": len(counted),
            "illustrations": len(rows) - len(counted)}


def recap() -> dict:
    """What the closing slide shows: the rows and the takeaway computed from them."""
    rows = build_recap()
    return {"rows": rows, **takeaway(rows, lecture_acts(current_app.extensions["slides_dir"]))}


@bp.get("/api/recap")
def api_recap():
    return jsonify(recap())


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
