"""The browser's ES modules fit together: every name a module imports is exported by the module it
names (a missing one stops the whole page from starting, with no error in Python)."""
import re
from pathlib import Path

import pytest

from web.export import FULL
from web.poll_secret import POLL_OPEN

ROOT = Path(__file__).resolve().parent.parent / "static" / "js"
EXPORTED = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|class|const|let)\s+(\w+)", re.MULTILINE)
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}", re.MULTILINE)
IMPORTED = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"([^"]+)"', re.MULTILINE)


def exports_of(path: Path) -> set[str]:
    source = path.read_text(encoding="utf-8")
    names = set(EXPORTED.findall(source))
    for group in EXPORT_LIST.findall(source):
        names.update(part.split(" as ")[-1].strip() for part in group.split(",") if part.strip())
    return names


def test_every_imported_name_is_exported_by_its_module():
    missing = []
    for module in ROOT.rglob("*.js"):
        for names, target in IMPORTED.findall(module.read_text(encoding="utf-8")):
            path = (module.parent / target).resolve()
            assert path.exists(), f"{module.relative_to(ROOT)} imports {target}, which does not exist"
            wanted = {name.split(" as ")[0].strip() for name in names.split(",") if name.strip()}
            missing += [f"{module.relative_to(ROOT)}: {name} from {target}" for name in wanted - exports_of(path)]
    assert not missing, missing


def run_module(module: str, function: str, values: list) -> list:
    """`function` of the browser's `module` (a path under static/js) applied to each value, run by Node.js."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js to run the browser's module")
    script = (f'import {{ {function} }} from "{(ROOT / module).as_uri()}"; '
              f'console.log(JSON.stringify({json.dumps(values)}.map((v) => {function}(v))));')
    out = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_runs_time_is_written_in_whole_minutes_and_tens_of_seconds():
    """The estimate beside Run and in "This run will take …": a minute is carried, never "3 min 60 s"."""
    values = [0.4, 12.4, 59.4, 59.6, 64, 95, 236, 239.5, 299, 301]
    assert run_module("demos/estimate.js", "aboutSeconds", values) == [
        "under a second", "about 12 s", "about 59 s", "about 1 min", "about 1 min", "about 1 min 40 s",
        "about 4 min", "about 4 min", "about 5 min", "about 5 min"]


def test_python_and_javascript_write_a_ratio_alike():
    """One rule for "1.78×": the summaries (Python) and the charts' labels (JavaScript) agree."""
    from demos.shared.speedup import times_word

    values = [0.0123, 0.031, 0.0999, 0.13, 0.55, 0.98, 1.0, 1.163, 1.78, 4.0, 9.994, 10.2, 16.0, 123.4]
    assert run_module("demos/renderers/shared/times.js", "timesWord", values) == [times_word(v) for v in values]


@pytest.mark.parametrize("words", [POLL_OPEN, FULL])
def test_the_page_reacts_to_declared_fields_not_to_the_servers_words(words):
    """No page module matches the server's words: a poll's refusal is told apart by its `withheld`
    field (web/poll_secret.py), not its reason "poll_open"; a static copy hands the page each demo's
    prepared run as a map by demo id (web/export.py), not under the export's file name "<demo>@full".
    A rename on the server would silently break a page that matched them."""
    matching = [str(module.relative_to(ROOT)) for module in ROOT.rglob("*.js") if words in module.read_text(encoding="utf-8")]
    assert not matching, matching


def code_lines(module: Path) -> list[str]:
    """The module's lines without their comments (a comment may well quote an assignment)."""
    text = re.sub(r"/\*.*?\*/", "", module.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines()]


# `a.b = …` (also `a.b.c ??= …`, `f().b = …`): an assignment to a field of some object.
FIELD_ASSIGNED = re.compile(r"(?:(?<![\w$.\])])[A-Za-z_$][\w$]*|[\])])(?:\??\.[\w$]+)+\s*(?:[-+*/]|\?\?|\|\||&&)?=(?![=>])")
# The DOM's own properties, which a module sets on the elements it draws or controls.
DOM_PROPERTIES = {"checked", "className", "disabled", "download", "hidden", "href", "id", "inert", "innerHTML", "open",
                  "scope", "scrollTop", "selected", "src", "tabIndex", "textContent", "title", "type", "value"}


def test_no_module_assigns_a_field_of_another_object():
    """Each object keeps its own fields: a controller or a renderer never sets another's (`this.widget.result =
    null`, `output.chart = …`, `this.state.params = …`); it calls the other's method, or a handler it was
    given. Only `this.name = …` passes, and the DOM's properties (`element.hidden`, `dataset.x`, `style.x`)
    and a global for the console (`window.x`)."""
    found = []
    for module in ROOT.rglob("*.js"):
        for number, line in enumerate(code_lines(module), 1):
            for match in FIELD_ASSIGNED.finditer(line):
                chain = re.sub(r"\s*\W*=$", "", match.group(0)).replace("?.", ".").split(".")
                own = chain[0] == "this" and len(chain) == 2
                dom = chain[-1] in DOM_PROPERTIES or chain[-2] in {"dataset", "style"} or chain[0] == "window"
                if not (own or dom):
                    found.append(f"{module.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)



WIDGET_USE = re.compile(r"(?<![/\w$])widgets?\??\.(?:get\([^)]*\)\??\.)?([\w$]+)(\s*\()?")


def test_the_deck_uses_a_demo_widget_through_its_methods():
    """Follow mode, the presenter link and the page's start ask a demo's widget through its methods
    (`widget.mirrorState()`, `widget.showLecturers(demo, …)`), never by reading its fields (`widget.state`,
    `widget.result`): the widget may keep what it likes however it likes."""
    found = []
    for module in ROOT.rglob("*.js"):
        if module == ROOT / "demos" / "widget.js":
            continue
        for number, line in enumerate(code_lines(module), 1):
            for name, call in WIDGET_USE.findall(line):
                if not call and name not in {"get", "forEach", "set", "values"}:  # a Map of widgets' own methods
                    found.append(f"{module.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)

# The chart's look is declared once (demos/chart_styles.js): a phone's width, and text sizes written as
# numbers: a font's size, or the choice between the phone's 16 px and the canvas's 20.
BREAKPOINT = re.compile(r"max-width|matchMedia\(")
TEXT_SIZE = re.compile(r"\b(?:font|tickfont|textfont)\s*:\s*(?:\{[^}]*\bsize\s*:\s*)?\d|\?\s*(?:16|20)\s*:\s*(?:16|20)\b")


def test_only_chart_styles_declares_the_phone_breakpoint_and_the_chart_text_sizes():
    """The renderers (and the poll) take the phone's breakpoint and the charts' text sizes from
    demos/chart_styles.js, where they were declared again in seven renderers; a renderer's own copy
    would drift from the deck's layout (deck.css) and from the other charts."""
    styles = ROOT / "demos" / "chart_styles.js"
    found = []
    for module in (ROOT / "demos").rglob("*.js"):
        if module == styles:
            continue
        for number, line in enumerate(code_lines(module), 1):
            breakpoint_ = BREAKPOINT.search(line) and "prefers-reduced-motion" not in line
            size = "renderers" in module.parts and TEXT_SIZE.search(line)
            if breakpoint_ or size:
                found.append(f"{module.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
    assert BREAKPOINT.search(styles.read_text(encoding="utf-8")), "chart_styles.js declares the breakpoint"


# A dash or marker given by a model's name: `{ rnn: "dot", …}`, `markers: { transformer: "circle", … }`.
MODEL_LOOK = re.compile(r"\b(?:transformer|lstm|rnn)[\w-]*\"?\s*:\s*\"(?:solid|dash|dot|dashdot|longdash|longdashdot|"
                        r"circle|square|diamond|triangle)")
LOOK = re.compile(r'^\s*"?([\w-]+)"?: \{ (?:color: "[\w-]+", )?dash: "(\w+)"(?:, marker: "([\w-]+)")? \},$', re.MULTILINE)


def test_each_model_has_one_look_on_every_slide():
    """Each model's dash and marker are declared once (demos/chart_styles.js), where five renderers
    declared their own and disagreed (the tuned LSTM dashed on one slide, dash-dotted on another); and no
    two models share both, so that none is told apart by colour alone."""
    found = [f"{module.relative_to(ROOT)}:{number}: {line.strip()}"
             for module in (ROOT / "demos" / "renderers").rglob("*.js")
             for number, line in enumerate(code_lines(module), 1) if MODEL_LOOK.search(line)]
    assert not found, "\n".join(found)
    looks = LOOK.findall((ROOT / "demos" / "chart_styles.js").read_text(encoding="utf-8"))
    assert {"transformer", "lstm", "lstm-tuned", "rnn", "chance", "baseline"} <= {name for name, _, _ in looks}
    pairs = [(dash, marker) for _, dash, marker in looks]
    assert len(set(pairs)) == len(pairs), looks
