"""The one gate every value passes on its way into a cell, through either gateway.

- Text longer than Excel's 32,767 characters, or holding a character XML
  forbids (control characters other than tab, line feed and carriage return),
  is refused: ``RefusedValue`` names the cell, and the action writes nothing.
  Refusing rather than cleaning keeps the rule "what is in the workbook is what
  the TD gave" and makes the TD fix the source file once, where it is wrong.
- Text that a spreadsheet would take as a formula (starting with ``=``, ``+``,
  ``-``, ``@``, tab or carriage return) is stored as text, never as a formula,
  unless it is the TD's own formula read from a cell (``Formula``). A plain
  number written as text (``-3.5``) cannot be a formula and passes unchanged.

The rules are pure (no spreadsheet library); ``formula_like`` lives in
``addin.core.text_input`` so the report renderers use the same test for their own outputs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from addin.core.text_input import formula_like

__all__ = ["Formula", "RefusedValue", "Text", "formula_like", "gate"]

MAX_TEXT = 32_767
"""Excel's limit on the characters in one cell."""
SHOWN = 200
"""How much of an offending value a message repeats."""

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


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


def shown(value: str) -> str:
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
        raise RefusedValue(f"{where}: {reason}: {shown(value)}; nothing was written")
    if isinstance(value, Formula):
        return value
    if formula_like(value):
        return Text(str(value))
    return value
