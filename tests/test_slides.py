"""The slide files: format, order, notes, and reloading after an edit."""
import os
import re

import pytest

from demos import DEMOS
from slides import RECAP, SLIDE_FILE_GLOB, SLIDES_DIR, SlideError, demo_ids, load_deck, render_markdown, split_notes
from tests.deck import LECTURE

def test_the_deck_has_the_lectures_slides_in_order_each_named_for_its_demo():
    deck = load_deck()
    files = sorted(SLIDES_DIR.glob(SLIDE_FILE_GLOB))
    assert [s.demo for s in deck] == [path.stem.partition("-")[2] for path in files] == LECTURE
    assert [s.n for s in deck] == list(range(1, len(LECTURE) + 1))
    assert all(s.title for s in deck)


def test_the_deck_ends_on_the_recap_and_every_other_slide_runs_a_demo_that_exists():
    deck = load_deck()
    assert len(deck) == len(LECTURE)
    assert deck[-1].is_recap and not any(slide.is_recap for slide in deck[:-1])
    assert demo_ids(deck) == [slide.demo for slide in deck[:-1]]
    assert all(demo in DEMOS for demo in demo_ids(deck)), sorted(set(demo_ids(deck)) - set(DEMOS))
    assert RECAP not in DEMOS, "the recap is the closing slide's, not a demo module"


def test_every_slide_has_a_body_and_speaker_notes():
    for slide in load_deck():
        assert slide.body_html.strip(), slide.demo
        assert len(slide.notes_html) > 200, f"{slide.demo} needs speaker notes for the lecturer"
        assert "Note:" not in slide.body_html, f"{slide.demo}: notes leaked into the body"


def test_notes_are_split_from_the_body_at_the_note_line():
    body, notes = split_notes("Shown to all.\n\nNote:\nOnly for the lecturer.\n")
    assert body.strip() == "Shown to all."
    assert notes.strip() == "Only for the lecturer."
    assert split_notes("No notes here.") == ("No notes here.", "")


def write_slide(folder, name, front, body="Body.\n\nNote:\nNotes."):
    (folder / name).write_text(f"---\n{front}\n---\n{body}\n", encoding="utf-8")


def test_a_slide_without_a_demo_is_refused(tmp_path):
    write_slide(tmp_path, "01-a.md", "title: A")
    with pytest.raises(SlideError, match="demo"):
        load_deck(tmp_path)


def test_a_slide_file_is_named_for_its_demo(tmp_path):
    write_slide(tmp_path, "01-a.md", "title: A\ndemo: x")
    with pytest.raises(SlideError, match="NN-x.md"):
        load_deck(tmp_path)


def test_two_slides_with_one_demo_are_refused(tmp_path):
    write_slide(tmp_path, "01-x.md", "title: A\ndemo: x")
    write_slide(tmp_path, "02-x.md", "title: B\ndemo: x")
    with pytest.raises(SlideError, match="two slides"):
        load_deck(tmp_path)


def test_an_edited_slide_is_read_again_without_a_restart(tmp_path):
    write_slide(tmp_path, "01-x.md", "title: Before\ndemo: x")
    assert load_deck(tmp_path)[0].title == "Before"
    write_slide(tmp_path, "01-x.md", "title: After\ndemo: x")
    stat = (tmp_path / "01-x.md").stat()
    os.utime(tmp_path / "01-x.md", ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert load_deck(tmp_path)[0].title == "After"


def test_formulas_between_dollar_signs_become_mathml_and_a_price_stays_text():
    html = render_markdown("Scores over $√d_k$, fit $L(T) = a + b·T^{−c}$; it costs $5 and `$x$`.")
    assert "<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt>" in html  # a radical over d with k below
    assert "<msup><mi>T</mi><mrow><mo>−</mo><mi>c</mi></mrow></msup>" in html  # −c raised, not "T^−c"
    assert "it costs $5 and <code>$x$</code>" in html
    shown = render_markdown("$$softmax(QK^T / √d_k) · V$$")
    assert '<math display="block">' in shown and "<mi>softmax</mi>" in shown and "<mi>Q</mi><msup><mi>K</mi><mi>T</mi></msup>" in shown


def test_a_formula_the_notation_cannot_read_names_its_slide(tmp_path):
    write_slide(tmp_path, "01-x.md", "title: A\ndemo: x", body="Fit $T^{−c$.\n\nNote:\nNotes.")
    with pytest.raises(SlideError, match=r"01-x.md: a formula"):
        load_deck(tmp_path)


def test_the_slides_formulas_are_typeset_and_no_plain_text_exponent_is_left():
    for slide in load_deck():
        text = re.sub(r"<math.*?</math>", "", slide.body_html)
        assert "^" not in text and "√" not in text, f"{slide.demo}: a formula outside $...$"
    assert all("<math" in slide.body_html for slide in load_deck() if slide.demo in ("attention_matrix", "context_scaling"))


def test_operator_text_stays_in_the_notes():
    """No warming command, internal demo id or thread count on a slide students and the PDF see."""
    for slide in load_deck():
        text = re.sub(r"<[^>]+>", " ", re.sub(r"<math.*?</math>", "", slide.body_html))
        for word in ("flask", "warm", "thread", "FLASK_", "--full"):
            assert word not in text, f"{slide.demo}: {word!r} belongs in the notes"
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"{slide.demo}: an internal id (like {slide.demo}) on the slide"


@pytest.mark.parametrize("slide", [s for s in load_deck() if s.poll and s.poll.kind != "number"], ids=lambda s: s.demo)
def test_a_poll_slides_title_asks_and_names_no_contender(slide):
    """The title is on screen while the class answers: it may ask the question, never answer it. A
    title naming a contender ("Only the Transformer copies ...") gives the answer away, and may
    also be wrong on the next run."""
    contenders = [key for key, _ in slide.poll.choices if key != "tie"]
    named = [key for key in contenders if key in slide.title.lower()]
    assert not named, f"slide {slide.n}'s title {slide.title!r} names {named} while its poll asks who wins"


# Words with which a sentence settles who did better: on a poll's slide, only in a question.
VERDICT = re.compile(r"\b(wins?|won|beats?|better|worse|best|worst|faster|slower|ahead|behind|fails?|plateaus?|"
                     r"improves?|outperforms?|only|cannot|can't|copies|learns)\b", re.IGNORECASE)


def statements(html: str) -> list[str]:
    """The slide's text as sentences (list items and clauses after ';' count as sentences), less questions."""
    text = re.sub(r"<[^>]+>", " ", html)
    return [s.strip() for s in re.split(r"(?<=[.!?;])\s+|\n+", text) if s.strip() and not s.strip().endswith("?")]


@pytest.mark.parametrize("slide", [s for s in load_deck() if s.poll], ids=lambda s: s.demo)
def test_while_its_poll_is_open_a_slide_states_the_question_not_the_finding(slide):
    """The title and the bullets are on screen while the class answers (the demo's summary is withheld
    until Close: tests/test_poll_secret.py). A choice poll's slide names its contenders only in questions
    or in statements that settle nothing; a number poll's slide states no figure in the poll's unit."""
    said = statements(slide.title) + statements(slide.body_html)
    if slide.poll.kind == "number":
        unit = re.escape(slide.poll.unit.strip())
        figures = [s for s in said if unit and re.search(rf"\d\s*{unit}", s)]
        assert not figures, f"slide {slide.n} states a figure in its poll's unit {slide.poll.unit!r}: {figures}"
        return
    contenders = [key for key, _ in slide.poll.choices if key != "tie"]
    settled = [s for s in said if any(re.search(rf"\b{key}s?\b", s, re.IGNORECASE) for key in contenders)
               and VERDICT.search(s)]
    assert not settled, f"slide {slide.n} settles its poll while it is open: {settled}"
