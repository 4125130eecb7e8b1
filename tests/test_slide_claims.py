"""What a slide says follows what its demo measures: speaker notes carry no typed figures (the
lecturer reads numbers from the cached result, in the presenter view), and every poll can be
settled by its demo's own verdict, or for a number poll by the quantity it names, which its demo
declares and reads from any result it makes."""
import re

import pytest

from demos import DEMOS, dyck
from demos.shared import quantities
from demos.shared.recap import is_contest
from demos.shared.tuning import LR_GRID, rate_text
from slides import NumberPoll, load_deck
from slides.measured import measured_value
from tests.demos.tiny import tiny_result

# A measured-looking figure: a percentage, a decimal, a time, a ratio, a power of ten, a number of bits.
FIGURE = re.compile(r"\d+(?:[.,]\d+)?\s*%|\b\d+\.\d+\b|10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+"
                    r"|\b\d+(?:\.\d+)?\s*(?:s|ms|seconds?|minutes?)\b|\b\d+(?:\.\d+)?\s*×|\b\d+(?:\.\d+)?\s*bits?\b")
# Settings the code declares, not measurements: the grid's rates, Dyck's chance and its "learned" bar.
SETTINGS = {rate_text(lr) for lr in LR_GRID} | {f"{dyck.CHANCE:.0%}", f"{dyck.LEARNED:.0%}"}
POLL_SLIDES = [slide for slide in load_deck() if slide.poll is not None]
CHOICE_SLIDES = [slide for slide in POLL_SLIDES if not isinstance(slide.poll, NumberPoll)]
NUMBER_SLIDES = [slide for slide in POLL_SLIDES if isinstance(slide.poll, NumberPoll)]


@pytest.mark.parametrize("slide", load_deck(), ids=lambda slide: slide.demo)
def test_speaker_notes_hold_no_typed_figures(slide):
    text = re.sub(r"<[^>]+>", "", slide.notes_html)
    found = [text[max(0, m.start() - 30):m.end() + 10] for m in FIGURE.finditer(text)
             if m.group(0).replace(" ", "") not in SETTINGS]
    assert not found, f"slide {slide.n}'s notes type figures the demo measures: {found}"


def test_every_poll_asks_about_a_demo_with_a_verdict():
    for slide in POLL_SLIDES:
        assert hasattr(DEMOS[slide.demo], "headline"), f"slide {slide.n}'s poll has no verdict to be settled by"
        assert is_contest(DEMOS[slide.demo]), f"slide {slide.n}'s poll would be settled by an illustration, no contest"


@pytest.mark.parametrize("slide", CHOICE_SLIDES, ids=lambda slide: slide.demo)
def test_the_demos_verdict_is_one_of_the_polls_choices(slide):
    result, _ = tiny_result(slide.demo)  # the run the demo contract tests made, if they ran first
    outcomes = [outcome for outcome, _ in slide.poll.choices]
    assert DEMOS[slide.demo].headline(result)["winner"] in outcomes


def test_slides_3_5_and_10_ask_for_a_number():
    assert [slide.n for slide in NUMBER_SLIDES] == [3, 5, 10]


@pytest.mark.parametrize("slide", NUMBER_SLIDES, ids=lambda slide: slide.demo)
def test_a_number_poll_names_a_quantity_its_demo_declares_and_measures_with_its_range(slide):
    assert slide.poll.measured in quantities.names(DEMOS[slide.demo]), \
        f"slide {slide.n}'s poll names {slide.poll.measured!r}, which its demo does not declare"
    result, _ = tiny_result(slide.demo)
    measured = measured_value(slide.demo, slide.poll.measured, result, slide.poll.scale)
    assert measured is not None, f"slide {slide.n}'s poll names {slide.poll.measured!r}, which its demo's result lacks"
    assert measured["low"] <= measured["mean"] <= measured["high"]


DECLARING = sorted(demo_id for demo_id, demo in DEMOS.items() if quantities.names(demo))


def test_every_demo_a_number_poll_asks_about_declares_quantities():
    assert NUMBER_SLIDES and {slide.demo for slide in NUMBER_SLIDES} <= set(DECLARING)


@pytest.mark.parametrize("demo_id", DECLARING)
def test_each_declared_quantity_says_what_it_is_and_reads_a_measured_value_from_a_real_result(demo_id):
    result, _ = tiny_result(demo_id)
    for name, description in quantities.names(DEMOS[demo_id]).items():
        assert description and "\n" not in description, f"{demo_id}'s {name} needs a one-line docstring"
        value = quantities.read(DEMOS[demo_id], name, result)
        assert value is not None, f"{demo_id}'s {name} reads no measured value from its tiny run"
        assert value["min"] <= value.get("mean", value.get("median")) <= value["max"]
