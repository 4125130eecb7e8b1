"""The slide files: format, order, notes, and reloading after an edit."""
import os

import pytest

from slides import DeckCache, SlideError, load_deck, split_notes

EXPECTED = [
    (1, "title", "The Great Shift: From LSTMs to Transformers", "system_check"),
    (2, "two_flaws", "The Two Flaws of the LSTM", "signal_decay"),
    (3, "amnesia", "The Amnesia Test", "amnesia"),
    (4, "fair_fight", "Is It Really Amnesia? A Fair Fight", "recall_vs_length"),
    (5, "index_lookup", "Memory Has a Size: Index Lookup", "index_lookup"),
    (6, "revolution", "The Transformer Revolution", "attention_web"),
    (7, "cocktail_party", "How Attention Works: The Cocktail Party", "qkv"),
    (8, "attention_math", "The Math of Attention", "attention_matrix"),
    (9, "learning", "Watching the Model Learn", "training_progression"),
    (10, "speed_race", "The Speed Race", "speed_race"),
    (11, "scaling", "Why Transformers Won: Using the Whole Context", "context_scaling"),
    (12, "showdown", "The Generative Showdown", "generation"),
    (13, "takeaways", "Where Recurrence Still Wins", "dyck"),
]


def test_the_deck_has_the_thirteen_slides_in_order():
    assert [(s.n, s.id, s.title, s.demo) for s in load_deck()] == EXPECTED


def test_every_slide_has_a_body_and_speaker_notes():
    for slide in load_deck():
        assert slide.body_html.strip(), slide.id
        assert len(slide.notes_html) > 200, f"{slide.id} needs speaker notes for the lecturer"
        assert "Note:" not in slide.body_html, f"{slide.id}: notes leaked into the body"


def test_notes_are_split_from_the_body_at_the_note_line():
    body, notes = split_notes("Shown to all.\n\nNote:\nOnly for the lecturer.\n")
    assert body.strip() == "Shown to all."
    assert notes.strip() == "Only for the lecturer."
    assert split_notes("No notes here.") == ("No notes here.", "")


def write_slide(folder, name, front, body="Body.\n\nNote:\nNotes."):
    (folder / name).write_text(f"---\n{front}\n---\n{body}\n", encoding="utf-8")


def test_a_slide_without_a_demo_is_refused(tmp_path):
    write_slide(tmp_path, "01-a.md", "id: a\ntitle: A")
    with pytest.raises(SlideError, match="demo"):
        load_deck(tmp_path)


def test_two_slides_with_one_id_are_refused(tmp_path):
    write_slide(tmp_path, "01-a.md", "id: a\ntitle: A\ndemo: x")
    write_slide(tmp_path, "02-a.md", "id: a\ntitle: B\ndemo: y")
    with pytest.raises(SlideError, match="used twice"):
        load_deck(tmp_path)


def test_an_edited_slide_is_read_again_without_a_restart(tmp_path):
    write_slide(tmp_path, "01-a.md", "id: a\ntitle: Before\ndemo: x")
    cache = DeckCache(tmp_path)
    assert cache.get()[0].title == "Before"
    write_slide(tmp_path, "01-a.md", "id: a\ntitle: After\ndemo: x")
    stat = (tmp_path / "01-a.md").stat()
    os.utime(tmp_path / "01-a.md", ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert cache.get()[0].title == "After"
