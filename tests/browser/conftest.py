"""Browser tests: Playwright's Python package driving the system's Chromium against the real server.

Every page a test opens is watched (tests/browser/watch.py): a console error, an uncaught exception or a request to
any host but the test server fails the test.
"""
import os
import shutil
from pathlib import Path

import pytest

# A machine without the browser-test packages (a GPU server running `pytest -m gpu`) skips this folder.
for package in ("playwright", "axe_playwright_python"):
    pytest.importorskip(package, reason=f"the browser tests need {package}: pip install -e '.[test]'")

from tests.browser.cached_results import start_cached_server  # noqa: E402 (after the check above)
from tests.browser.watch import watched_page  # noqa: E402
from tests.live_server import ROOT, LiveServer  # noqa: E402

ARTIFACTS = ROOT / "artifacts"  # screenshots; ignored by git
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Nothing leaves the machine: every host but the test server's fails to resolve (the watch below
    # records any such request). Blocking here rather than by routing every request through Playwright
    # keeps the browser's own network path: its cache, and keepalive posts sent as a window closes.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]


def chromium_path(shell: bool = False) -> str:
    """The system's Chromium (CHROMIUM=/path overrides). `shell`: its headless shell where installed
    (Debian's chromium-headless-shell), for the tests: it drew the same pages with a quarter less CPU
    (test_navigation and test_accessibility: 48 s of CPU against 64 s, two runs each on the 2-core
    machine), so the suite runs sooner. The benchmarks measure the browser a phone or laptop runs."""
    path = os.environ.get("CHROMIUM") or (shell and shutil.which("chromium-headless-shell")) \
        or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail(
            "The browser tests need Chromium from your system's packages: "
            "`sudo apt-get install -y chromium` (or set CHROMIUM=/path/to/chromium). "
            "To run the other tests alone: pytest -m 'not browser'",
            pytrace=False,
        )
    return path


# A deadline for every `expect`: it waits on what the page shows and passes as soon as it does, so the
# deadline only bounds a hang. Playwright's 5 s is too short for a 2-core machine that also runs the
# server's training and a second browser (Plotly alone can take seconds to parse there).
EXPECT_DEADLINE_MS = 30_000


@pytest.fixture(scope="session", autouse=True)
def generous_expect_deadline():
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_DEADLINE_MS)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    with LiveServer(tmp_path_factory.mktemp("browser") / "cache") as live:
        yield live


@pytest.fixture(scope="session")
def cached_server(tmp_path_factory):
    """A server of its own whose cache holds every demo's result on tiny settings (tests/browser/cached_results.py),
    computed once for every test that looks at whole slides."""
    with start_cached_server(tmp_path_factory.mktemp("cached") / "cache") as live:
        yield live


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(shell=True), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser, server):
    """Opens pages on the test server, at a given window size; checks them when the test ends."""
    contexts, watches = [], []

    def open_page(path="/slides/1", width=1280, height=720, **context_options):
        context, page, watch = watched_page(browser, server.url, width, height, **context_options)
        page.goto(server.url + path)
        page.wait_for_function("() => window.greatShift !== undefined")
        page.watch = watch
        contexts.append(context)
        watches.append(watch)
        return page

    yield open_page
    for context in contexts:
        context.close()
    for watch in watches:
        assert not watch.errors, watch.errors
        assert not watch.outside_requests, f"requests left localhost: {watch.outside_requests}"


@pytest.fixture
def screenshot_path():
    def path(name: str) -> Path:
        (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
        return ARTIFACTS / "screenshots" / name

    return path
