"""The recap on the last slide: each demo's `headline(result)` says which model won its test,
by how much, in one short phrase. These helpers keep the headlines alike.

A headline is a contest when it answers one measured question with one quantity, and names a
winner only where the seeds' (or timings') ranges say so (`demos.shared.seeds.leader`); the recap
counts only those. Its winner is an outcome of `demos.shared.contenders.OUTCOMES`, the vocabulary
the polls' choices are keyed by. A demo that shows something without settling a contest (a gradient
at initialisation, a picture of attention) declares `CONTEST = False` beside its headline: its row
is shown, labelled an illustration, and never counted, measured or not."""

from demos.shared.contenders import OUTCOMES, TIE


def headline(test: str, winner: str, detail: str, contest: bool = True) -> dict:
    """A row of the recap: the test, the winner (an outcome: "transformer", "lstm", "rnn" or "tie") and
    its label, the numbers, and whether it is a contest the recap counts (False: an illustration, shown
    but not counted)."""
    if winner not in OUTCOMES:
        raise ValueError(f"a headline's winner is one of {tuple(OUTCOMES)}, not {winner!r}")
    return {"test": test, "winner": winner, "winner_label": OUTCOMES[winner], "detail": detail, "contest": contest}


def is_contest(demo) -> bool:
    """Whether a demo module's headline is a contest (its `CONTEST`, True unless it says otherwise):
    known before it has run, so an illustration not run yet is not counted as a test to come."""
    return getattr(demo, "CONTEST", True)
