"""How a page gets its script: one bundle of the ES modules (the faster on a phone, measured by
`python -m benchmarks.page_weight --script-modules`), or, with FLASK_SCRIPT_MODULES=1, the modules one
by one as written, to read them in the browser's tools."""
import re
from pathlib import Path

import pytest

from app import create_app

RENDERERS = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "static/js/demos/renderers").glob("*.js")
                   if p.stem != "index")


@pytest.fixture
def modules_client(tmp_path):
    return create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache"), "SCRIPT_MODULES": True}).test_client()


def scripts(html: str) -> list[str]:
    return re.findall(r"<script[^>]*\bsrc=[^>]*>", html)


def test_a_page_loads_one_bundle_and_no_module_is_served_by_default(client):
    page = scripts(client.get("/slides/1").get_data(as_text=True))
    assert [tag for tag in page if "main.bundle" in tag and "defer" in tag]
    assert not [tag for tag in page if 'type="module"' in tag]
    assert client.get("/modules/main.js").status_code == 404


def test_with_script_modules_a_page_loads_its_entry_module_and_each_module_as_written(modules_client):
    for path, entry in (("/slides/1", "/modules/main.js"), ("/presenter", "/modules/presenter/main.js")):
        assert f'<script type="module" src="{entry}"></script>' in modules_client.get(path).get_data(as_text=True)
    deck = modules_client.get("/modules/deck/deck.js")
    assert deck.status_code == 200 and deck.mimetype == "text/javascript"
    assert deck.get_data(as_text=True) == (Path(__file__).resolve().parent.parent / "static/js/deck/deck.js").read_text()


def test_the_renderer_folder_is_written_out_as_one_import_per_renderer(modules_client):
    index = modules_client.get("/modules/demos/renderers/index.js").get_data(as_text=True)
    assert "*.js" not in index
    imported = re.findall(r'^import \* as \w+ from "\./(\w+)\.js";$', index, re.MULTILINE)
    assert imported == RENDERERS
    assert all(f'"{name}": RENDERERS_' in index for name in RENDERERS)


@pytest.mark.parametrize("path", ["/modules/../../app.py", "/modules/%2e%2e/%2e%2e/app.py", "/modules/../css/deck.css",
                                  "/modules/no-such-module.js"])
def test_nothing_outside_the_modules_is_served(modules_client, path):
    assert modules_client.get(path).status_code == 404
