"""The README's picture, taken from the running deck so that it cannot go stale.

    python -m benchmarks.screenshot [--slide 1] [--size 1280x720] [--out docs/slide-01.png]

It computes the slide's demo at its default settings on this machine into a fresh cache, starts the
real server on it (with the join address a hall's network would give it), opens the slide in the system's Chromium (driven by Playwright, as the browser
tests do) and saves what the lecturer's screen shows once the result is drawn and has stopped moving.
"""
import argparse
import sys
import tempfile
from pathlib import Path

from engine import Engine
from slides import load_deck
from tests.live_server import ROOT, LiveServer

OUT = ROOT / "docs" / "slide-01.png"  # the README shows this file
# The join address slide 1 shows, as `flask serve` on a hall's network would print it (the README's example).
HALL = "http://192.168.1.20:8000"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slide", type=int, default=1, help="which slide (1 = the title slide)")
    parser.add_argument("--size", default="1280x720", help="the window, WIDTHxHEIGHT")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    deck = load_deck()
    if not 1 <= args.slide <= len(deck):
        parser.error(f"--slide: the deck has slides 1 to {len(deck)}")
    try:
        width, height = (int(side) for side in args.size.lower().split("x"))
    except ValueError:
        parser.error("--size: WIDTHxHEIGHT, e.g. 1280x720")
    slide = deck[args.slide - 1]

    from playwright.sync_api import sync_playwright  # the browser tests' packages: only when a picture is taken

    from tests.browser.cached_results import wait_until_shown
    from tests.browser.conftest import CHROMIUM_ARGS, chromium_path

    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        if slide.demo:
            engine = Engine(cache, device="cpu")
            demo, params, key = engine.resolve(slide.demo, None)
            print(f"computing {slide.demo} at its default settings…", flush=True)
            engine.compute(demo, params, key)
        server = LiveServer(cache, env={"FLASK_PUBLIC_URL": HALL}).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{server.url}/slides/{slide.n}")
                if slide.demo and not wait_until_shown(page, slide, timeout=60_000):
                    print("the slide was still moving after 300 frames; saving it as it is", file=sys.stderr)
                args.out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.out))
                browser.close()
        finally:
            server.stop()
    print(f"saved slide {slide.n} at {width}×{height} to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
