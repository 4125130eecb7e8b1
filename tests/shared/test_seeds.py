"""The one rule by which a demo names a winner: ahead with every seed (or timing), each of one's
values better than every one of the other's, higher or lower being better; otherwise a tie."""
import pytest

from demos.shared.contenders import TIE
from demos.shared.seeds import ahead, leader, over_seeds, spread_range


def test_ahead_means_the_ranges_do_not_overlap_in_the_better_direction():
    high, low = over_seeds([0.8, 0.9]), over_seeds([0.5, 0.7])
    assert ahead(high, low) and not ahead(low, high)
    assert ahead(low, high, lower_is_better=True) and not ahead(high, low, lower_is_better=True)
    touching = over_seeds([0.7, 0.8])  # its worst seed equals the other's best: not ahead with every seed
    assert not ahead(touching, low) and not ahead(low, touching, lower_is_better=True)


@pytest.mark.parametrize("transformer, lstm, lower_is_better, winner", [
    ([0.9, 1.0], [0.1, 0.2], False, "transformer"),
    ([0.9, 1.0], [0.1, 0.2], True, "lstm"),  # bits per character: the lower wins
    ([0.3, 0.9], [0.2, 0.4], False, TIE),  # one seed of each overlaps the other's range
    ([0.5], [0.5], False, TIE),
])
def test_the_leader_is_ahead_of_every_other_with_every_seed_or_there_is_a_tie(transformer, lstm, lower_is_better, winner):
    scores = {"transformer": over_seeds(transformer), "lstm": over_seeds(lstm)}
    assert leader(scores, lower_is_better) == winner
    assert leader(dict(reversed(scores.items())), lower_is_better) == winner, "the order named makes no difference"


def test_a_leader_must_be_ahead_of_all_the_others_and_one_contender_wins_nothing():
    scores = {"rnn": over_seeds([0.1]), "lstm": over_seeds([0.6, 0.8]), "transformer": over_seeds([0.7, 0.9])}
    assert leader(scores) == TIE, "ahead of the RNN, but not of the other"
    assert leader({**scores, "transformer": over_seeds([0.85, 0.9])}) == "transformer"
    assert leader({"lstm": over_seeds([0.9])}) == TIE


def test_timings_spreads_are_compared_by_the_same_rule():
    fast, slow = spread_range([0.10, 0.12]), spread_range([0.20, 0.30])
    assert leader({"transformer": fast, "lstm": slow}, lower_is_better=True) == "transformer"
    assert leader({"transformer": fast, "lstm": spread_range([0.11, 0.3])}, lower_is_better=True) == TIE

