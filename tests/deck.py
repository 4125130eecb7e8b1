"""Tests find a slide by the demo it runs, never by its number: numbers follow the slide files' order."""
from slides import load_deck

# The lecture's slides in order, by their demos (the last is the recap, which runs none): read from the
# slide files, so a slide added there is in every test that walks the deck.
LECTURE = [slide.demo for slide in load_deck()]


def slide_number(demo_id: str) -> int:
    return next(slide.n for slide in load_deck() if slide.demo == demo_id)


def slide_path(demo_id: str) -> str:
    return f"/slides/{slide_number(demo_id)}"


SLIDES = len(LECTURE)  # how many slides the deck has


def counter(demo_id: str, offset: int = 0) -> str:
    """The deck's on-screen counter on demo_id's slide, or `offset` slides from it: "3 / 13"."""
    return f"{slide_number(demo_id) + offset} / {SLIDES}"
