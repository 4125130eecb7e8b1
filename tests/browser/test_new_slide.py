"""A slide added in four files (`python -m demos new`), in Chromium: one page walked with the → key through
every slide of the copy's deck, the new one included, each shown; on the new slide Run trains the demo on
the server and its renderer, found by its file name alone, draws the chart (tests/test_new_slide.py checks
the rest without a browser)."""
import json
import re
import subprocess
import sys

from demos import _new_slide as new_slide
from slides import load_deck
from tests.test_new_slide import NEW, copy_of_the_project


def test_the_deck_with_a_new_slide_walks_through_every_slide_and_draws_the_new_chart(tmp_path):
    project = copy_of_the_project(tmp_path / "project")
    assert new_slide.main([NEW], root=project) == 0
    run = subprocess.run([sys.executable, "-m", "tests.added_slide", NEW, str(tmp_path), "--walk"], cwd=project,
                         capture_output=True, text=True, timeout=280)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.splitlines()[-1])
    assert seen["shown"] == list(range(1, len(load_deck()) + 2)), "every slide of 14, in order"
    assert re.fullmatch(r"Training loss against step, one line a seed: LSTM · \d+% right, Transformer · \d+% right",
                        seen["chart"]), seen["chart"]
    assert not seen["problems"], seen["problems"]
