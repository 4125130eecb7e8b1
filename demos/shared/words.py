"""Small helpers for the sentences the demos write from their numbers."""


def listed(values: list, unit: str = "") -> str:
    """"20", "20 and 50", "20, 50 and 100"."""
    words = [f"{v}{unit}" for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def count(n: int, noun: str) -> str:
    """"1 token", "3 tokens"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
