"""The cells the AGA submission check names: each player's row, each setting, each result.

The check is pure (``addin.core.submission``) and speaks of cells it is given; this module
finds them in what was read, so that a problem names the cell the TD must change.
"""

from __future__ import annotations

from addin.core.model import PlayerId
from addin.core.submission import Cell, PlayerRow, SettingField
from addin.workbook.book import Book, player_from_row
from addin.workbook.gateway import Row, TableData
from addin.workbook.layout import SETTINGS, SETTINGS_TABLE, games_table


def _cells(data: TableData, row: Row) -> dict[str, Cell]:
    return {
        c.key: Cell(data.table.sheet, row.cells.get(c.key), c.header)
        for c in data.table.columns
        if row.cells.get(c.key)
    }


def player_rows(b: Book) -> list[PlayerRow]:
    """Every Players row that is a player (duplicates included), with its cells."""
    data, rounds = b.players_data, b.tournament.settings.rounds
    rows = []
    for row in data.rows:
        player = player_from_row(row, rounds)
        if player is not None:
            cells = _cells(data, row)
            rows.append(
                PlayerRow(player, cells, cells.get("aga_id"), cells.get("membership_expiry"))
            )
    return rows


def setting_cell(b: Book, key: str) -> Cell:
    """The Value cell of setting ``key`` (the sheet alone when the row is missing)."""
    label = next(s.label for s in SETTINGS if s.key == key)
    ref = b.settings.cell(key)
    return Cell(SETTINGS_TABLE.sheet, ref, label) if ref else Cell(SETTINGS_TABLE.sheet)


def setting_fields(b: Book) -> list[SettingField]:
    """Every setting: whether it is blank, and its cell."""
    return [
        SettingField(
            s.key, s.label, b.settings.values.get(s.key) in (None, ""), setting_cell(b, s.key)
        )
        for s in SETTINGS
    ]


def result_cells(b: Book) -> dict[tuple[int, PlayerId, PlayerId], Cell]:
    """The Result cell of each game, by (round, White, Black)."""
    cells = {}
    for rnd in b.tournament.rounds:
        data = b.tables.get(games_table(rnd.number).name)
        if data is None:
            continue
        result = data.table.column("result").header
        for row in data.rows:
            white, black = row.get("white"), row.get("black")
            if isinstance(white, int) and isinstance(black, int) and row.cells.get("result"):
                cells[(rnd.number, white, black)] = Cell(
                    data.table.sheet, row.cells["result"], result
                )
    return cells
