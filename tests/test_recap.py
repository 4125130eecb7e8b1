"""The last slide's recap: each demo's headline agrees with its numbers, and /api/recap reads
the cached default results (and says which have not run)."""
import pytest

from demos import DEMOS, amnesia, index_lookup, recall_vs_length, signal_decay, speed_race
from demos.runner import run_demo

TINY = {
    amnesia: {"length": 5, "steps": 30},
    recall_vs_length: {"lengths": [20], "steps": 20},
    index_lookup: {"lengths": [10], "widths": [16], "steps": 20},
    signal_decay: {},
    speed_race: {"lengths": [64], "width": 64, "batch": 1, "repeats": 1, "loop_max_length": 64},
}


@pytest.mark.parametrize("demo", TINY, ids=lambda demo: demo.ID)
def test_each_headline_names_a_winner_with_its_numbers(demo):
    result = run_demo(demo, TINY[demo])
    row = demo.headline(result)
    assert set(row) == {"test", "winner", "winner_label", "detail"}
    assert row["winner"] in ("rnn", "lstm", "transformer", "tie")
    assert any(ch.isdigit() for ch in row["detail"]), "the detail carries the measured numbers"


def test_the_amnesia_headline_follows_the_accuracies():
    result = run_demo(amnesia, TINY[amnesia])
    lstm, transformer = (result["models"][name]["accuracy"] for name in ("lstm", "transformer"))
    row = amnesia.headline(result)
    if abs(lstm - transformer) < 0.1:
        assert row["winner"] == "tie"
    else:
        assert row["winner"] == ("transformer" if transformer > lstm else "lstm")
    assert f"{transformer:.0%}" in row["detail"] and f"{lstm:.0%}" in row["detail"]


def test_the_recap_reads_cached_default_results(app, client):
    engine = app.extensions["engine"]
    engine.compute(*engine.resolve("amnesia", None))  # the lecturer's default run
    rows = {row["demo"]: row for row in client.get("/api/recap").get_json()["rows"]}
    headline_demos = [demo_id for demo_id, demo in DEMOS.items() if hasattr(demo, "headline")]
    assert set(rows) == set(headline_demos)
    assert rows["amnesia"]["measured"] is True and rows["amnesia"]["device"] == "cpu"
    assert rows["amnesia"]["n"] == 3 and rows["amnesia"]["test"] == "Amnesia Test, length 20"
    cached = engine.cached("amnesia").result
    assert rows["amnesia"] == {"n": 3, "slide": "The Amnesia Test", "demo": "amnesia", "measured": True,
                               "device": "cpu", **amnesia.headline(cached)}
    assert rows["index_lookup"] == {"n": 5, "slide": "Memory Has a Size: Index Lookup", "demo": "index_lookup",
                                    "measured": False}
