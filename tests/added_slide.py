"""What the project finds of a demo added in four files: run in a copy of the project whose files for
the demo `<id>` were made by `python -m demos new <id>` (tests/test_new_slide.py makes the copy), it looks
at the deck, the API, the page and its script, the poll, the terminal, its tests, `flask warm`, the recap
and `flask export` in one process, then removes the four files and looks again. It prints what it saw as JSON.
With --walk it walks the deck in Chromium instead (tests/browser/test_new_slide.py).

    python -m tests.added_slide <id> <folder for the cache and the export> [--walk]
"""
import contextlib
import io
import json
import os
import re
import sys
import threading
from pathlib import Path

import pytest

import demos
from app import create_app
from demos import DEMOS, _new_slide as new_slide
from demos.__main__ import main as demos_main
from slides import load_deck

ROOT = Path(__file__).resolve().parent.parent


def page_script(client, n: int) -> str:
    """The script the slide's page runs once painted (js/start/after_paint.js): its ES modules bundled
    (web/static_assets.py)."""
    html = client.get(f"/slides/{n}").get_data(as_text=True)
    [src] = re.findall(r'<script defer src="[^"]+" data-script="([^"]+)"', html)
    return client.get(src).get_data(as_text=True)


def deck_as_served(app, demo_id: str) -> dict:
    """The deck, the slide list, the recap and the page's script, as this app serves them."""
    client = app.test_client()
    deck = load_deck(ROOT / "slides")
    recap = client.get("/api/recap").get_json()
    rows = [row for row in recap["rows"] if row["demo"] == demo_id]
    return {"deck": [slide.demo for slide in deck],
            "api_slides": [slide["demo"] for slide in client.get("/api/slides").get_json()["slides"]],
            "renderer_in_script": f'"{demo_id}": __load("js/demos/renderers/{demo_id}.js")' in page_script(client, 1),
            "recap_row": rows[0] if rows else None,
            "recap_acts": {act["act"]: act["tests"] for act in recap["acts"]}}


def main(demo_id: str, work: Path) -> dict:
    """What the project makes of the added demo (its cache and export in `work`), then of the deck without it."""
    assert Path(demos.__file__).is_relative_to(ROOT), "the copy's own modules, not the checkout's"
    seen = {"demo_module": demo_id in DEMOS}
    app = create_app({"TESTING": True, "CACHE_DIR": str(work / "cache"), "DEVICE": "cpu"})
    client = app.test_client()
    n = next(slide.n for slide in load_deck(ROOT / "slides") if slide.demo == demo_id)
    page = client.get(f"/slides/{n}").get_data(as_text=True)
    seen["widget_on_its_slide"] = f'data-demo="{demo_id}"' in page and 'data-widget="true"' in page
    seen["poll"] = client.get(f"/api/polls/{demo_id}").get_json().get("question")

    terminal = io.StringIO()
    tiny = [part for name, value in DEMOS[demo_id].TINY.items() for part in (f"--{name}", str(value))]
    with contextlib.redirect_stdout(terminal), contextlib.redirect_stderr(io.StringIO()):
        seen["terminal_exit"] = demos_main([demo_id, *tiny, "--device", "cpu"])
    seen["terminal"] = terminal.getvalue()

    tests = io.StringIO()  # the demo's own tests, and what every demo promises (test_contract.py), on its TINY settings
    with contextlib.redirect_stdout(tests):
        exit_code = pytest.main(["-q", "-n", "0", "-p", "no:cacheprovider", "-k", demo_id,
                                 str(ROOT / "tests" / "demos" / f"test_{demo_id}.py"), str(ROOT / "tests" / "demos" / "test_contract.py")])
    seen["tests"] = {"exit": int(exit_code), "output": tests.getvalue()[-3000:]}

    warm = app.test_cli_runner().invoke(args=["warm", demo_id])
    seen["warm"] = {"exit": warm.exit_code, "output": warm.output}
    seen["added"] = deck_as_served(app, demo_id)
    export = app.test_cli_runner().invoke(args=["export", str(work / "export")])
    manifest = json.loads((work / "export" / "manifest.json").read_text())
    seen["export"] = {"exit": export.exit_code, "frozen": [item["demo"] for item in manifest["frozen"]],
                      "result_file": (work / "export" / "results" / f"{demo_id}.json").is_file()}

    for path in new_slide.taken(ROOT, demo_id):  # the four files `python -m demos new` made
        path.unlink()
    again = create_app({"TESTING": True, "CACHE_DIR": str(work / "cache"), "DEVICE": "cpu"})  # as after a restart
    seen["removed"] = deck_as_served(again, demo_id)
    return seen


def walk(demo_id: str, work: Path) -> dict:
    """One page in Chromium moved through every slide with the → key, as the lecturer does, each slide
    checked on screen; on the new demo's slide, Run (its default settings, trained by the server) and its
    chart drawn by its renderer."""
    from playwright.sync_api import expect, sync_playwright
    from werkzeug.serving import make_server

    from tests.browser.conftest import CHROMIUM_ARGS, chromium_path
    from tests.browser.watch import watched_page

    app = create_app({"CACHE_DIR": str(work / "cache"), "DEVICE": "cpu", "CALIBRATE": False,
                      "CONFIRM_JOB_SECONDS": 1_000_000})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    deck = load_deck(ROOT / "slides")
    seen = {"shown": [1], "chart": None}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(shell=True), headless=True, args=CHROMIUM_ARGS)
        context, page, watch = watched_page(browser, url, 1280, 720)
        page.goto(url + "/slides/1")
        page.wait_for_function("() => window.greatShift !== undefined")
        for slide in deck[1:]:
            page.keyboard.press("ArrowRight")
            expect(page.locator(".counter")).to_have_text(f"{slide.n} / {len(deck)}", timeout=30_000)
            expect(page.locator(f'.slide[data-n="{slide.n}"]')).to_be_visible()
            seen["shown"].append(slide.n)
            if slide.demo == demo_id:
                page.locator(f"#slide-{demo_id} .demo-run").click()
                chart = page.locator(f"#slide-{demo_id} .demo-output [role=img].js-plotly-plot")
                expect(chart).to_have_attribute("aria-label", re.compile("% right"), timeout=60_000)  # the result's
                expect(chart.locator(".main-svg").first).to_be_visible()
                seen["chart"] = chart.get_attribute("aria-label")
        seen["problems"] = watch.errors + watch.outside_requests
        context.close()
        browser.close()
    server.shutdown()
    return seen


if __name__ == "__main__":
    look = walk if "--walk" in sys.argv else main
    print(json.dumps(look(sys.argv[1], Path(sys.argv[2]))), flush=True)
    os._exit(0)  # at once: the engine's worker thread may still hold PyTorch, which aborts a normal exit
