"""A round as the journal's copy of the workbook holds it: who played when it was stamped."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from addin.core.consistency import pairing_digest
from addin.core.model import Bye, ByeKind, Game, PlayerId, Round
from addin.journal.store import Journal, JournalError
from addin.workbook import table_rows
from addin.workbook.gateway import TableData
from addin.workbook.layout import Table, byes_table, games_table, round_sheet

TRIED = 8
"""Copies looked at, newest first: the stamp is almost always the last action's."""


def round_as_stamped(
    book: Path, number: int, digest: str
) -> tuple[Round, Mapping[PlayerId, str]] | None:
    """Round ``number`` as in the newest journal copy whose pairing digest is ``digest``,
    with its players' names; None when the journal has no such copy (or none at all)."""
    try:
        journal = Journal.load(book)
    except (JournalError, OSError):
        return None
    seen: set[str] = set()
    for entry in reversed(journal.entries):
        if len(seen) >= TRIED:
            break
        if entry.after in seen:
            continue
        seen.add(entry.after)
        found = _round_in(journal.snapshot_path(entry.after), number)
        if found is not None and pairing_digest(found[0]) == digest:
            return found
    return None


def _round_in(snapshot: Path, number: int) -> tuple[Round, dict[PlayerId, str]] | None:
    """Round ``number`` of the workbook at ``snapshot``: only its Round sheet is read."""
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
        white, black = row.get("white"), row.get("black")
        if not isinstance(white, int) or not isinstance(black, int):
            continue
        handicap = row.get("handicap", 0)
        stones = handicap if isinstance(handicap, int) else 0
        games.append(Game(white, black, stones, board=row.get("board")))  # type: ignore[arg-type]
        names[white], names[black] = str(row.get("white_name", "")), str(row.get("black_name", ""))
    byes = []
    for row in byes_data.rows:
        pid = row.get("player")
        if isinstance(pid, int):
            byes.append(Bye(pid, ByeKind(row.get("kind", ByeKind.VOLUNTARY.value))))
            names[pid] = str(row.get("name", ""))
    return Round(number, tuple(games), tuple(byes)), names


def _table(block: list[list[object]], table: Table) -> TableData:
    """``table`` read from a sheet's values (header in row 1), as every reader reads it."""
    headers = table_rows.header_map(block[0], table, table_rows.declared_last(table))
    if not headers:
        return TableData(table, [], [], present=False)
    first, last = min(headers), max(headers)
    raw = ([*row, *([None] * last)][first - 1 : last] for row in block[1:])
    return table_rows.rows_from_block(table, 1, headers, raw)
