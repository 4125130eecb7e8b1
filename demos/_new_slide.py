"""`python -m demos new <id>`: a new slide's four files, started from the example in docs/new_slide/.

  slides/NN-<id>.md                    the slide, numbered to come after the others but the recap
  demos/<id>.py                        the demo
  static/js/demos/renderers/<id>.js    what draws its result
  tests/demos/test_<id>.py             its tests

Each is found by its name alone, with no list to edit: the deck reads slides/, `demos` lists its
modules, the page's bundle lists the renderers' folder (web/bundle.py), pytest finds the test. (The
leading underscore keeps this module out of `demos`' list of demos.)
"""
import keyword
import re
import sys
from pathlib import Path

from slides import RECAP, SLIDE_FILE_GLOB

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path("docs/new_slide")
EXAMPLE_ID = re.compile(r"\bnew_demo\b")  # the example's id, everywhere in the template's files
VALID_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
RESERVED = {RECAP: "the closing slide's", "new": "this command's", "core": "a subpackage's",
            "runtime": "a subpackage's", "shared": "a subpackage's"}


class NewSlideError(ValueError):
    """Why the files were not made, in one line."""


def check_id(demo_id: str) -> None:
    if not VALID_ID.fullmatch(demo_id) or keyword.iskeyword(demo_id):
        raise NewSlideError(f"{demo_id!r} cannot be a demo id: use lower-case letters, digits and _, starting "
                            f"with a letter, at most 40 (it names a Python module)")
    if demo_id in RESERVED:
        raise NewSlideError(f"{demo_id!r} is {RESERVED[demo_id]} name: choose another id")


def slide_file(slides_dir: Path, demo_id: str) -> Path:
    """Where the new slide goes: numbered one after the last slide but the closing recap, whose file
    (`99-recap.md`) sorts after any other. The number is only the slide's place: rename the file to move it."""
    names = sorted(path.name for path in slides_dir.glob(SLIDE_FILE_GLOB))
    recap = [name for name in names if name.endswith(f"-{RECAP}.md")]
    others = [name for name in names if name not in recap]
    name = f"{int(others[-1][:2]) + 1 if others else 1:02d}-{demo_id}.md"
    if len(name) > len(f"00-{demo_id}.md") or (recap and name > recap[0]):
        raise NewSlideError(f"{name} would not come before the closing slide {recap[0] if recap else ''}: "
                            f"renumber the slide files (the recap's is 99-recap.md)")
    return slides_dir / name


# Where each of the template's files goes, but the slide (`slide_file` numbers it).
FILES = {"demo.py": "demos/{id}.py", "renderer.js": "static/js/demos/renderers/{id}.js",
         "test_demo.py": "tests/demos/test_{id}.py"}


def taken(root: Path, demo_id: str) -> list[Path]:
    """The files that use this id already: its slide (of any number), demo, renderer or test, or a demo of the tests' own."""
    files = [root / pattern.format(id=demo_id) for pattern in [*FILES.values(), "tests/{id}.py"]]
    return [*(root / "slides").glob(f"[0-9][0-9]-{demo_id}.md"), *(path for path in files if path.exists())]


def new_slide(root: Path, demo_id: str) -> list[Path]:
    """The four files of a new demo `demo_id`, written under `root` from the template; their paths."""
    check_id(demo_id)
    template = root / TEMPLATE
    if not template.is_dir():
        raise NewSlideError(f"no template at {template}: run this in a checkout of the project")
    existing = taken(root, demo_id)
    if existing:
        raise NewSlideError(f"{demo_id!r} is taken: {', '.join(str(path.relative_to(root)) for path in existing)} already there")
    targets = {"slide.md": slide_file(root / "slides", demo_id),
               **{name: root / pattern.format(id=demo_id) for name, pattern in FILES.items()}}
    written = []
    try:
        for name, path in targets.items():
            with open(path, "x", encoding="utf-8") as file:  # "x": never over a file made meanwhile
                written.append(path)
                file.write(EXAMPLE_ID.sub(demo_id, (template / name).read_text(encoding="utf-8")))
    except OSError:
        for path in written:  # all four or none
            path.unlink(missing_ok=True)
        raise
    return written


def main(argv: list[str], root: Path = ROOT) -> int:
    usage = "usage: python -m demos new <id>  (a new slide's four files, from docs/new_slide/)"
    if argv in (["-h"], ["--help"]):
        print(usage)
        return 0
    if len(argv) != 1 or argv[0].startswith("-"):
        print(usage, file=sys.stderr)
        return 2
    demo_id = argv[0]
    try:
        written = new_slide(root, demo_id)
    except (NewSlideError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"A new slide, {demo_id}, in four files (a working example: majority vote, LSTM vs Transformer):")
    for path in written:
        print(f"  {path.relative_to(root)}")
    print(f"Try it: python -m demos {demo_id} --steps 20; python -m pytest tests/demos/test_{demo_id}.py; "
          f"flask --app app run (then open its slide)")
    return 0
