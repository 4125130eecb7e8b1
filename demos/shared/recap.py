"""The recap on the last slide: each demo's `headline(result)` says which model won its test,
by how much, in one short phrase. These helpers keep the headlines alike.

A headline is a contest when it answers one measured question with one quantity, and names a
winner only where the seeds' (or timings') ranges say so; the recap counts only those. A demo that
shows something without settling a contest (a gradient at initialisation, a picture of attention)
declares `CONTEST = False` beside its headline: its row is shown, labelled an illustration, and
never counted, measured or not."""

from demos.shared.contenders import LABELS

TIE = "neither"


def best_of(scores: dict[str, float], close: float, higher_is_better: bool = True) -> str:
    """The name with the best score, or "tie" when the runner-up is within `close` of it."""
    ranked = sorted(scores, key=scores.get, reverse=higher_is_better)
    if len(ranked) > 1 and abs(scores[ranked[0]] - scores[ranked[1]]) < close:
        return "tie"
    return ranked[0]


def headline(test: str, winner: str, detail: str, contest: bool = True) -> dict:
    """A row of the recap: the test, the winner ("lstm", "transformer", "rnn" or "tie"), the numbers,
    and whether it is a contest the recap counts (False: an illustration, shown but not counted)."""
    family = "lstm" if winner.startswith("lstm") else winner
    return {"test": test, "winner": family, "winner_label": TIE if winner == "tie" else LABELS.get(winner, winner),
            "detail": detail, "contest": contest}


def is_contest(demo) -> bool:
    """Whether a demo module's headline is a contest (its `CONTEST`, True unless it says otherwise):
    known before it has run, so an illustration not run yet is not counted as a test to come."""
    return getattr(demo, "CONTEST", True)
