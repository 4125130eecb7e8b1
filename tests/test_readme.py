"""The README and the guides in docs/ stay true: the README's four commands are the app's own and
CI's, the README stays a short front door, every relative link reaches a file and a heading, and
the benchmarks guide keeps a generated block for each benchmark `benchmarks.figures` rewrites."""
import os
import re
import subprocess
from pathlib import Path

import pytest

from benchmarks.figures import BENCHMARKS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDES = sorted((ROOT / "docs").glob("*.md"))
README_MAX_BYTES = 10_000
GENERATED_FIGURES = tuple(BENCHMARKS)

FENCE = re.compile(r"^(```|~~~).*?^\1", flags=re.DOTALL | re.MULTILINE)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", flags=re.MULTILINE)


def readme_commands() -> list[str]:
    readme = README.read_text(encoding="utf-8")
    section = readme.split("## Four commands", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section, flags=re.DOTALL)


def test_the_readme_gives_the_quickest_start_first_then_the_room_then_the_tests_then_several_servers():
    start, room, test, several = readme_commands()
    assert "flask --app app run" in start
    assert "flask --app app serve" in room
    assert "pytest" in test
    assert "deploy/two_servers.sh" in several


def test_the_several_servers_command_is_a_script_of_the_project_that_bash_reads(tmp_path):
    script = ROOT / "deploy" / "two_servers.sh"
    assert os.access(script, os.X_OK), "run as written: executable"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0


def test_the_room_command_is_one_the_app_has(app):
    _, room, _, _ = readme_commands()
    words = room.split("flask --app app ", 1)[1].split()
    assert app.test_cli_runner().invoke(args=[*words, "--help"]).exit_code == 0


def test_ci_runs_the_readme_test_command():
    _, _, test, _ = readme_commands()
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_the_readme_is_a_front_door_of_at_most_10000_bytes():
    size = len(README.read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes; move detail into a guide in docs/"


def without_fences(markdown: str) -> str:
    """The text outside fenced code blocks, whose lines are examples, never headings."""
    return FENCE.sub("", markdown)


def prose(markdown: str) -> str:
    """The text outside code: fenced blocks and inline code hold examples, not links."""
    return INLINE_CODE.sub("", without_fences(markdown))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file, a repeated one numbered as GitHub does (-1, -2...)."""
    found: set[str] = set()
    for heading in HEADING.findall(without_fences(path.read_text(encoding="utf-8"))):
        base = slug(heading.replace("`", ""))
        name, n = base, 0
        while name in found:
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def broken_links(path: Path) -> list[str]:
    """The relative links in a Markdown file that reach no file in the repository, or no heading."""
    broken = []
    for target in LINK.findall(prose(path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, flags=re.IGNORECASE):
            continue  # http:, https:, mailto:: not a file of ours
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.is_relative_to(ROOT) or not linked.is_file():
            broken.append(f"{target}: no such file in the repository")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading #{anchor} in {linked.relative_to(ROOT)}")
    return broken


def test_every_link_in_the_readme_reaches_a_file_and_a_heading():
    broken = broken_links(README)
    assert not broken, "README.md: " + "; ".join(broken)


def test_the_readme_links_to_every_guide():
    linked = {target.partition("#")[0] for target in LINK.findall(prose(README.read_text(encoding="utf-8")))}
    assert {f"docs/{guide.name}" for guide in GUIDES} <= linked


@pytest.mark.parametrize("guide", GUIDES, ids=lambda guide: guide.name)
def test_every_link_in_a_guide_reaches_a_file_and_a_heading(guide):
    broken = broken_links(guide)
    assert not broken, f"docs/{guide.name}: " + "; ".join(broken)


@pytest.mark.parametrize("name", GENERATED_FIGURES)
def test_the_benchmarks_guide_has_a_generated_block_for(name):
    lines = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8").splitlines()
    opening, closing = f"<!-- figures:{name} -->", f"<!-- /figures:{name} -->"
    assert lines.count(opening) == 1, f"want exactly one line {opening}"
    assert lines.count(closing) == 1, f"want exactly one line {closing}"
    start, end = lines.index(opening), lines.index(closing)
    block = lines[start + 1:end]
    assert start < end and any(line.strip() for line in block), f"{name}'s block is empty or reversed"
    assert not any(line.startswith("<!-- figures:") or line.startswith("<!-- /figures:") for line in block), \
        f"{name}'s block holds another block's marker"
