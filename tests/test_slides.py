"""The slide files: format, order, notes, and reloading after an edit."""
import os

import pytest

from slides import DeckCache, SlideError, load_deck, split_notes

LECTURE = ["system_check", "signal_decay", "amnesia", "recall_vs_length", "index_lookup", "attention_web", "qkv",
           "attention_matrix", "training_progression", "speed_race", "context_scaling", "generation", "dyck"]


def test_the_deck_has_the_thirteen_slides_in_order_each_named_for_its_demo():
    deck = load_deck()
    assert [s.demo for s in deck] == LECTURE
    assert [s.n for s in deck] == list(range(1, 14))
    assert all(s.title for s in deck)


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
    cache = DeckCache(tmp_path)
    assert cache.get()[0].title == "Before"
    write_slide(tmp_path, "01-x.md", "title: After\ndemo: x")
    stat = (tmp_path / "01-x.md").stat()
    os.utime(tmp_path / "01-x.md", ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert cache.get()[0].title == "After"
