"""What a speed race's timings show, in data and in words: who was faster at each length (only
where the two spreads do not overlap and neither point is noisy), and the sentence that says so."""
from demos.shared.contenders import TIE
from demos.shared.seeds import leader, spread_range
from demos.shared.speedup import times_word

FAMILY = {"lstm_fused": "lstm", "transformer": "transformer"}  # the contender each family is judged by


def faster(points: dict[str, dict]) -> str | None:
    """The name of the faster of two timed points, or None when that cannot be told: one is missing
    or noisy, or their spreads (fastest to slowest timing) overlap."""
    if any(p["spread"] is None or p["noisy"] for p in points.values()):
        return None
    quicker = leader({name: spread_range(p["spread"]) for name, p in points.items()}, lower_is_better=True)
    return None if quicker == TIE else quicker


def point(race_result: dict, name: str, i: int) -> dict:
    return {"spread": race_result["spread"][name][i], "noisy": race_result["noisy"][name][i]}


def winners(race_result: dict) -> list[str | None]:
    """At each length, "transformer" or "lstm" where the fused LSTM and the Transformer layer are
    told apart, else None (too close to call)."""
    calls = [faster({name: point(race_result, name, i) for name in ("lstm_fused", "transformer")})
             for i in range(len(race_result["lengths"]))]
    return [FAMILY.get(call) for call in calls]


def listed(lengths: list) -> str:
    words = [f"{n:,}" for n in lengths]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def verdict(label: str, race_result: dict) -> str:
    """What these timings show, whichever way they go, saying who is faster only at lengths where
    the two contenders' spreads do not overlap (and neither is noisy)."""
    lengths, series = race_result["lengths"], race_result["series"]
    won = winners(race_result)
    ratios = [f / t for f, t in zip(series["lstm_fused"], series["transformer"])]
    at = {who: [i for i, w in enumerate(won) if w == who] for who in ("transformer", "lstm", None)}
    transformer, lstm, close = ([lengths[i] for i in at[who]] for who in ("transformer", "lstm", None))
    if not transformer and not lstm:
        text = (f"On {label} the fused LSTM and the Transformer layer were too close to call at every length: "
                f"their timings overlap or were noisy.")
    elif len(transformer) == len(lengths):
        text = (f"On {label} the Transformer layer beat the fused LSTM at every length: "
                f"{times_word(ratios[0])} faster at {lengths[0]:,}"
                + (f", {times_word(ratios[-1])} at {lengths[-1]:,}" if len(lengths) > 1 else "") + ".")
    elif len(lstm) == len(lengths):
        text = (f"On {label} the fused LSTM beat the Transformer layer at every length: it took "
                f"{times_word(ratios[0])} the Transformer's time at {lengths[0]:,}"
                + (f", {times_word(ratios[-1])} at {lengths[-1]:,}" if len(lengths) > 1 else "") + ".")
    else:
        if transformer:
            best = max(ratios[i] for i in at["transformer"])
            text = f"On {label} the Transformer layer beat the fused LSTM at {listed(transformer)} ({times_word(best)} faster{' at best' if len(transformer) > 1 else ''})"
            text += f" and lost at {listed(lstm)}" if lstm else ""
        else:
            best = min(ratios[i] for i in at["lstm"])
            text = (f"On {label} the fused LSTM beat the Transformer layer at {listed(lstm)} "
                    f"(it took {times_word(best)} the Transformer's time{' at best' if len(lstm) > 1 else ''})")
        text += f"; too close to call on this machine at {listed(close)}." if close else "."
    noisy = sorted({n for times in race_result["noisy"].values() for n, bad in zip(lengths, times) if bad})
    if noisy:
        text += f" Timings at {listed(noisy)} stayed noisy: drawn hollow, left out of the verdict."
    return text
