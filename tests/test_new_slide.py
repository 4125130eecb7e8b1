"""A lecturer adds a slide with a live experiment in four files, and edits nothing else: `python -m demos
new <id>` starts them from a working example (docs/new_slide/), and the deck, the API, the page's script,
the poll, the terminal, the tests, `flask warm`, the recap and `flask export` find the demo by its name
alone; removed, the deck is as it was. Bad input is refused in one line. Also each convention on its own:
the bundler's folder import (the renderers) and the stylesheets of css/demos/."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from demos import _new_slide as new_slide
from demos.__main__ import main as demos_main
from slides import load_deck
from tests.made_once import SHARED
from web.bundle import BundleError, bundle
from web.static_assets import Assets

ROOT = Path(__file__).resolve().parent.parent
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "instance", "artifacts",
                                    "__pycache__", ".pytest_cache")
NEW = "majority_vote"


def copy_of_the_project(folder: Path) -> Path:
    """A copy of the project (5 MB: well under a second), which a test may add files to."""
    shutil.copytree(ROOT, folder / "great-shift", ignore=NOT_SOURCE)
    return folder / "great-shift"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return copy_of_the_project(tmp_path_factory.mktemp("project"))


def contents(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts}


def test_a_slide_added_in_four_files_is_found_everywhere_and_gone_once_removed(project, tmp_path):
    before = contents(project)
    assert new_slide.main([NEW], root=project) == 0
    after = contents(project)
    lecture = [slide.demo for slide in load_deck()]
    n = len(lecture)  # the new slide's number: the last before the recap
    assert sorted(set(after) - set(before)) == sorted([f"demos/{NEW}.py", f"slides/{n:02d}-{NEW}.md",
                                                       f"static/js/demos/renderers/{NEW}.js", f"tests/demos/test_{NEW}.py"])
    assert {name: after[name] for name in before} == before, "no other file is edited"

    env = {name: value for name, value in os.environ.items() if name != SHARED}  # the copy's tests share nothing with ours
    run = subprocess.run([sys.executable, "-m", "tests.added_slide", NEW, str(tmp_path)], cwd=project, env=env,
                         capture_output=True, text=True, timeout=280)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.splitlines()[-1])

    added = seen["added"]
    assert added["deck"] == added["api_slides"] == [*lecture[:-1], NEW, lecture[-1]]  # 14 slides, the recap last
    assert seen["demo_module"] and seen["widget_on_its_slide"] and seen["poll"].startswith("After 60 training steps")
    assert added["renderer_in_script"], "the page's script holds the renderer, found by its file name"
    assert seen["terminal_exit"] == 0 and "After 20 training steps on strings of 5 bits" in seen["terminal"]
    assert seen["tests"]["exit"] == 0 and " passed" in seen["tests"]["output"], seen["tests"]["output"]
    assert seen["warm"]["exit"] == 0 and f"{NEW}  trained" in seen["warm"]["output"], seen["warm"]["output"]
    assert added["recap_row"]["measured"] is True and added["recap_row"]["n"] == n
    assert n in added["recap_acts"]["Other tests"], "a test in no act is summed up under Other tests"
    assert seen["export"] == {"exit": 0, "frozen": [NEW], "result_file": True}

    removed = seen["removed"]
    assert removed["deck"] == removed["api_slides"] == lecture
    assert not removed["renderer_in_script"] and removed["recap_row"] is None
    assert n not in removed["recap_acts"].get("Other tests", [])


@pytest.mark.parametrize("argv, says", [
    (["amnesia"], "'amnesia' is taken: slides/03-amnesia.md, demos/amnesia.py"),
    (["Majority-Vote"], "'Majority-Vote' cannot be a demo id: use lower-case letters"),
    (["2nd"], "cannot be a demo id"),
    (["class"], "cannot be a demo id"),
    (["recap"], "'recap' is the closing slide's name"),
    (["new"], "'new' is this command's name"),
    (["line_fit"], "'line_fit' is taken: tests/line_fit.py"),
    ([], "usage: python -m demos new <id>"),
    (["one", "two"], "usage: python -m demos new <id>"),
])
def test_bad_input_is_refused_in_one_line_and_makes_nothing(project, argv, says, capsys):
    before = contents(project)
    assert new_slide.main(argv, root=project) == 2
    out, err = capsys.readouterr()
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err and not out
    assert contents(project) == before


def test_the_command_is_python_m_demos_new(capsys):
    """Dispatched from `python -m demos` (on an id that is taken: the checkout is left as it is)."""
    assert demos_main(["new", "amnesia"]) == 2
    assert capsys.readouterr().err.startswith("error: 'amnesia' is taken")
    assert demos_main(["--help"]) == 0 and "python -m demos new <id>" in capsys.readouterr().out


def test_a_new_slide_comes_before_the_recap_whatever_its_name(tmp_path):
    for name in ("01-a.md", "12-b.md", "99-recap.md"):
        (tmp_path / name).touch()
    assert new_slide.slide_file(tmp_path, "zzz").name == "13-zzz.md"
    (tmp_path / "99-recap.md").rename(tmp_path / "13-recap.md")  # a recap numbered like the rest
    assert new_slide.slide_file(tmp_path, "aaa").name == "13-aaa.md"
    with pytest.raises(new_slide.NewSlideError, match="would not come before the closing slide 13-recap.md"):
        new_slide.slide_file(tmp_path, "zzz")


def test_a_folder_import_bundles_every_module_of_the_folder_by_its_file_name(tmp_path):
    (tmp_path / "parts" / "shared").mkdir(parents=True)
    (tmp_path / "parts" / "index.js").write_text('import * as ALL from "./*.js";\nexport { ALL };\n')
    (tmp_path / "parts" / "first_part.js").write_text("export const a = 1;\n")
    (tmp_path / "parts" / "second.js").write_text('import { b } from "./shared/b.js";\nexport const c = b;\n')
    (tmp_path / "parts" / "shared" / "b.js").write_text("export const b = 2;\n")
    (tmp_path / "main.js").write_text('import { ALL } from "./parts/index.js";\n')
    code = bundle(tmp_path / "main.js", tmp_path)
    assert 'const ALL = { "first_part": __load("parts/first_part.js"), "second": __load("parts/second.js") };' in code
    assert code.count('__define("') == 5, "each module of the folder, and what they import, bundled once"
    (tmp_path / "far.js").write_text('import * as ALL from "/parts/*.js";\n')
    with pytest.raises(BundleError, match="only relative imports"):
        bundle(tmp_path / "far.js", tmp_path)


def test_a_stylesheet_in_css_demos_is_in_the_pages_stylesheet_until_removed(tmp_path):
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static" / "css", static / "css")
    assets = Assets(static)
    assert b".attn-web-chart" in assets.get("css/deck.bundle.css").raw  # a group of the deck's own
    (static / "css" / "demos" / f"{NEW}.css").write_text(".majority-vote-chart { min-height: 280px; }\n")
    assert b".majority-vote-chart" in assets.get("css/deck.bundle.css", check_for_edits=True).raw
    (static / "css" / "demos" / f"{NEW}.css").unlink()
    assert b".majority-vote-chart" not in assets.get("css/deck.bundle.css", check_for_edits=True).raw
