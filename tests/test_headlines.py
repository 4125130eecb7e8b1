"""Each demo's recap headline on made-up results: the exact winner and the exact numbers, for a
clear win each way and for ranges that overlap (a tie), and whether the row is a contest the recap
counts or an illustration it only shows."""
import pytest

from demos import amnesia, context_scaling, dyck, generation, index_lookup, recall_vs_length, signal_decay, speed_race
from demos.shared.contenders import OUTCOMES, TIE
from demos.shared.recap import headline as recap_row
from demos.shared.recap import is_contest
from demos.shared.speedup import times_text
from slides import load_deck
from slides.measured import measured_value


def stats(*by_seed: float) -> dict:
    """A measurement over seeds, as the demos report one."""
    return {"mean": sum(by_seed) / len(by_seed), "min": min(by_seed), "max": max(by_seed), "by_seed": list(by_seed)}


def test_amnesia_names_the_model_that_recalled_more_with_every_seed():
    def result(lstm, transformer):
        return {"params": {"length": 20}, "chance": 1 / 26, "seeds": [0, 1, 2],
                "models": {"lstm-tuned": {"accuracy": lstm}, "transformer": {"accuracy": transformer}}}

    row = amnesia.headline(result(stats(0.04, 0.06, 0.07), stats(1.0, 1.0, 0.97)))
    assert row == {"test": "Amnesia Test, length 20", "winner": "transformer", "winner_label": "Transformer",
                   "detail": "Transformer 99% (97%–100%), tuned LSTM 6% (4%–7%) (chance 4%; 3 seeds)", "contest": True}
    assert amnesia.headline(result(stats(0.9, 0.95, 1.0), stats(0.2, 0.3, 0.4)))["winner"] == "lstm"
    tie = amnesia.headline(result(stats(0.5, 0.6, 0.9), stats(0.8, 0.85, 0.95)))
    assert tie["winner"] == "tie" and tie["winner_label"] == "neither"


def test_the_fair_fight_compares_at_the_longest_length():
    def point(model, length, accuracy):
        return {"model": model, "length": length, "accuracy": accuracy}

    result = {"lengths": [10, 50], "seeds": [0, 1, 2], "points": [
        point("lstm-tuned", 10, stats(1, 1, 1)), point("lstm", 10, stats(0.1, 0.5, 0.8)), point("transformer", 10, stats(1, 1, 1)),
        point("lstm-tuned", 50, stats(0.03, 0.04, 0.05)), point("lstm", 50, stats(0.04, 0.04, 0.04)),
        point("transformer", 50, stats(1, 1, 1))]}
    row = recall_vs_length.headline(result)
    assert row["test"] == "Fair fight, length 50" and row["winner"] == "transformer"
    assert row["detail"] == "Transformer 100% (100%–100%), tuned LSTM 4% (3%–5%), LSTM 4% (4%–4%) (3 seeds)"


def test_index_lookup_sets_the_transformer_against_the_best_lstm_width():
    def model(name, width, *accuracy):
        return {"model": name, "width": width, "accuracy": stats(*accuracy)}

    result = {"length": 12, "chance": 0.1, "models": [
        model("lstm-tuned", 4, 0.2, 0.25, 0.3), model("lstm-tuned", 16, 0.5, 0.55, 0.6), model("transformer", 64, 0.5, 0.7, 0.9)]}
    row = index_lookup.headline(result)
    assert row["winner"] == "tie", "the best LSTM's range overlaps the Transformer's"
    assert row["test"] == "Index Lookup, N = 12"
    assert row["detail"] == "Transformer 70% (50%–90%), best LSTM (width 16) 55% (50%–60%); chance 10%"
    result["models"][2]["accuracy"] = stats(0.99, 1.0, 1.0)
    assert index_lookup.headline(result)["winner"] == "transformer"


def test_dyck_names_who_learned_sooner_with_every_seed():
    def point(model, steps):
        return {"model": model, "length": 20, "learned_at": steps}

    result = {"lengths": [20], "budget": {"steps": 450}, "models": {name: label for name, label in (
        ("lstm", "LSTM"), ("transformer", "1-layer Transformer"), ("transformer-2", "2-layer Transformer"))},
        "points": [point("lstm", [125, 125, 150]), point("transformer", [250, None, None]),
                   point("transformer-2", [325, 375, 450])]}
    row = dyck.headline(result)
    assert row["test"] == "Bounded Dyck-2, length 20" and row["winner"] == "lstm"
    assert row["detail"] == "steps until learned: LSTM 133 (125–150), 2-layer Transformer 383 (325–450)"
    result["points"][0]["learned_at"] = [125, 400, None]
    assert dyck.headline(result)["winner"] == "tie"


def test_signal_decay_is_an_illustration_of_whose_first_gradient_survived_best():
    models = {name: {"label": label, "first_over_last": stats(value)} for name, label, value in (
        ("rnn", "RNN", 1e-5), ("lstm", "LSTM", 0.004), ("lstm-tuned", "tuned LSTM", 0.2), ("transformer", "Transformer", 0.9))}
    row = signal_decay.headline({"models": models, "train_steps": 0})
    assert row["test"] == "Word 1's gradient, untrained" and row["winner"] == "transformer"
    assert row["detail"] == "RNN 1e-5, LSTM 0.004, tuned LSTM 0.2, Transformer 0.9"
    assert row["contest"] is False, "a gradient at initialisation with no ranges settles no contest"
    assert is_contest(signal_decay) is False, "declared before any run, so an unrun illustration is no test to come"


def test_a_win_is_named_in_the_one_vocabulary_the_polls_choices_use():
    """The tuned LSTM's win is the LSTM's (the family a poll's choice predicts), labelled as every other
    LSTM win; a winner outside the vocabulary is refused, not passed on to a poll that cannot match it."""
    def result(lstm, transformer):
        return {"params": {"length": 20}, "chance": 1 / 26, "seeds": [0, 1],
                "models": {"lstm-tuned": {"accuracy": lstm}, "transformer": {"accuracy": transformer}}}

    row = amnesia.headline(result(stats(0.9, 1.0), stats(0.1, 0.2)))
    assert (row["winner"], row["winner_label"]) == ("lstm", OUTCOMES["lstm"]) == ("lstm", "LSTM")
    models = {name: {"label": name, "first_over_last": stats(value)}
              for name, value in (("rnn", 1e-5), ("lstm", 0.004), ("lstm-tuned", 0.95), ("transformer", 0.9))}
    assert signal_decay.headline({"models": models, "train_steps": 0})["winner"] == "lstm"
    assert set(OUTCOMES) == {"transformer", "lstm", "rnn", TIE} and OUTCOMES[TIE] == "neither"
    with pytest.raises(ValueError, match="one of"):
        recap_row("A test", "lstm-tuned", "numbers")


def test_every_other_headline_is_a_contest():
    contests = [amnesia, context_scaling, dyck, generation, index_lookup, recall_vs_length, speed_race]
    assert all(is_contest(demo) for demo in contests)


def test_the_showdown_and_the_copy_test_keep_their_measured_winner():
    showdown = {"winner": "lstm", "models": {"transformer": {"test_bits": stats(2.23, 2.24, 2.25)},
                                              "lstm": {"test_bits": stats(2.19, 2.21, 2.23)}},
                "baselines": {"ngrams": [{"name": "trigram", "order": 3, "test_bits": 2.78},
                                         {"name": "5-gram", "order": 5, "test_bits": 1.9}]}}
    row = generation.headline(showdown)
    assert row["winner"] == "lstm" and row["test"] == "Unseen text, bits per character"
    assert row["detail"] == "Transformer 2.24 (2.23–2.25), LSTM 2.21 (2.19–2.23); 5-gram 1.90"

    copy = {"winner": "transformer", "copy": {"variant": "fixed", "chance": 5.0, "models": [
        {"repeat_bits": stats(0.0116, 0.0118, 0.012)}, {"repeat_bits": stats(5.0, 5.0, 5.0)}]}}
    row = context_scaling.headline(copy)
    assert row["winner"] == "transformer" and row["test"] == "Copy test (fixed)"
    assert row["detail"] == "bits per repeated symbol: Transformer 0.01 (0.01–0.01), LSTM 5.00 (5.00–5.00), chance 5.00"


def speed_race_result(median: float, low: float, high: float, faster: str | None, noisy: bool = False) -> dict:
    """A speed race's result at lengths 64 and 4,096, with the ratio at the longest as given."""
    def point(length, ratio, low, high):
        return {"length": length, "median": ratio, "min": low, "max": high}

    return {"lengths": [64, 4096], "faster": ["lstm", faster],
            "transformer_speedup": [point(64, 0.2, 0.18, 0.22), point(4096, median, low, high)],
            "races": [{"noisy": {"lstm_fused": [False, False], "transformer": [False, noisy], "lstm_loop": [False, None]}}]}


def test_the_speed_race_row_is_the_ratio_its_poll_asks_for():
    row = speed_race.headline(speed_race_result(6.7, 5.9, 7.4, "transformer"))
    assert row["test"] == "Training step, length 4,096" and row["winner"] == "transformer"
    assert row["detail"] == "Transformer layer's step 6.70× (5.90–7.40) as fast as the fused LSTM's"
    slower = speed_race.headline(speed_race_result(0.52, 0.45, 0.6, "lstm"))
    assert slower["winner"] == "lstm" and slower["detail"] == "Transformer layer's step 0.52× (0.45–0.60) as fast as the fused LSTM's"
    overlapping = speed_race.headline(speed_race_result(1.1, 0.9, 1.3, None))
    assert overlapping["winner"] == "tie" and overlapping["winner_label"] == "neither"
    noisy = speed_race.headline(speed_race_result(6.7, 0.28, 13.2, None, noisy=True))
    assert noisy["winner"] == "tie"
    assert noisy["detail"] == "Transformer layer's step 6.70× (0.28–13) as fast as the fused LSTM's; a timing stayed noisy"
    for text in (row["test"] + row["detail"], noisy["detail"]):
        assert "thread" not in text and "Speed-up" not in text, "one quantity: the step's speed ratio, not the threads' gain"


def test_the_speed_race_row_and_its_poll_name_the_same_quantity():
    """The poll settles against the quantity it names; the recap row shows that very value, at the
    length the question names."""
    [slide] = [slide for slide in load_deck() if slide.demo == "speed_race"]
    result = speed_race_result(6.7, 5.9, 7.4, "transformer")
    measured = measured_value("speed_race", slide.poll.measured, result, slide.poll.scale)
    row = speed_race.headline(result)
    assert times_text(measured["mean"], [measured["low"], measured["high"]]) in row["detail"]
    length = row["test"].rsplit("length ", 1)[1]
    assert f"At {length} tokens, how many times faster is the Transformer layer's step than the fused LSTM's" \
        in slide.poll.question
