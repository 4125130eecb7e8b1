"""The closing slide's recap: each demo's headline agrees with its numbers, /api/recap reads the cached
default results (and says which have not run), and the takeaway's words follow the rows' winners."""
import pytest

from demos import DEMOS, amnesia, index_lookup, recall_vs_length, signal_decay, speed_race
from demos.runtime.runner import run_demo
from demos.shared.seeds import spread_text
from tests.deck import slide_number
from web.recap import ACTS, takeaway

TINY = {
    amnesia: {"length": 5, "steps": 30},
    recall_vs_length: {"lengths": [20], "steps": 20},
    index_lookup: {"length": 8, "widths": [4], "steps": 100, "seeds": 2},
    signal_decay: {"length": 20, "sequences": 4},
    speed_race: {"lengths": [64], "width": 64, "batch": 1, "repeats": 2, "loop_max_length": 64},
}


@pytest.mark.parametrize("demo", TINY, ids=lambda demo: demo.ID)
def test_each_headline_reads_a_real_result(demo):
    """Each demo's headline reads the result its demo really makes (the exact words: tests/test_headlines.py)."""
    row = demo.headline(run_demo(demo, TINY[demo]))
    assert set(row) == {"test", "winner", "winner_label", "detail"}
    assert row["winner"] in ("rnn", "lstm", "transformer", "tie")


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
    recap = client.get("/api/recap").get_json()
    rows = {row["demo"]: row for row in recap["rows"]}
    headline_demos = [demo_id for demo_id, demo in DEMOS.items() if hasattr(demo, "headline")]
    assert set(rows) == set(headline_demos)
    assert rows["amnesia"]["measured"] is True and rows["amnesia"]["device"] == "cpu"
    n = slide_number("amnesia")
    assert rows["amnesia"]["n"] == n and rows["amnesia"]["test"] == "Amnesia Test, length 20"
    cached = engine.cached("amnesia").result
    assert rows["amnesia"] == {"n": n, "slide": "The Amnesia Test", "demo": "amnesia", "measured": True,
                               "device": "cpu", "budget": "the CPU default", "longer_run": False,
                               **amnesia.headline(cached)}
    assert rows["index_lookup"] == {"n": slide_number("index_lookup"), "slide": "Memory Has a Size: Index Lookup",
                                    "demo": "index_lookup", "measured": False}
    assert recap["devices"] == ["cpu"] and recap["measured"] == 1 and recap["tests"] == len(rows)
    assert recap["budgets"] == ["the CPU default"]
    memory = next(act for act in recap["acts"] if act["act"] == "Memory")
    assert memory["measured"] == 1 and f"{len(memory['tests']) - 1} not measured yet" in memory["text"]


def test_the_recap_prefers_a_cached_longer_run(app, client, monkeypatch):
    engine = app.extensions["engine"]
    prepared = {"length": 8, "widths": [4], "steps": 100, "seeds": 1}
    monkeypatch.setattr(index_lookup, "BUDGETS", {"cpu": {"full": prepared}})
    engine.compute(*engine.resolve("index_lookup", prepared))
    recap = client.get("/api/recap").get_json()
    row = {r["demo"]: r for r in recap["rows"]}["index_lookup"]
    assert row["measured"] and row["longer_run"] is True and row["test"] == "Index Lookup, N = 8"
    assert row["budget"] == "the CPU prepared run" and recap["budgets"] == ["the CPU prepared run"]


def rows_won_by(*winners: str) -> list[dict]:
    """Recap rows of the memory act's demos, measured with these winners (None: not run)."""
    demos = ACTS[0][2]
    return [{"n": n, "demo": demo, "measured": winner is not None, "slide": demo, **({"winner": winner, "device": "cpu"} if winner else {})}
            for n, (demo, winner) in enumerate(zip(demos, winners), start=2)]


@pytest.mark.parametrize("winners, text, leader", [
    (("lstm",) * 5, "the LSTM won all 5 tests", "lstm"),
    (("lstm", "lstm", "transformer", "tie", "lstm"), "the LSTM won 3 of 5 tests, the Transformer 1, 1 with no clear winner", "lstm"),
    (("lstm", "transformer", "tie", None, None), "the LSTM won 1 of 3 tests, the Transformer 1, 1 with no clear winner; "
                                                 "2 not measured yet", "tie"),
    (("tie", "tie", None, None, None), "no clear winner in all 2; 3 not measured yet", "tie"),
    (("transformer", None, None, None, None), "the Transformer won the one test measured; 4 not measured yet", "transformer"),
    ((None,) * 5, "not measured yet", None),
])
def test_the_takeaway_follows_the_winners_of_the_measured_rows(winners, text, leader):
    summed = takeaway(rows_won_by(*winners))
    [memory] = summed["acts"]  # an act with no rows is left out
    assert (memory["act"], memory["text"], memory["leader"]) == ("Memory", text, leader)
    assert summed["devices"] == (["cpu"] if any(winners) else [])
    assert summed["overall"]["text"] == text, "one act: the whole deck says the same"


def test_a_demo_no_act_names_is_summed_up_under_other_tests():
    rows = rows_won_by("lstm", None, None, None, None) + [
        {"n": 9, "demo": "new_test", "slide": "New", "measured": True, "winner": "transformer", "device": "cuda"}]
    summed = takeaway(rows)
    assert [act["act"] for act in summed["acts"]] == ["Memory", "Other tests"]
    assert summed["acts"][1]["text"] == "the Transformer won the one test measured"
    assert summed["devices"] == ["cpu", "cuda"]
    assert summed["overall"]["text"] == "the LSTM won 1 of 2 tests, the Transformer 1; 4 not measured yet"
