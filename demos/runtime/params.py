"""Parameter schemas: what a demo accepts, with bounds, and the one validator every caller uses.

The web API, the terminal and the tests all pass raw values through `validate`, which
either returns the effective parameters (defaults filled in, in schema order) or raises
`ParamError` naming the parameter and what is allowed.
"""
import math
from dataclasses import asdict, dataclass
from typing import Any

TYPES = ("int", "float", "bool", "str", "choice", "multi")
MAX_SEED = 2**31 - 1


class ParamError(ValueError):
    """A parameter value the demo cannot accept; the message says what is allowed."""

    def __init__(self, name: str, message: str):
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # one of TYPES
    default: Any
    help: str  # one line, shown beside the control and in `python -m demos <id> --help`
    min: float | None = None  # int, float: bounds; str: shortest length; multi: fewest items
    max: float | None = None  # int, float: bounds; str: longest length; multi: most items
    choices: tuple | None = None  # choice, multi: the allowed values
    toolbar: bool = False  # shown beside the Run button (a sentence to analyse), not under Settings

    def __post_init__(self):
        assert self.type in TYPES, f"{self.name}: unknown type {self.type}"
        assert self.type != "str" or self.max is not None, f"{self.name}: a text needs a maximum length"
        self.check(self.default)  # a schema whose default is invalid is a bug

    def describe(self) -> dict:
        """The schema entry as JSON for the browser (`None` fields left out)."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()
                if v is not None and not (k == "toolbar" and not v)}

    def check(self, value):
        """Return `value` if it is allowed, else raise ParamError."""
        validate_value = VALIDATORS[self.type]
        return validate_value(self, value)


def seed_param(default: int = 0) -> Param:
    return Param("seed", "int", default, "Random seed: the same seed gives the same result", 0, MAX_SEED)


def _number(param: Param, value, kind: type):
    wanted = f"enter a {'whole ' if kind is int else ''}number{bounds(param)}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParamError(param.name, f"is empty: {wanted}" if value == "" else wanted)
    if not math.isfinite(value):
        raise ParamError(param.name, f"{wanted} (a finite number)")
    if kind is int and isinstance(value, float):
        if not value.is_integer():
            raise ParamError(param.name, f"{wanted}, without a fraction")
        value = int(value)
    too = "small" if param.min is not None and value < param.min else "large" if param.max is not None and value > param.max else ""
    if too:  # a huge number is not echoed: its digits would fill the slide
        shown = fmt(value) if len(fmt(value)) <= 12 else "that"
        raise ParamError(param.name, f"{wanted}; {shown} is too {too}")
    return kind(value)


def bounds(param: Param) -> str:
    """" between 0 and 2,147,483,647" (or " from 1", " up to 5"), for a message."""
    if param.min is not None and param.max is not None:
        return f" between {fmt(param.min)} and {fmt(param.max)}"
    if param.min is not None:
        return f" from {fmt(param.min)}"
    return f" up to {fmt(param.max)}" if param.max is not None else ""


def _bool(param: Param, value):
    if not isinstance(value, bool):
        raise ParamError(param.name, f"must be true or false, not {describe_type(value)}")
    return value


def _str(param: Param, value):
    if not isinstance(value, str):
        raise ParamError(param.name, f"must be text, not {describe_type(value)}")
    if len(value) > param.max:
        raise ParamError(param.name, f"must be at most {fmt(param.max)} characters long, not {len(value)}")
    if param.min is not None and len(value.strip()) < param.min:
        raise ParamError(param.name, f"must have at least {fmt(param.min)} characters")
    if any(ord(ch) < 32 and ch not in "\t\n" or ord(ch) == 127 for ch in value):
        raise ParamError(param.name, "must not contain control characters")
    return value


def _choice(param: Param, value):
    if isinstance(value, bool) or value not in param.choices:
        raise ParamError(param.name, f"must be one of {', '.join(map(str, param.choices))}")
    return value


def _multi(param: Param, value):
    if not isinstance(value, list):
        raise ParamError(param.name, f"must be a list of values from {', '.join(map(str, param.choices))}")
    for item in value:
        _choice(param, item)
    if len(set(value)) != len(value):
        raise ParamError(param.name, "must not list a value twice")
    low = 1 if param.min is None else int(param.min)
    high = len(param.choices) if param.max is None else int(param.max)
    if not low <= len(value) <= high:
        raise ParamError(param.name, f"must list between {low} and {high} values")
    return sorted(value, key=param.choices.index)  # one canonical order, so one cache key


VALIDATORS = {
    "int": lambda p, v: _number(p, v, int),
    "float": lambda p, v: _number(p, v, float),
    "bool": _bool,
    "str": _str,
    "choice": _choice,
    "multi": _multi,
}


def describe_type(value) -> str:
    names = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def fmt(number) -> str:
    """A bound or value as a person writes it: 2,147,483,647; 0.0001."""
    return f"{number:,g}" if isinstance(number, float) else f"{number:,}"


def validate(schema: list[Param], raw: dict | None) -> dict:
    """Check `raw` against `schema`; return every parameter's effective value, in schema order."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ParamError("parameters", f"must be a JSON object, not {describe_type(raw)}")
    known = {param.name: param for param in schema}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        name = unknown[0] if unknown[0].strip() else "(a parameter with no name)"
        raise ParamError(name, f"is not a parameter of this demo; it takes {', '.join(known) or 'none'}")
    return {name: param.check(raw[name]) if name in raw else param.default for name, param in known.items()}
