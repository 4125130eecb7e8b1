"""Several seeds per headline: a number measured with one seed is an anecdote. A measured value
over seeds is kept as its mean, its range and each seed's value, and the words a summary uses
("ahead", "level") follow from the ranges, not from one run."""
import math

from demos.runtime.params import MAX_SEED, Param

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


def ahead(a: dict, b: dict) -> bool:
    """Whether `a` beat `b` with every seed's value above every one of b's (the ranges do not overlap)."""
    return a["min"] > b["max"]


def spread_text(stats: dict, fmt: str = ".0%") -> str:
    """"42% (31%–55%)": the mean, then the range over the seeds (just the value for one seed)."""
    if len(stats["by_seed"]) == 1:
        return format(stats["mean"], fmt)
    return f"{stats['mean']:{fmt}} ({stats['min']:{fmt}}–{stats['max']:{fmt}})"
