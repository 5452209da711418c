"""What the rows a TD selected hold: the AGA numbers, boards or members on them.

The doors turn a selection into an action's parameters (``addin.door.selected``); which
sheet holds players, boards or members, and in which column, is known here.
"""

from __future__ import annotations

from collections.abc import Collection

from addin.workbook.book import Book
from addin.workbook.gateway import Gateway, Selection
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


def egd_pins(gw: Gateway, sel: Selection) -> list[int]:
    """The PIN on each selected row of the EGD list sheet, in row order."""
    data = gw.read_table(EGD_LIST)
    return [
        pin
        for row in data.rows
        if row.number in sel.rows and isinstance(pin := row.get("pin"), int)
    ]


def player_ids(gw: Gateway, b: Book, sel: Selection) -> list[object]:
    """The AGA # on each selected row of the Players or Standings sheet, in row order."""
    if sel.sheet == b.players_data.table.sheet:
        data = b.players_data
    else:
        data = gw.read_table(standings_table(b.tournament.settings.tiebreaks))
    return [row.get("aga_id") for row in data.rows if row.number in sel.rows]


def round_of(sel: Selection | None) -> int | None:
    """The round whose sheet ``sel`` is on (None: no Round sheet)."""
    return round_number_of(sel.sheet) if sel else None


def boards(b: Book, number: int, sel: Selection) -> set[object]:
    """The boards on the selected rows of round ``number``'s sheet."""
    data = b.tables[games_table(number).name]
    return {row.get("board") for row in data.rows if row.number in sel.rows}


def member_ids(gw: Gateway, sel: Selection) -> list[object]:
    """The AGA # on each selected row of the TDListA sheet, in row order."""
    data = gw.read_table(TDLISTA)
    return [row.get("aga_id") for row in data.rows if row.number in sel.rows]


def member_list_area() -> tuple[str, int]:
    """The TDListA sheet's name and how many columns, from A, its rows span (for selecting
    a look-up's matches)."""
    return TDLISTA.sheet, TDLISTA.anchor_column + len(TDLISTA.columns) - 1


def member_rows(gw: Gateway, ids: Collection[int]) -> list[int]:
    """The TDListA sheet rows of the members ``ids``."""
    data = gw.read_table(TDLISTA)
    return [int(row.number) for row in data.rows if row.get("aga_id") in ids and row.number]
