"""A report as plain data: what the builders make and every renderer reads.

A report is always a table (``columns`` and ``rows``), so that every report can be written
to a sheet, a text file or an HTML table. Pairing cards and result slips also carry their
own structured form (``cards``, ``slips``) for the renderers that draw them as cards and
slips rather than as a table.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date


class ReportError(ValueError):
    """A report that cannot be made as asked: unknown kind or sort, a round not paired."""


class Format(enum.Enum):
    """How a column's values are shown."""

    TEXT = "text"
    INT = "int"
    SCORE = "score"
    """McMahon scores and tiebreaks: -4, -3.5, 12.25."""
    RATING = "rating"
    """Entry ratings, two decimals: -6.45."""
    CHANGE = "change"
    """A change of rating, signed, two decimals: +0.32, -1.05."""
    GAME = "game"
    """A :class:`GameCell` of a cross table."""

    @property
    def numeric(self) -> bool:
        return self in (Format.INT, Format.SCORE, Format.RATING, Format.CHANGE)


class Layout(enum.Enum):
    TABLE = "table"
    CARDS = "cards"
    SLIPS = "slips"


@dataclass(frozen=True)
class Query:
    """What was asked for, once checked: the kind, its sort, the round (0: none yet)."""

    kind: str
    sort: str
    round: int
    printed: date
    codes: tuple[tuple[int, str], ...] = ()
    """Result slips: each board's result code (the Round sheet's codes table)."""
    ratings: tuple[tuple[int, float | None, float | None, float | None], ...] = ()
    """Projected ratings: each player's (AGA #, rating before, projected rating, projected
    sigma), computed by the action from the TDListA sheet (``addin.reports.projected``)."""


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    format: Format = Format.TEXT
    width: int = 10
    """Relative width, in characters of a typical value."""


@dataclass(frozen=True)
class GameCell:
    """One round of a cross table: the opponent's player number and what happened."""

    opponent: int | None
    mark: str
    """``+`` win, ``-`` loss, ``=`` jigo ... or the whole text when there is no opponent."""
    css: str
    """win, loss, draw, bye, absent or pending: a class name for the HTML renderer."""

    def __str__(self) -> str:
        return f"{self.opponent}{self.mark}" if self.opponent is not None else self.mark


Cell = str | int | float | GameCell | None


@dataclass(frozen=True)
class CardBox:
    """The three boxes of one round on a pairing card (interface document, vii)."""

    opponent: str = ""
    condition: str = ""
    """Handicap (+2 received, -2 given) or colour (W, B) of an even game."""
    score: str = ""
    """McMahon score at the end of the round."""
    code: str = ""
    """The result code of the board, for the round in play's game not played yet (printed
    on its own line of the card, large: :attr:`Card.code_line`)."""

    def label(self, number: int) -> str:
        """The box's heading: ``R3``."""
        return f"R{number}"


RESULT_CODE = "Result code"
"""What the slip, the card, the site and the poster all call a board's code."""


@dataclass(frozen=True)
class Card:
    number: int
    name: str
    aga_id: int
    initial: str
    rating: str
    boxes: tuple[CardBox, ...]
    note: str = ""
    """"Dropped" for a player who left the tournament."""

    @property
    def code_line(self) -> str:
        """``Result code, round 3: 74HK`` while the round in play's result can be reported
        from a phone; "" otherwise."""
        found = [(n, b.code) for n, b in enumerate(self.boxes, start=1) if b.code]
        if not found:
            return ""
        number, code = found[-1]
        return f"{RESULT_CODE}, round {number}: {code}"


@dataclass(frozen=True)
class SlipPlayer:
    name: str
    aga_id: int
    rank: str


@dataclass(frozen=True)
class Slip:
    round: int
    board: int
    white: SlipPlayer
    black: SlipPlayer
    handicap: int
    komi: float
    code: str = ""
    """The board's result code, with which its players report the result from a phone."""

    @property
    def handicap_text(self) -> str:
        return handicap_text(self.handicap)


@dataclass(frozen=True)
class Report:
    kind: str
    sort: str
    title: str
    """"Pairing list"."""
    subtitle: str
    """"Round 3, by board"."""
    tournament: str
    round_label: str
    """"Round 3", "After round 3" or "" for the page header."""
    printed: date
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    layout: Layout = Layout.TABLE
    cards: tuple[Card, ...] = ()
    slips: tuple[Slip, ...] = ()
    notes: tuple[str, ...] = field(default=())
    """Legend lines printed under the table."""

    def index(self, key: str) -> int:
        for i, c in enumerate(self.columns):
            if c.key == key:
                return i
        raise KeyError(f"{self.kind} report has no column {key!r}")

    def column_values(self, key: str) -> list[Cell]:
        i = self.index(key)
        return [row[i] for row in self.rows]

    def records(self) -> list[dict[str, Cell]]:
        """Rows as ``{column key: value}``."""
        keys = [c.key for c in self.columns]
        return [dict(zip(keys, row, strict=True)) for row in self.rows]

    def text_rows(self) -> list[list[str]]:
        return [
            [show(v, c.format) for v, c in zip(row, self.columns, strict=True)] for row in self.rows
        ]

    @property
    def heading(self) -> str:
        return f"{self.title} - {self.subtitle}" if self.subtitle else self.title


def handicap_text(stones: int) -> str:
    """ "Even", "1 stone", "3 stones"."""
    return "Even" if stones == 0 else f"{stones} stone" + "s" * (stones > 1)


def show_score(value: float | None) -> str:
    """-4, -3.5, 12.25, 0.734 (random draws): no trailing zeros, never "-0"."""
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    if (value * 4).is_integer():
        return f"{value:g}"
    return f"{value:.3f}"


def show(value: Cell, fmt: Format) -> str:
    """A cell's text, the same in every renderer."""
    if value is None:
        return ""
    if isinstance(value, str | GameCell):
        return str(value)
    if fmt is Format.RATING:
        return f"{value:.2f}"
    if fmt is Format.CHANGE:
        return "0.00" if abs(float(value)) < 0.005 else f"{value:+.2f}"
    if fmt is Format.SCORE:
        return show_score(float(value))
    return str(value)
