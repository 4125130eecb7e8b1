"""The README's three commands stay true: the room command is the app's own, and CI runs the same
test command the README gives."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Three commands", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section, flags=re.DOTALL)


def test_the_readme_gives_the_quickest_start_first_then_the_room_then_the_tests():
    start, room, test = readme_commands()
    assert "flask --app app run" in start
    assert "flask --app app serve" in room
    assert "pytest" in test


def test_the_room_command_is_one_the_app_has(app):
    _, room, _ = readme_commands()
    words = room.split("flask --app app ", 1)[1].split()
    assert app.test_cli_runner().invoke(args=[*words, "--help"]).exit_code == 0


def test_ci_runs_the_readme_test_command():
    _, _, test = readme_commands()
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
