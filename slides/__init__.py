"""The lecture's slides: one Markdown file per slide, shown in the order of their file names.

Each file is `NN-<demo>.md`, named for the demo it runs: YAML front matter (title, demo,
optional layout and poll), the slide body in Markdown, then a line `Note:` and the speaker notes.
A slide's number is its place in that order and nothing else. Instructors edit these files;
no Python is needed to change what a slide says. What a poll is settled by is the demo's, declared
in Python: a choice poll's outcomes are its headline's winners (demos/shared/contenders.py), a
number poll names one of its `QUANTITIES` (checked here, when the deck loads).

One name is not a demo: `demo: recap` (the file `NN-recap.md`) is the closing slide, whose "demo"
is the recap of what every other slide's demo measured (web/recap.py).
"""
import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path

import frontmatter
import markdown

from demos import DEMOS
from demos.shared import quantities
from demos.shared.contenders import OUTCOMES
from slides.formulas import FormulaError, FormulaExtension

SLIDES_DIR = Path(__file__).parent
SLIDE_FILE_GLOB = "[0-9][0-9]-*.md"
NOTES_MARKER = re.compile(r"^Note:[ \t]*$", re.MULTILINE)
LAYOUTS = ("standard", "title", "wide")  # wide: a narrow text column, a wide demo
RECAP = "recap"  # the closing slide's demo: the recap of the others' results, not a demo module
MIN_CHOICES, MAX_CHOICES = 2, 5


@dataclass(frozen=True)
class Poll:
    """The question a class answers before the demo runs."""
    question: str
    choices: tuple[tuple[str, str], ...]  # (outcome it predicts, text shown)

    kind = "choice"

    def public(self) -> dict:
        return {"kind": self.kind, "question": self.question,
                "choices": [{"outcome": o, "text": t} for o, t in self.choices]}


@dataclass(frozen=True)
class NumberPoll:
    """A question answered with a number, settled by the quantity named `measured` that the slide's demo
    declares (slides/measured.py reads it: the seeds' mean and range), times `scale` (100 for a fraction in %).
    On a `log` axis the slider and the histogram go in equal ratios, for "how many times" questions whose
    guesses span orders of magnitude (min must then be above 0)."""
    question: str
    measured: str
    unit: str
    min: float
    max: float
    step: float
    scale: float = 1.0
    axis: str = "linear"
    kind = "number"

    def public(self) -> dict:
        return {"kind": self.kind, "question": self.question, "unit": self.unit,
                "min": self.min, "max": self.max, "step": self.step, "axis": self.axis}


@dataclass(frozen=True)
class Slide:
    n: int  # 1-based position in the deck
    demo: str  # the demo it runs, which is also the slide's name (its file is NN-<demo>.md)
    title: str
    body_html: str
    notes_html: str
    layout: str = "standard"
    poll: Poll | NumberPoll | None = None
    act: str | None = None  # the lecture's act its demo belongs to (the recap sums tests up by act)
    acts: tuple[tuple[str, str], ...] = ()  # the closing slide's: each act's name and question, in order

    @property
    def is_recap(self) -> bool:
        return self.demo == RECAP

    def summary(self) -> dict:
        """The public facts about a slide, as `/api/slides` lists them."""
        return {"n": self.n, "id": self.demo, "title": self.title, "demo": self.demo}


class SlideError(ValueError):
    """A slide file is missing something the deck needs."""


def render_markdown(text: str) -> str:
    return markdown.markdown(text.strip(), extensions=["smarty", "sane_lists", "attr_list", FormulaExtension()])


def parse_slide(path: Path, n: int) -> Slide:
    post = frontmatter.load(path)
    missing = [key for key in ("title", "demo") if not post.get(key)]
    if missing:
        raise SlideError(f"{path.name}: front matter lacks {', '.join(missing)}")
    if path.stem.partition("-")[2] != post["demo"]:
        raise SlideError(f"{path.name}: a slide file is named for its demo: NN-{post['demo']}.md")
    layout = post.get("layout", "standard")
    if layout not in LAYOUTS:
        raise SlideError(f"{path.name}: layout must be one of {LAYOUTS}, not {layout!r}")
    poll = parse_poll(path, str(post["demo"]), post.get("poll"))
    body, notes = split_notes(post.content)
    try:
        body_html, notes_html = render_markdown(body), render_markdown(notes)
    except FormulaError as error:
        raise SlideError(f"{path.name}: a formula between $ signs: {error}") from None
    return Slide(
        n=n,
        demo=str(post["demo"]),
        title=str(post["title"]),
        body_html=body_html,
        notes_html=notes_html,
        layout=layout,
        poll=poll,
        act=str(post["act"]) if post.get("act") else None,
        acts=tuple((str(name), str(question)) for name, question in post["acts"].items())
        if post["demo"] == RECAP and isinstance(post.get("acts"), dict) else (),
    )


def parse_poll(path: Path, demo: str, raw) -> Poll | NumberPoll | None:
    """`poll: {question: ..., choices: {<outcome>: <text>, ...}}` or `poll: {question: ..., number: {...}}`
    from the front matter, checked."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or not str(raw.get("question") or "").strip() \
            or ("choices" in raw) == ("number" in raw):
        raise SlideError(f"{path.name}: poll needs a question and either choices (outcome: text) or a number")
    if "number" in raw:
        return parse_number(path, demo, str(raw["question"]).strip(), raw["number"])
    choices = raw["choices"]
    if not isinstance(choices, dict):
        raise SlideError(f"{path.name}: poll needs a question and choices (outcome: text)")
    if not MIN_CHOICES <= len(choices) <= MAX_CHOICES:
        raise SlideError(f"{path.name}: a poll has {MIN_CHOICES} to {MAX_CHOICES} choices, not {len(choices)}")
    # keyed by the outcome each predicts, the `winner` of the demo's recap headline (demos/shared/recap.py),
    # so the slide can say which choice the measured result supports
    unknown = sorted(set(map(str, choices)) - set(OUTCOMES))
    if unknown:
        raise SlideError(f"{path.name}: poll choices are keyed by an outcome in {tuple(OUTCOMES)}, not {unknown}")
    return Poll(str(raw["question"]).strip(), tuple((str(o), str(t)) for o, t in choices.items()))


NUMBER_KEYS = {"measured", "unit", "min", "max", "step", "scale", "axis"}
AXES = ("linear", "log")  # a number poll's slider and histogram: equal steps, or equal ratios


def parse_number(path: Path, demo: str, question: str, raw) -> NumberPoll:
    """`number: {measured: <a quantity the demo declares>, unit, min, max, step, scale, axis}`, checked."""
    where = f"{path.name}: a number poll"
    if not isinstance(raw, dict) or not NUMBER_KEYS - {"scale", "axis"} <= set(raw) or not set(raw) <= NUMBER_KEYS:
        raise SlideError(f"{where} needs measured, unit, min, max and step (and may have scale and axis), "
                         f"not {sorted(map(str, raw)) if isinstance(raw, dict) else raw!r}")
    numbers = {key: raw.get(key, 1) for key in ("min", "max", "step", "scale")}
    bad = [key for key, value in numbers.items()
           if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)]
    if bad:
        raise SlideError(f"{where}'s {', '.join(bad)} must be numbers")
    if not numbers["min"] < numbers["max"] or not 0 < numbers["step"] <= numbers["max"] - numbers["min"] \
            or numbers["scale"] <= 0:
        raise SlideError(f"{where} needs min < max, a step above 0 and no wider than that range, and a scale above 0")
    axis = raw.get("axis", "linear")
    if axis not in AXES or (axis == "log" and numbers["min"] <= 0):
        raise SlideError(f"{where}'s axis is one of {AXES} (log needs min above 0), not {axis!r}")
    declared = quantities.names(DEMOS.get(demo))
    if str(raw["measured"]) not in declared:
        raise SlideError(f"{where}'s measured names {str(raw['measured'])!r}, which demo {demo!r} does not declare "
                         f"(its QUANTITIES: {', '.join(declared) or 'none'})")
    return NumberPoll(question, str(raw["measured"]), str(raw["unit"]), float(numbers["min"]), float(numbers["max"]),
                      float(numbers["step"]), float(numbers["scale"]), axis)


def split_notes(content: str) -> tuple[str, str]:
    """Split a slide's Markdown into (body, speaker notes) at the `Note:` line."""
    parts = NOTES_MARKER.split(content, maxsplit=1)
    return parts[0], (parts[1] if len(parts) == 2 else "")


def demo_ids(deck: list[Slide]) -> list[str]:
    """The demos the deck runs, in slide order (the recap runs none of its own)."""
    return [slide.demo for slide in deck if not slide.is_recap]


def load_deck(folder: Path = SLIDES_DIR) -> list[Slide]:
    """Every slide file in `folder`, in file-name order: read again only when one changes on disk (its
    size or time), so that the many readers of one process (each app, each test) share one reading.
    While the files are unchanged it is the same list (web/deck.py keeps pages rendered from it), which
    no caller changes."""
    stats = [(path.name, path.stat()) for path in sorted(folder.glob(SLIDE_FILE_GLOB))]
    return read_deck(folder, tuple((name, stat.st_size, stat.st_mtime_ns) for name, stat in stats))


@functools.lru_cache(maxsize=8)
def read_deck(folder: Path, stamp: tuple) -> list[Slide]:
    """The slide files named in `stamp` (as load_deck makes it), parsed."""
    if not stamp:
        raise SlideError(f"no slide files matching {SLIDE_FILE_GLOB} in {folder}")
    deck = [parse_slide(folder / name, n) for n, (name, _, _) in enumerate(stamp, start=1)]
    demos = [slide.demo for slide in deck]
    duplicated = sorted({d for d in demos if demos.count(d) > 1})
    if duplicated:
        raise SlideError(f"demos shown on two slides: {', '.join(duplicated)}")
    return deck
