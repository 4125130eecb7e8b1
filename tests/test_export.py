"""`flask export`: a static copy for students with every slide, the assets and the frozen results (no speaker notes)."""
import hashlib
import json
import re
from pathlib import Path

import pytest

from app import create_app
from slides import load_deck
from web.assets import plotly_build
from web.bundle import BundleError, bundle
from tests.deck import LECTURE, SLIDES, slide_number

DEMO_SLIDES = SLIDES - 1  # every slide but the recap runs a demo

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def exported(tmp_path):
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache")})
    engine = app.extensions["engine"]
    engine.compute(*engine.resolve("system_check", None))
    out = tmp_path / "export"
    result = app.test_cli_runner().invoke(args=["export", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_the_export_holds_every_slide_and_the_assets_but_no_notes(exported):
    out, _ = exported
    html = (out / "index.html").read_text()
    assert html.count('<section class="slide') == SLIDES
    for slide in load_deck(ROOT / "slides"):
        first_sentence = re.sub(r"<[^>]+>", "", slide.notes_html).split(".")[0]
        assert first_sentence not in html, "a student's copy has no speaker notes"
    assert f'data-url="#/{slide_number("index_lookup")}"' in html and f'href="#/{slide_number(LECTURE[-1])}"' in html  # slides work without a server
    assert 'data-script="static/js/main.bundle.js"' in html and 'type="module"' not in html  # modules do not load from disk
    assert 'src="static/js/start/after_paint.js"' in html  # which runs the bundle once the slide has painted
    assert 'data-plotly-url="vendor/plotly.min.js"' in html  # the deck's own build, whole
    assert hashlib.sha256((out / "vendor" / "plotly.min.js").read_bytes()).hexdigest() == plotly_build()["sha256"]
    assert "/api/" not in html, "a static copy calls no server"
    for asset in ["static/css/deck.css", "static/js/main.bundle.js", "static/js/presenter.bundle.js", "presenter.html"]:
        assert (out / asset).is_file(), asset


def test_the_export_freezes_cached_results_and_says_which(exported, tmp_path):
    out, output = exported
    manifest = json.loads((out / "manifest.json").read_text())
    assert [item["demo"] for item in manifest["frozen"]] == ["system_check"]
    assert manifest["frozen"][0]["device"] == "cpu" and manifest["frozen"][0]["budget"] == "the CPU default"
    assert "amnesia" in manifest["not_frozen"] and "recap" not in manifest["not_frozen"], "the recap is no demo to freeze"
    assert "froze system_check" in output and "computed on cpu" in output and f"not frozen, {DEMO_SLIDES - 1} of {DEMO_SLIDES} demos" in output
    assert re.search(r"froze system_check +computed on cpu in [\d.]+ s \(the CPU default\)", output)
    assert f"read the cached results in {tmp_path / 'cache'}" in output  # which folder, so a wrong one shows
    assert re.search(r"amnesia +nothing cached for its default settings", output)
    assert "FLASK_CACHE_DIR" in output
    assert manifest["not_frozen_why"]["amnesia"] == "nothing cached for its default settings"
    frozen = json.loads((out / "results" / "system_check.json").read_text())
    html = (out / "index.html").read_text()
    embedded = json.loads(html.split('<script type="application/json" id="frozen-results">')[1].split("</script>")[0])
    assert embedded == {"system_check": frozen}
    recap = json.loads(html.split('<script type="application/json" id="frozen-recap">')[1].split("</script>")[0])
    assert recap["rows"] and not any(row["measured"] for row in recap["rows"]), "the closing slide: every test not run yet"
    assert recap["acts"] and all(act["text"] == "not measured yet" for act in recap["acts"])


def test_the_export_freezes_the_longer_runs_warm_full_prepared(tmp_path, monkeypatch):
    """`flask warm --full` then `flask export`: the static copy holds each demo's prepared (longer) run
    beside its default, labelled as such, where the page's "Longer run" button finds it."""
    from demos import system_check

    full = {"size": 128, "repeats": 5}  # the CPU's prepared run, for this test: a second or two
    monkeypatch.setattr(system_check, "BUDGETS", {"cpu": {"full": full}}, raising=False)
    app = create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache")})
    warmed = app.test_cli_runner().invoke(args=["warm", "--full", "system_check"])
    assert warmed.exit_code == 0 and "system_check (full)" in warmed.output, warmed.output
    out = tmp_path / "export"
    exported = app.test_cli_runner().invoke(args=["export", str(out)])
    assert exported.exit_code == 0, exported.output

    manifest = {item["demo"]: item for item in json.loads((out / "manifest.json").read_text())["frozen"]}
    assert set(manifest) == {"system_check", "system_check@full"}
    assert manifest["system_check@full"]["budget"] == "the CPU prepared run"
    assert manifest["system_check@full"]["params"]["size"] == 128 and manifest["system_check"]["params"]["size"] == 512
    assert re.search(r"froze system_check@full +computed on cpu in [\d.]+ s \(the CPU prepared run\)", exported.output)
    longer = json.loads((out / "results" / "system_check@full.json").read_text())
    assert longer["params"]["repeats"] == 5 and longer["budget_run"]["run"] == "full"
    html = (out / "index.html").read_text()
    embedded = {name: json.loads(html.split(f'<script type="application/json" id="frozen-{name}">')[1].split("</script>")[0])
                for name in ("results", "prepared")}  # by demo id, as the page reads them
    assert embedded["prepared"]["system_check"] == longer and embedded["results"]["system_check"]["params"]["size"] == 512
    assert f"not frozen, {DEMO_SLIDES - 1} of {DEMO_SLIDES} demos" in exported.output, "a longer run is no demo of its own"


def test_the_bundler_wraps_modules_and_refuses_what_it_cannot_handle(tmp_path):
    (tmp_path / "a.js").write_text('import { b as bee, c } from "./b.js";\nimport * as all from "./b.js";\nexport const a = bee + c;\n')
    (tmp_path / "b.js").write_text("export const b = 1;\nfunction c() { return 2; }\nconst d = 4;\nexport { c, d as dee };\n")
    code = bundle(tmp_path / "a.js", tmp_path)
    assert 'const { b: bee, c } = __load("b.js");' in code and 'const all = __load("b.js");' in code
    assert "return { a };" in code and "return { b, c, dee: d };" in code
    assert code.count('__define("b.js"') == 1, "a module imported twice is bundled once"
    (tmp_path / "d.js").write_text("export default 3;\n")
    with pytest.raises(BundleError, match="d.js"):
        bundle(tmp_path / "d.js", tmp_path)


def test_the_bundle_leaves_out_comment_lines_but_never_text(tmp_path):
    (tmp_path / "a.js").write_text("// why this module exists\nexport const a = 1; // kept with its code\n"
                                   "  // an indented comment\nexport const t = `first line\n// text, not a comment\n`;\n")
    code = bundle(tmp_path / "a.js", tmp_path)
    assert "why this module exists" not in code and "an indented comment" not in code
    assert "const a = 1; // kept with its code" in code
    assert "`first line\n// text, not a comment\n`" in code
