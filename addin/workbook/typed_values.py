"""A value read from a table, as the type its column's kind gives it, checked.

The cell parser (``cells.parse``) has typed each value by its column's kind: an ``int``
in a whole-number or AGA # column, a ``float`` in a number, rating or money column, a
``date`` in a date column, a ``bool`` in a Yes/No column, a ``str`` in a text or choice
column. A cell the TD typed otherwise is a problem naming the cell, never a value, so a
value of another type here is a bug in the code that put it there: it raises TypeError
instead of flowing on as a wrong number. ``None`` is a blank cell.

The same accessors read a row (``Row.whole``...) and the Settings values by key.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import TypeVar

T = TypeVar("T")


class WrongType(TypeError):
    """A value of another type than its column's kind gives (a bug, not the TD's typing)."""

    def __init__(self, key: str, value: object, expected: str) -> None:
        super().__init__(f"{key!r} holds {type(value).__name__} {value!r}, not {expected}")


def whole(values: Mapping[str, object], key: str) -> int | None:
    """A whole number (a count, a round, an AGA #); ``None`` when blank."""
    value = values.get(key)
    if value is None or type(value) is int:
        return value
    if isinstance(value, int) and not isinstance(value, bool):  # an int of a subclass
        return int(value)
    raise WrongType(key, value, "a whole number")


def numeric(values: Mapping[str, object], key: str) -> float | None:
    """A number (a rating, a score, komi, dollars), a whole one as a float; ``None`` when
    blank."""
    value = values.get(key)
    if value is None or type(value) is float:
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise WrongType(key, value, "a number")


def day(values: Mapping[str, object], key: str) -> date | None:
    """A date; ``None`` when blank."""
    value = values.get(key)
    if value is None or isinstance(value, date):
        return value
    raise WrongType(key, value, "a date")


def text(values: Mapping[str, object], key: str) -> str:
    """Text, or a choice; ``""`` when blank."""
    value = values.get(key)
    if type(value) is str:
        return value
    if value is None:
        return ""
    if isinstance(value, str):  # a formula the TD typed (``Formula``): its text, plain
        return str(value)
    raise WrongType(key, value, "text")


def flag(values: Mapping[str, object], key: str) -> bool:
    """Yes (True) or No; ``False`` when blank."""
    value = values.get(key)
    if value is None or isinstance(value, bool):
        return bool(value)
    raise WrongType(key, value, "Yes or No")


def typed(values: Mapping[str, object], key: str, kind: type[T]) -> T | None:
    """A value of ``kind`` (a game's ``Result``, a set of rounds); ``None`` when blank."""
    value = values.get(key)
    if value is None or isinstance(value, kind):
        return value
    raise WrongType(key, value, kind.__name__)
