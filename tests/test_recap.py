"""The last slide's recap: each demo's headline agrees with its numbers, and /api/recap reads
the cached default results (and says which have not run)."""
import pytest

from demos import DEMOS, amnesia, index_lookup, recall_vs_length, signal_decay, speed_race
from demos.runtime.runner import run_demo
from demos.shared.seeds import spread_text
from tests.deck import slide_number

TINY = {
    amnesia: {"length": 5, "steps": 30},
    recall_vs_length: {"lengths": [20], "steps": 20},
    index_lookup: {"length": 8, "widths": [4], "steps": 100, "seeds": 2},
    signal_decay: {"length": 20, "sequences": 4},
    speed_race: {"lengths": [64], "width": 64, "batch": 1, "repeats": 2, "loop_max_length": 64},
}


@pytest.mark.parametrize("demo", TINY, ids=lambda demo: demo.ID)
def test_each_headline_names_a_winner_with_its_numbers(demo):
    result = run_demo(demo, TINY[demo])
    row = demo.headline(result)
    assert set(row) == {"test", "winner", "winner_label", "detail"}
    assert row["winner"] in ("rnn", "lstm", "transformer", "tie")
    assert any(ch.isdigit() for ch in row["detail"]), "the detail carries the measured numbers"


def test_the_amnesia_headline_follows_the_seeds_ranges():
    result = run_demo(amnesia, TINY[amnesia])
    lstm, transformer = (result["models"][name]["accuracy"] for name in ("lstm-tuned", "transformer"))
    row = amnesia.headline(result)
    if transformer["min"] > lstm["max"]:
        assert row["winner"] == "transformer"
    elif lstm["min"] > transformer["max"]:
        assert row["winner"] == "lstm"
    else:
        assert row["winner"] == "tie"
    assert spread_text(transformer) in row["detail"] and spread_text(lstm) in row["detail"]


def test_the_recap_reads_cached_default_results(app, client):
    engine = app.extensions["engine"]
    engine.compute(*engine.resolve("amnesia", None))  # the lecturer's default run
    rows = {row["demo"]: row for row in client.get("/api/recap").get_json()["rows"]}
    headline_demos = [demo_id for demo_id, demo in DEMOS.items() if hasattr(demo, "headline")]
    assert set(rows) == set(headline_demos)
    assert rows["amnesia"]["measured"] is True and rows["amnesia"]["device"] == "cpu"
    n = slide_number("amnesia")
    assert rows["amnesia"]["n"] == n and rows["amnesia"]["test"] == "Amnesia Test, length 20"
    cached = engine.cached("amnesia").result
    assert rows["amnesia"] == {"n": n, "slide": "The Amnesia Test", "demo": "amnesia", "measured": True,
                               "device": "cpu", "longer_run": False, **amnesia.headline(cached)}
    assert rows["index_lookup"] == {"n": slide_number("index_lookup"), "slide": "Memory Has a Size: Index Lookup",
                                    "demo": "index_lookup", "measured": False}


def test_the_recap_prefers_a_cached_longer_run(app, client, monkeypatch):
    engine = app.extensions["engine"]
    monkeypatch.setattr(index_lookup, "FULL_PARAMS", {"length": 8, "widths": [4], "steps": 100, "seeds": 1})
    engine.compute(*engine.resolve("index_lookup", index_lookup.FULL_PARAMS))
    row = {r["demo"]: r for r in client.get("/api/recap").get_json()["rows"]}["index_lookup"]
    assert row["measured"] and row["longer_run"] is True and row["test"] == "Index Lookup, N = 8"
