"""A single cell's value: read by its column's kind, tolerantly, and written through the gate.

A TD types "12" where a number belongs, "yes" where "Yes" belongs, a date as
text: all accepted. Anything that cannot be understood raises ``CellError``
saying what was expected; the caller adds the sheet, row and column.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import SupportsFloat

from addin.core.limits import MAX_AGA_ID, fee_problem, number_said, shown
from addin.core.ratings import RatingError, parse_rating, rank_floor, rank_of
from addin.core.results import parse_result
from addin.core.text_input import formula_like
from addin.workbook.layout import Column, Kind


class Formula(str):
    """A formula the TD typed in a cell, read back as its text: written back as a formula."""

    __slots__ = ()


class ErrorValue(str):
    """A spreadsheet error value (``#N/A``, ``#REF!``) read from a cell: never a value.

    Each gateway marks them (openpyxl: an error cell; Excel: read with ``err_to_str``),
    so that the reader names the cell instead of taking the error for a blank or text."""

    __slots__ = ()


ERROR_CODES = frozenset(
    {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA"}
    | {"#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!", "#UNKNOWN!"}
    | {"#PYTHON!", "#TIMEOUT!", "#EXTERNAL!"}
)
"""The error values Excel shows (and writes into an .xlsx error cell)."""


def error_value(value: object) -> object:
    """``value`` marked as an ``ErrorValue`` when it is one of Excel's error codes."""
    if isinstance(value, str) and value in ERROR_CODES and not isinstance(value, ErrorValue):
        return ErrorValue(value)
    return value


@dataclass(frozen=True)
class Text:
    """Text that looks like a formula but is not one: each gateway stores it as text."""

    value: str


class RefusedValue(ValueError):
    """A value no cell can hold; the message names the cell."""


class CellError(ValueError):
    def __init__(self, value: object, expected: str) -> None:
        super().__init__(f"{described(value)} is not {expected}")
        self.value = value
        self.expected = expected


_CONSTANTS: dict[str, object] = {
    "=TRUE()": True,
    "=FALSE()": False,
    **{f"={code}": ErrorValue(code) for code in ERROR_CODES},
}
"""Formulas that are a constant typed in Excel, as LibreOffice loads them from a .xlsx."""


EXACT_DIGITS = 1e15
"""A spreadsheet keeps 15 significant digits: a whole number below this is shown whole; a
larger one (1E+300) as the number it is, never spelt out to 301 digits."""


def described(value: object) -> str:
    """A cell's value as a message names it: its kind said where the kind is the trouble."""
    if isinstance(value, Formula) and value.upper() in _CONSTANTS:
        value = _CONSTANTS[value.upper()]  # Calc loads TRUE and #N/A as =TRUE() and =#N/A
    if isinstance(value, ErrorValue):
        return f"the error value {value}"
    if isinstance(value, Formula):
        return f"the formula {shown(str(value))}"
    if isinstance(value, bool):
        return f"{str(value).upper()} (a true/false value)"
    if isinstance(value, datetime) and value.time() != datetime.min.time():
        return f"the date and time {value.isoformat(sep=' ')}"
    if isinstance(value, datetime):
        return f"the date {value.date().isoformat()}"
    if isinstance(value, date):
        return f"the date {value.isoformat()}"
    if isinstance(value, float) and value.is_integer() and abs(value) < EXACT_DIGITS:
        return shown(int(value))  # 12, as typed: a reader may hand a whole number as 12.0
    return shown(value)


NUMERIC = (Kind.INT, Kind.AGA_ID, Kind.FLOAT, Kind.MONEY)
IDENTITY_AND_NUMBERS = (*NUMERIC, Kind.RATING, Kind.RATING_FLOOR)
"""Kinds whose cell holds a number the TD typed: a true/false value, a date, a formula or an
error value there is a problem naming the cell, never a number by conversion."""

_TRUE = {"yes", "y", "true", "1", "x", "on"}
_FALSE = {"no", "n", "false", "0", "off"}
_ROUND_SPLIT = re.compile(r"[,;\s]+")


def is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def parse(value: object, column: Column) -> object:
    """The typed value of a cell; ``None`` for a blank cell."""
    if is_blank(value):
        return None
    kind = column.kind
    if isinstance(value, ErrorValue):
        raise CellError(value, kind.value)  # never a value, nor a blank to fill
    if isinstance(value, Formula) and kind in (Kind.ANY, Kind.TEXT):
        return value  # the TD's own formula, kept as one through a rewrite
    if kind in IDENTITY_AND_NUMBERS and isinstance(value, bool | date | Formula):
        raise CellError(value, kind.value)
    if isinstance(value, str):
        value = value.strip()
    try:
        if kind is Kind.CHOICE:
            return _choice(value, column.choices)
        parsed = _PARSERS[kind](value)
    except RatingError as err:
        raise CellError(value, kind.value) from err
    except (TypeError, ValueError) as err:
        expected = kind.value
        if kind in (Kind.CHOICE, Kind.RESULT):
            expected = "one of " + ", ".join(column.choices)
        raise CellError(value, expected) from err
    if column.bounds is not None and isinstance(parsed, int | float):
        low, high = column.bounds
        if not low <= parsed <= high:
            raise CellError(value, f"a number from {number_said(low)} to {number_said(high)}")
    return parsed


def _text(value: object) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < EXACT_DIGITS:
        return str(int(value))
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value)


def _as_float(value: object) -> float:
    """``float(value)`` for what ``float`` takes (a number, text); TypeError otherwise."""
    if isinstance(value, (float | int | str, SupportsFloat)):  # the common types first
        return float(value)
    raise TypeError(value)


def _int(value: object) -> int:
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    number = _as_float(value)
    if not number.is_integer():
        raise ValueError(value)
    return int(number)


def _aga_id(value: object) -> int:
    """An AGA number: 1 to 99999 (a 301-digit number is no member's)."""
    number = _int(value)
    if not 1 <= number <= MAX_AGA_ID:
        raise ValueError(value)
    return number


def _float(value: object) -> float:
    """A number as typed (one decimal comma allowed); never infinite or NaN, which a cell
    can hold only as text ("inf", "nan") and which no score, rating or komi is."""
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, str):
        value = value.replace(",", ".") if value.count(",") == 1 and "." not in value else value
    number = _as_float(value)
    if not math.isfinite(number):
        raise ValueError(value)
    return number


_AMOUNT = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?|\.\d{1,2}")
"""Dollars as typed: 30, 30.5, 1,000, 1,000.00 (a comma only between thousands)."""


def _money(value: object) -> float:
    """Dollars: 30, 30.5, "$30.00", "$1,000", "US$ 25"; never negative, huge, or finer than
    a cent. A comma is a thousands separator only, never a decimal comma: "$1,5" is refused
    rather than read as a dollar and a half or as fifteen."""
    if isinstance(value, str):
        text = value.strip().removeprefix("US").removeprefix("$").strip()
        if not _AMOUNT.fullmatch(text):
            raise ValueError(value)
        value = text.replace(",", "")
    amount = _float(value)
    if fee_problem(amount):
        raise ValueError(value)
    return amount


_DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%m/%d/%y", "%Y/%m/%d", "%d.%m.%Y")


def _rating_floor(value: object) -> float:
    """A rank means its lowest rating (a bar of 4d admits 4.0); a number is itself."""
    if isinstance(value, str) and value.strip()[-1:].isalpha():
        return rank_floor(value)
    return parse_rating(value)


def _date(value: object, *, keep_time: bool = False) -> date:
    if isinstance(value, datetime):
        return value if keep_time else value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
            return moment if keep_time else moment.date()
        except ValueError:
            pass
        for fmt in _DATE_FORMATS:
            try:
                return datetime.strptime(value, fmt).date()
            except ValueError:
                continue
    raise ValueError(value)


def _bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(value)


def _choice(value: object, choices: tuple[str, ...]) -> str:
    text = _text(value).strip()
    folded = text.casefold()
    for choice in choices:
        if choice.casefold() == folded:
            return choice
    raise ValueError(value)


def _rounds(value: object) -> frozenset[int]:
    if isinstance(value, int | float):
        return frozenset({_int(value)})
    parts = [p for p in _ROUND_SPLIT.split(str(value)) if p]
    rounds = frozenset(int(p) for p in parts)
    if any(r < 1 for r in rounds):
        raise ValueError(value)
    return rounds


def render(value: object, column: Column) -> object:
    """The value to store in a cell for a typed value."""
    if value is None:
        return None
    kind = column.kind
    if kind is Kind.BOOL:
        return "Yes" if value else "No"
    if kind is Kind.ROUNDS and isinstance(value, frozenset | set):
        return ", ".join(str(r) for r in sorted(value))
    if kind is Kind.RATING_FLOOR and isinstance(value, float):
        label = rank_of(value)
        return label if rank_floor(label) == value else value
    if kind in (Kind.FLOAT, Kind.MONEY) and isinstance(value, float) and value.is_integer():
        return int(value)
    if hasattr(value, "value") and kind in (Kind.CHOICE, Kind.RESULT):
        return value.value  # an enum member
    return value


_PARSERS: dict[Kind, Callable[[object], object]] = {
    Kind.ANY: lambda value: value,
    Kind.TEXT: _text,
    Kind.INT: _int,
    Kind.AGA_ID: _aga_id,
    Kind.FLOAT: _float,
    Kind.MONEY: _money,
    Kind.RATING: parse_rating,
    Kind.RATING_FLOOR: _rating_floor,
    Kind.DATE: lambda value: _date(value, keep_time=False),
    Kind.TIMESTAMP: lambda value: _date(value, keep_time=True),
    Kind.BOOL: _bool,
    Kind.ROUNDS: _rounds,
    Kind.RESULT: lambda value: parse_result(_text(value)),
}
"""How a cell of each kind is read (a choice also needs its column's choices)."""


# --- the gate into every cell written -----------------------------------------------------
# The one gate every value passes on its way into a cell, through either gateway.
#
# - Text longer than Excel's 32,767 characters, or holding a character XML
#   forbids (control characters other than tab, line feed and carriage return),
#   is refused: ``RefusedValue`` names the cell, and the action writes nothing.
#   Refusing rather than cleaning keeps the rule "what is in the workbook is what
#   the TD gave" and makes the TD fix the source file once, where it is wrong.
# - Text that a spreadsheet would take as a formula (starting with ``=``, ``+``,
#   ``-``, ``@``, tab or carriage return) is stored as text, never as a formula,
#   unless it is the TD's own formula read from a cell (``Formula``). A plain
#   number written as text (``-3.5``) cannot be a formula and passes unchanged.
#
# The rules are pure (no spreadsheet library); ``formula_like`` lives in
# ``addin.core.text_input`` so the report renderers use the same test for their own outputs.


MAX_TEXT = 32_767
"""Excel's limit on the characters in one cell."""
SHOWN = 200
"""How much of an offending value a message repeats."""

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def quoted(value: str) -> str:
    """``value`` as a message quotes it: repr, cut to about ``SHOWN`` characters."""
    if len(value) <= SHOWN:
        return repr(value)
    return f"{value[:SHOWN]!r}... ({len(value):,} characters)"


def problem_with(text: str) -> str | None:
    """Why ``text`` cannot go into a cell, or None."""
    if len(text) > MAX_TEXT:
        return f"text of {len(text):,} characters is longer than a cell holds ({MAX_TEXT:,})"
    bad = _FORBIDDEN.search(text)
    if bad:
        code = f"U+{ord(bad.group()):04X}"
        return f"text holds the control character {code}, which .xlsx files cannot store"
    return None


def gate(value: object, where: str) -> object:
    """The value to store for ``value`` in the cell ``where`` (such as ``Players!B7``).

    Raises ``RefusedValue``; returns ``Text`` for formula-like text from outside.
    """
    if not isinstance(value, str):
        return value
    reason = problem_with(value)
    if reason:
        raise RefusedValue(f"{where}: {reason}: {quoted(value)}; nothing was written")
    if isinstance(value, Formula):
        return value
    if formula_like(value):
        return Text(str(value))
    return value
