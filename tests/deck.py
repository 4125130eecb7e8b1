"""Tests find a slide by the demo it runs, never by its number: numbers follow the slide files' order."""
from slides import load_deck


def slide_number(demo_id: str) -> int:
    return next(slide.n for slide in load_deck() if slide.demo == demo_id)


def slide_path(demo_id: str) -> str:
    return f"/slides/{slide_number(demo_id)}"
