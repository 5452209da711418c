"""What the rows a TD selected hold: the AGA numbers, boards or members on them.

The doors turn a selection into an action's parameters (``addin.door.selected``); which
sheet holds players, boards or members, and in which column, is known here.
"""

from __future__ import annotations

from collections.abc import Collection

from addin.workbook.book import Book
from addin.workbook.gateway import Selection, TableSource
from addin.workbook.layout import (
    EGD_LIST,
    TDLISTA,
    games_table,
    players_table,
    round_number_of,
    standings_table,
)

PLAYER_SHEETS = (players_table(0).sheet, standings_table(()).sheet)


def on_player_sheet(sel: Selection | None) -> bool:
    """Whether ``sel`` is on a sheet with a row per player (Players, Standings)."""
    return sel is not None and sel.sheet in PLAYER_SHEETS


def on_member_list(sel: Selection | None) -> bool:
    """Whether ``sel`` is on the TDListA sheet."""
    return sel is not None and sel.sheet == TDLISTA.sheet


def on_egd_list(sel: Selection | None) -> bool:
    """Whether ``sel`` is on the EGD list sheet."""
    return sel is not None and sel.sheet == EGD_LIST.sheet


def egd_pins(tables: TableSource, sel: Selection) -> list[int]:
    """The PIN on each selected row of the EGD list sheet, in row order (a row without
    one: none)."""
    data = tables.read_table(EGD_LIST)
    pins = (row.whole("pin") for row in data.rows if row.number in sel.rows)
    return [p for p in pins if p is not None]


def player_ids(tables: TableSource, b: Book, sel: Selection) -> list[int]:
    """The AGA # on each selected row of the Players or Standings sheet, in row order
    (a row without one: none)."""
    if sel.sheet == b.players_data.table.sheet:
        data = b.players_data
    else:
        data = tables.read_table(standings_table(b.tournament.settings.tiebreaks))
    ids = (row.whole("aga_id") for row in data.rows if row.number in sel.rows)
    return [i for i in ids if i is not None]


def round_of(sel: Selection | None) -> int | None:
    """The round whose sheet ``sel`` is on (None: no Round sheet)."""
    return round_number_of(sel.sheet) if sel else None


def boards(b: Book, number: int, sel: Selection) -> set[int]:
    """The boards on the selected rows of round ``number``'s sheet."""
    data = b.tables[games_table(number).name]
    numbers = (row.whole("board") for row in data.rows if row.number in sel.rows)
    return {n for n in numbers if n is not None}


def member_ids(tables: TableSource, sel: Selection) -> list[int]:
    """The AGA # on each selected row of the TDListA sheet, in row order (a row without
    one: none)."""
    data = tables.read_table(TDLISTA)
    ids = (row.whole("aga_id") for row in data.rows if row.number in sel.rows)
    return [i for i in ids if i is not None]


def member_list_area() -> tuple[str, int]:
    """The TDListA sheet's name and how many columns, from A, its rows span (for selecting
    a look-up's matches)."""
    return TDLISTA.sheet, TDLISTA.anchor_column + len(TDLISTA.columns) - 1


def member_rows(tables: TableSource, ids: Collection[int]) -> list[int]:
    """The TDListA sheet rows of the members ``ids``."""
    data = tables.read_table(TDLISTA)
    return [int(row.number) for row in data.rows if row.get("aga_id") in ids and row.number]
