"""A non-editable install carries the whole `demos` package: every subpackage, the corpus and the recipes chosen on validation data."""
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "instance", "artifacts",
                                    "__pycache__", ".pytest_cache")


def test_the_wheel_holds_every_module_and_data_file_and_nothing_stale(tmp_path):
    source = tmp_path / "source"  # a copy, so a build folder left in the checkout cannot add stale modules
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp_path), str(source)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("great_shift-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {path.relative_to(ROOT).as_posix() for folder in ("demos", "engine", "web", "slides")
              for path in (ROOT / folder).rglob("*") if path.suffix in (".py", ".md", ".txt", ".json", ".xz")
              and "__pycache__" not in path.parts}
    assert any(name.startswith("demos/core/") for name in wanted)
    assert {"demos/core/data/python_docs.json.xz", "demos/core/data/python_docs.json",
            "demos/core/data/python_docs_LICENSE.txt"} <= wanted  # the character corpus, its manifest, its licence
    assert wanted <= names, sorted(wanted - names)
    assert {name for name in names if name.startswith("demos/")} == {n for n in wanted if n.startswith("demos/")}
    assert "app.py" in names
    with zipfile.ZipFile(wheel) as shipped:  # the corpus arrives intact: its sha256 is the one its manifest names
        manifest = json.loads(shipped.read("demos/core/data/python_docs.json"))
        assert hashlib.sha256(shipped.read("demos/core/data/python_docs.json.xz")).hexdigest() == manifest["sha256"]


def test_the_install_brings_what_the_gevent_web_workers_import():
    # gunicorn.conf.py runs gevent workers where the web servers train nothing (deploy/two_servers.sh);
    # gunicorn's gevent extra names what they import (gevent, packaging): a fresh `pip install -e .`
    # without it had no packaging, and every web server of the README's fourth command failed to start.
    import tomllib
    from importlib.metadata import requires

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(dependency.startswith("gunicorn[gevent]") for dependency in declared), declared
    extra = [requirement.split(";")[0].split(">")[0].strip() for requirement in requires("gunicorn")
             if 'extra == "gevent"' in requirement]
    assert "gevent" in extra
    for module in extra:
        __import__(module)
    __import__("gunicorn.workers.ggevent")
