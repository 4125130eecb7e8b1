"""The recap on the last slide: each demo's `headline(result)` says which model won its test,
by how much, in one short phrase. These helpers keep the headlines alike."""

from demos.shared.contenders import LABELS

TIE = "neither"


def best_of(scores: dict[str, float], close: float, higher_is_better: bool = True) -> str:
    """The name with the best score, or "tie" when the runner-up is within `close` of it."""
    ranked = sorted(scores, key=scores.get, reverse=higher_is_better)
    if len(ranked) > 1 and abs(scores[ranked[0]] - scores[ranked[1]]) < close:
        return "tie"
    return ranked[0]


def headline(test: str, winner: str, detail: str) -> dict:
    """A row of the recap: the test, the winner ("lstm", "transformer", "rnn" or "tie"), the numbers."""
    family = "lstm" if winner.startswith("lstm") else winner
    return {"test": test, "winner": family, "winner_label": TIE if winner == "tie" else LABELS.get(winner, winner), "detail": detail}
