"""A static copy exported after `flask warm --full` shows each slide's longer run: its slide opens on the
quick (default) result, offers "Longer run" beside it, and shows the prepared run's own numbers and
budget, with no server. (The export's files themselves: tests/test_export.py.)"""
import re

import pytest
from playwright.sync_api import expect

from app import create_app
from demos import system_check
from tests.browser.watch import watched_page

FULL = {"size": 128, "repeats": 5}  # the CPU's prepared run of slide 1, for this test: a second or two


@pytest.fixture(scope="module")
def export_dir(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("export-full")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(system_check, "BUDGETS", {"cpu": {"full": FULL}}, raising=False)
        app = create_app({"TESTING": True, "CACHE_DIR": str(tmp / "cache")})
        runner = app.test_cli_runner()
        warmed = runner.invoke(args=["warm", "--full", "system_check"])
        assert warmed.exit_code == 0, warmed.output
        exported = runner.invoke(args=["export", str(tmp / "site")])
        assert exported.exit_code == 0, exported.output
    return tmp / "site"


def test_the_exported_copy_offers_the_longer_run_and_shows_it(browser, export_dir):
    _, page, watch = watched_page(browser, "file://")
    page.goto((export_dir / "index.html").as_uri())
    widget = page.locator("#slide-system_check .demo")
    badge = widget.locator(".demo-badge")
    expect(badge).to_have_text(re.compile(r"^frozen copy · computed on cpu in [\d.]+ s · the CPU default$"))
    quick_facts = widget.locator(".demo-output").inner_text()
    button = widget.locator(".demo-longer")
    expect(button).to_have_text("Longer run")
    button.click()
    expect(badge).to_have_text(re.compile(r"^frozen copy · computed on cpu in [\d.]+ s · the CPU prepared run$"))
    expect(button).to_have_text("Back to the quick run")
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(widget.locator(".demo-output")).not_to_have_text(quick_facts)  # the longer run's own numbers
    button.click()
    expect(badge).to_contain_text("the CPU default")
    expect(button).to_have_text("Longer run")
    assert not watch.errors and not watch.outside_requests, (watch.errors, watch.outside_requests)
    page.context.close()
