"""Several seeds per headline: a number measured with one seed is an anecdote. A measured value
over seeds is kept as its mean, its range and each seed's value, and the words a summary uses
("ahead", "level") follow from the ranges, not from one run: one rule, `ahead`, says who won."""
import math

from demos.runtime.params import MAX_SEED, Param
from demos.shared.contenders import TIE

DEFAULT_SEEDS = 3


def seeds_param(default: int = DEFAULT_SEEDS, most: int = 5) -> Param:
    return Param("seeds", "int", default, "How many seeds to train and average (from the seed above, counting up)",
                 1, most)


def seed_list(first: int, count: int) -> list[int]:
    """`count` seeds counting up from `first` (wrapping below the largest seed allowed)."""
    return [(first + i) % (MAX_SEED + 1) for i in range(count)]


def over_seeds(values: list[float]) -> dict:
    """A value measured once per seed: {"mean", "min", "max", "std", "by_seed"}."""
    mean = sum(values) / len(values)
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
    return {"mean": mean, "min": min(values), "max": max(values), "std": std, "by_seed": list(values)}


def geometric_over_seeds(values: list[float]) -> dict:
    """As `over_seeds`, with the mean taken on a log scale (ratios spanning many powers of ten)."""
    stats = over_seeds(values)
    stats["mean"] = math.exp(sum(math.log(v) for v in values) / len(values))
    return stats


def ahead(a: dict, b: dict, lower_is_better: bool = False) -> bool:
    """Whether `a` beat `b` with every seed: each of a's values better than every one of b's (the
    ranges, {"min", "max"}, do not overlap). Better is higher, or lower where `lower_is_better`
    (bits per character, steps until learned, seconds)."""
    return a["max"] < b["min"] if lower_is_better else a["min"] > b["max"]


def spread_range(spread: list[float]) -> dict:
    """A timing's or a speed-up's spread [least, most] as the range `ahead` compares."""
    return {"min": spread[0], "max": spread[1]}


def leader(scores: dict[str, dict], lower_is_better: bool = False) -> str:
    """The name in `scores` ahead of every other with every seed (`ahead`), or TIE where none is (or
    there is no other: one contender wins no contest)."""
    if len(scores) < 2:
        return TIE
    for name, stats in scores.items():
        if all(ahead(stats, other, lower_is_better) for rival, other in scores.items() if rival != name):
            return name
    return TIE


def spread_text(stats: dict, fmt: str = ".0%") -> str:
    """"42% (31%–55%)": the mean, then the range over the seeds (just the value for one seed)."""
    if len(stats["by_seed"]) == 1:
        return format(stats["mean"], fmt)
    return f"{stats['mean']:{fmt}} ({stats['min']:{fmt}}–{stats['max']:{fmt}})"
