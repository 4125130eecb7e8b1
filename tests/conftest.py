"""Shared fixtures: an app on a throw-away instance folder, and its test client; a Redis of a test's
own, and boards of either kind. Importing `tests.fixture_app` registers the test-only demo `line_fit`,
as the tests' live servers do."""
import os
import random
import shutil
import tempfile
from pathlib import Path

import pytest
import torch

from demos import DEMOS
from engine.file_board import FileBoard
from tests.fixture_app import create_app
from tests.made_once import SHARED
from tests.redis_server import REDIS_SERVER, RedisServer

FAST_DEMOS = ("system_check", "line_fit")


# Every run shuffles the tests outside tests/browser/: the order of the files, and of the tests in each
# file (a file's tests stay together, so its fixtures are made once). A test that passes only after
# another then fails on some run, with the seed in the header to repeat it: pytest --order-seed N.
# The browser tests keep their order (their servers are shared and slow to start); each of their files
# is checked alone by `python -m benchmarks.each_file_alone`.
# The test processes (pytest -n) take whole files in this order, the next as one runs short: the long
# files first (the browser tests, then the demos' own, which train), the many short ones last to even out
# the end, so that no process sits idle while the other finishes a long file. Of the rest, the files that
# start servers or commands (20 to 28 s each, against under 11 s for any other) go first: shuffled last,
# they left one process idle for the last 40 s. pyproject.toml turns off pytest-xdist's own reordering
# (files with the most tests first), which left long one-test browser files for the end.
ORDER_SEED = "GREAT_SHIFT_ORDER_SEED"
BROWSER, DEMO_TESTS = Path(__file__).parent / "browser", Path(__file__).parent / "demos"
STARTS_PROCESSES = ("LiveServer", "subprocess", "sys.executable")  # what a test file starts processes with


def starts_processes(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    return any(word in text for word in STARTS_PROCESSES)


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (the default, set in pyproject.toml): one process per core (a third process on the
    2-core machine was no faster: docs/benchmarks.md), and no more than one per 3 GiB of memory, since
    each holds PyTorch, a browser and its test servers (about 2 GiB together, measured)."""
    memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return max(1, min(os.cpu_count() or 1, int(memory_gib // 3)))


def pytest_addoption(parser):
    parser.addoption("--order-seed", type=int, default=None,
                     help="shuffle the tests outside tests/browser/ with this seed (default: a new seed each run)")


def pytest_configure(config):
    # One seed for the whole run: worker processes (pytest -n) inherit it, and must collect one order.
    seed = config.getoption("--order-seed")
    if seed is None:
        seed = int(os.environ.get(ORDER_SEED) or random.randrange(10_000))
    os.environ[ORDER_SEED] = str(seed)
    config.order_seed = seed
    # One folder for the work the processes share (tests/made_once.py), made by the first process.
    if not os.environ.get(SHARED):
        os.environ[SHARED] = config.made_shared_folder = tempfile.mkdtemp(prefix="great-shift-tests-")


def pytest_unconfigure(config):
    if getattr(config, "made_shared_folder", None):
        shutil.rmtree(config.made_shared_folder, ignore_errors=True)
        del os.environ[SHARED]


def pytest_report_header(config):
    return f"test order: shuffled outside tests/browser/ with --order-seed {config.order_seed}"


def pytest_collection_modifyitems(config, items):
    shuffled = random.Random(config.order_seed)
    groups: dict = {"browser": {}, "demos": {}, "rest": {}}
    for item in items:
        group = "browser" if BROWSER in item.path.parents else "demos" if item.path.parent == DEMO_TESTS else "rest"
        groups[group].setdefault(item.path, []).append(item)
    for group in ("demos", "rest"):
        files = list(groups[group].values())
        shuffled.shuffle(files)
        for tests in files:
            shuffled.shuffle(tests)
        if group == "rest":  # the long ones first, each part still shuffled
            files.sort(key=lambda tests: not starts_processes(tests[0].path))
        groups[group] = files
    items[:] = [test for tests in groups["browser"].values() for test in tests] + \
               [test for group in ("demos", "rest") for tests in groups[group] for test in tests]


@pytest.fixture(autouse=True, scope="session")
def one_torch_thread():
    """Train on one CPU thread, as the engine does: on a busy 2-core machine two threads that
    each wait for a core run several times slower (measured: 40 steps, 3.7 s against 26 s)."""
    torch.set_num_threads(1)


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "CACHE_DIR": str(tmp_path / "cache")})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def redis_server(tmp_path):
    """A Redis of this test's own (tests/redis_server.py); skipped, saying why, without redis-server."""
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"{REDIS_SERVER} is not installed (apt-get install redis-server; .ci/run does)")
    server = RedisServer(tmp_path).start()
    yield server
    server.stop()


@pytest.fixture(params=["files", "redis"])
def board_factory(request, tmp_path):
    """Makes boards on one store, as the server processes of one room have: in one folder, or on one
    Redis (the test's `redis_server`)."""
    if request.param == "files":
        yield lambda: FileBoard(tmp_path)
        return
    from engine.redis_board import RedisBoard

    url, boards = request.getfixturevalue("redis_server").url, []

    def make() -> RedisBoard:
        boards.append(RedisBoard(url))
        return boards[-1]

    yield make
    for board in boards:
        board.close()


@pytest.fixture
def deck(client):
    """The slide list as the API reports it."""
    return client.get("/api/slides").get_json()["slides"]


@pytest.fixture
def only_fast_demos(monkeypatch):
    """The registry with only the two quick demos, for tests that warm or list every demo."""
    for demo_id in list(DEMOS):
        if demo_id not in FAST_DEMOS:
            monkeypatch.delitem(DEMOS, demo_id)
