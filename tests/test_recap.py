"""The closing slide's recap: each demo's headline agrees with its numbers, /api/recap reads the cached
default results (and says which have not run), the takeaway's words follow the winners of the rows
that are contests (an illustration is shown, never counted), and a number poll's guesses are scored
only against a measurement quiet enough to score them."""
import pytest

from demos import DEMOS, amnesia, index_lookup, recall_vs_length, signal_decay, speed_race
from demos.runtime.runner import run_demo
from demos.shared.seeds import over_seeds, spread_text
from slides import SLIDES_DIR
from tests.deck import slide_number
from web.recap import lecture_acts, takeaway

ACTS = lecture_acts(SLIDES_DIR)  # the lecture's acts, as its slide files declare them

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
    assert set(row) == {"test", "winner", "winner_label", "detail", "contest"}
    assert row["winner"] in ("rnn", "lstm", "transformer", "tie")


def test_the_amnesia_headline_names_the_winner_its_slide_names():
    """The recap's row and the slide's own summary, both from a real run, agree on who won (or that
    neither did), and the row quotes the run's numbers; then, with the run's accuracies set clearly
    apart each way or overlapping, the row's winner follows."""
    result = run_demo(amnesia, TINY[amnesia])
    slide_says = {"transformer": "Every Transformer beat every LSTM.", "lstm": "every LSTM beat every Transformer",
                  "tie": "neither model was ahead with every seed"}
    row = amnesia.headline(result)
    assert slide_says[row["winner"]] in result["summary"]
    for name in ("lstm-tuned", "transformer"):
        assert spread_text(result["models"][name]["accuracy"]) in row["detail"]

    seeds = len(result["seeds"])
    for lstm, transformer, winner in [(0.05, 1.0, "transformer"), (1.0, 0.05, "lstm"), (0.5, 0.5, "tie")]:
        result["models"]["lstm-tuned"]["accuracy"] = over_seeds([lstm] * seeds)
        result["models"]["transformer"]["accuracy"] = over_seeds([transformer] * seeds)
        assert amnesia.headline(result)["winner"] == winner


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
                                    "demo": "index_lookup", "contest": True, "measured": False}
    assert rows["signal_decay"]["contest"] is False, "an illustration, even before it has run"
    assert recap["devices"] == ["cpu"] and recap["measured"] == 1
    assert recap["tests"] == len(rows) - 1 and recap["illustrations"] == 1
    assert recap["budgets"] == ["the CPU default"]
    memory = next(act for act in recap["acts"] if act["act"] == "Memory")
    assert memory["illustrations"] == [slide_number("signal_decay")]
    assert memory["measured"] == 1 and f"{len(memory['tests']) - 2} not measured yet" in memory["text"]


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
    summed = takeaway(rows_won_by(*winners), ACTS)
    [memory] = summed["acts"]  # an act with no rows is left out
    assert (memory["act"], memory["text"], memory["leader"]) == ("Memory", text, leader)
    assert summed["devices"] == (["cpu"] if any(winners) else [])
    assert summed["overall"]["text"] == text, "one act: the whole deck says the same"


def test_a_demo_no_act_names_is_summed_up_under_other_tests():
    rows = rows_won_by("lstm", None, None, None, None) + [
        {"n": 9, "demo": "new_test", "slide": "New", "measured": True, "winner": "transformer", "device": "cuda"}]
    summed = takeaway(rows, ACTS)
    assert [act["act"] for act in summed["acts"]] == ["Memory", "Other tests"]
    assert summed["acts"][1]["text"] == "the Transformer won the one test measured"
    assert summed["devices"] == ["cpu", "cuda"]
    assert summed["overall"]["text"] == "the LSTM won 1 of 2 tests, the Transformer 1; 4 not measured yet"


def test_the_acts_are_the_ones_the_slide_files_declare(tmp_path):
    """A slide's `act:` puts its demo in that act, the closing slide's `acts:` orders them and asks their
    questions; an act no closing slide lists comes after them; an edit is read again."""
    for path in SLIDES_DIR.glob("*.md"):
        (tmp_path / path.name).write_text(path.read_text())
    assert lecture_acts(tmp_path) == ACTS
    assert [name for name, _, _ in ACTS] == ["Memory", "Speed", "Language", "Whole context"]
    assert ACTS[0] == ("Memory", "holding on to what was read",
                       ("signal_decay", "amnesia", "recall_vs_length", "index_lookup", "dyck"))
    (tmp_path / "12-a_new_test.md").write_text("---\ntitle: New\nact: Memory\ndemo: a_new_test\n---\nBody\n")
    (tmp_path / "12-b_new_test.md").write_text("---\ntitle: New\nact: Pictures\ndemo: b_new_test\n---\nBody\n")
    acts = lecture_acts(tmp_path)
    assert acts[0][2] == (*ACTS[0][2], "a_new_test") and acts[1:4] == ACTS[1:]
    assert acts[4] == ("Pictures", "what its slides measured", ("b_new_test",))


def row(demo: str, winner: str | None, contest: bool = True, n: int = 2) -> dict:
    """A recap row of this demo, measured with this winner (None: not run), a contest or an illustration."""
    return {"n": n, "demo": demo, "slide": demo, "contest": contest, "measured": winner is not None,
            **({"winner": winner, "device": "cpu"} if winner else {})}


def test_an_illustration_is_never_counted_as_a_win():
    """A deck whose only Transformer "win" is the gradient illustration's: nobody says the Transformer won."""
    memory = ACTS[0][2]
    rows = [row("signal_decay", "transformer", contest=False, n=2)] + [
        row(demo, winner, n=n) for n, (demo, winner) in enumerate(
            zip([d for d in memory if d != "signal_decay"], ("lstm", "tie", "lstm", "lstm")), start=3)]
    summed = takeaway(rows, ACTS)
    [act] = summed["acts"]
    assert act["text"] == "the LSTM won 3 of 4 tests, 1 with no clear winner" and act["leader"] == "lstm"
    assert act["tests"] == [2, 3, 4, 5, 6] and act["illustrations"] == [2] and act["measured"] == 4
    assert summed["overall"]["text"] == act["text"]
    assert "Transformer" not in act["text"] and "Transformer" not in summed["overall"]["text"]
    assert (summed["tests"], summed["measured"], summed["illustrations"]) == (4, 4, 1)
    assert summed["devices"] == ["cpu"], "an illustration still ran on this server"


def test_an_illustration_not_run_yet_is_no_test_to_come():
    rows = [row("signal_decay", None, contest=False), row("amnesia", "lstm", n=3), row("dyck", None, n=4)]
    [act] = takeaway(rows, ACTS)["acts"]
    assert act["text"] == "the LSTM won the one test measured; 1 not measured yet"


@pytest.mark.parametrize("winners, text", [
    (("transformer",), "an illustration, no contest to count"),
    (("transformer", None), "2 illustrations, no contest to count"),
    ((None, None), "2 illustrations, no contest to count"),
])
def test_an_act_of_illustrations_only_says_so_instead_of_a_tally(winners, text):
    rows = [row("amnesia", "lstm")] + [row(f"picture_{i}", winner, contest=False, n=10 + i) for i, winner in enumerate(winners)]
    summed = takeaway(rows, ACTS)
    memory, other = summed["acts"]
    assert memory["text"] == "the LSTM won the one test measured"
    assert other["act"] == "Other tests" and other["text"] == text and other["leader"] is None
    assert other["measured"] == 0 and "won" not in other["text"] and "not measured" not in other["text"]
    assert summed["overall"]["text"] == "the LSTM won the one test measured"
    only = takeaway(rows[1:], ACTS)
    assert only["overall"]["text"] == text and only["tests"] == 0 and only["illustrations"] == len(winners)


def cache_speed_ratio(app, median: float, low: float, high: float, faster: str | None, noisy: bool) -> None:
    """The speed race's default result, made up: at its longest length, the Transformer layer's step
    `median` times as fast as the fused LSTM's, its range [low, high]."""
    engine = app.extensions["engine"]
    demo, params, key = engine.resolve("speed_race", None)
    ratio = {"length": params["lengths"][-1], "median": median, "min": low, "max": high}
    engine.cache.put(demo.ID, key, params, {
        "params": params, "device": "cpu", "lengths": params["lengths"], "faster": [faster],
        "transformer_speedup": [ratio],
        "races": [{"noisy": {"lstm_fused": [False], "transformer": [noisy], "lstm_loop": [None]}}]})


def guess_speed(app, client, *guesses: float) -> None:
    url = "/api/polls/speed_race"
    client.post(url, json={"action": "open"})
    for guess in guesses:
        app.test_client().post(f"{url}/answer", json={"value": guess}, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    client.post(url, json={"action": "close"})


def test_the_speed_row_shows_the_quantity_its_poll_asks_for(app, client):
    cache_speed_ratio(app, 0.5, 0.45, 0.6, "lstm", noisy=False)
    guess_speed(app, client, 0.3, 0.5, 2.0)
    [speed] = [r for r in client.get("/api/recap").get_json()["rows"] if r["demo"] == "speed_race"]
    assert speed["test"] == "Training step, length 4,096" and speed["winner"] == "lstm"
    assert speed["detail"] == "Transformer layer's step 0.50× (0.45–0.60) as fast as the fused LSTM's"
    guess = speed["class_guess"]
    assert (guess["mean"], guess["low"], guess["high"]) == (0.5, 0.45, 0.6), "the poll's value is the row's"
    assert guess["too_noisy"] is False and guess["within"] == 1 and guess["total"] == 3


def test_a_number_poll_over_a_range_too_wide_is_reported_too_noisy_not_scored(app, client):
    """The observed case: a ratio measured 6.7× with a range from 0.28× to 13.2×."""
    cache_speed_ratio(app, 6.7, 0.28, 13.2, None, noisy=True)
    guess_speed(app, client, 0.3, 3.0, 10.0)
    recap = client.get("/api/recap").get_json()
    [speed] = [r for r in recap["rows"] if r["demo"] == "speed_race"]
    assert speed["winner"] == "tie" and speed["detail"].endswith("; a timing stayed noisy")
    assert speed["class_guess"]["too_noisy"] is True
    assert (speed["class_guess"]["low"], speed["class_guess"]["high"]) == (0.28, 13.2), "the range, to say so with"
    outcome = client.post("/api/polls/speed_race/outcome", json={}).get_json()["outcome"]
    assert outcome["too_noisy"] is True, "the slide's own poll says so too"
