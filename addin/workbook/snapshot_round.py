"""One round of a saved copy of the workbook (a state the journal keeps), read on its own.

The journal compares a round as it was stamped with the round as it is now; it needs the
round's games, byes and names from the copy, and nothing else of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO

from addin.core.model import Bye, ByeKind, Game, PlayerId, Round
from addin.workbook import table_rows
from addin.workbook.gateway import TableData
from addin.workbook.layout import Table, byes_table, games_table, round_sheet


def round_in_file(
    snapshot: Path | IO[bytes], number: int
) -> tuple[Round, dict[PlayerId, str]] | None:
    """Round ``number`` of the workbook at ``snapshot`` (a file, or its bytes), with its
    players' names as the sheet shows them; only its Round sheet is read. None when the
    file is no workbook or has no such round."""
    try:
        import openpyxl  # only when a snapshot is read: not on every action

        wb = openpyxl.load_workbook(snapshot, read_only=True, data_only=False)
    except Exception:  # a snapshot that is no workbook: no copy to compare with
        return None
    try:
        sheet = round_sheet(number)
        if sheet not in wb.sheetnames:
            return None
        block = [list(r) for r in wb[sheet].iter_rows(values_only=True)]
    finally:
        wb.close()
    if not block:
        return None
    games_data, byes_data = (_table(block, games_table(number)), _table(block, byes_table(number)))
    names: dict[PlayerId, str] = {}
    games = []
    for row in games_data.rows:
        white, black = row.whole("white"), row.whole("black")
        if white is None or black is None:
            continue
        games.append(Game(white, black, row.whole("handicap") or 0, board=row.whole("board")))
        names[white], names[black] = row.text("white_name"), row.text("black_name")
    byes = []
    for row in byes_data.rows:
        pid = row.whole("player")
        if pid is not None:
            byes.append(Bye(pid, ByeKind(row.get("kind", ByeKind.VOLUNTARY.value))))
            names[pid] = row.text("name")
    return Round(number, tuple(games), tuple(byes)), names


def _table(block: list[list[object]], table: Table) -> TableData:
    """``table`` read from a sheet's values (header in row 1), as every reader reads it."""
    headers = table_rows.header_map(block[0], table, table_rows.declared_last(table))
    if not headers:
        return TableData(table, [], [], present=False)
    first, last = min(headers), max(headers)
    raw = ([*row, *([None] * last)][first - 1 : last] for row in block[1:])
    return table_rows.rows_from_block(table, 1, headers, raw)
