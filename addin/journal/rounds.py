"""A round as the journal's copy of the workbook holds it: who played when it was stamped."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from addin.core.consistency import pairing_digest
from addin.core.model import Bye, ByeKind, Game, PlayerId, Round
from addin.journal.store import Journal, JournalError
from addin.workbook.layout import byes_table, games_table

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
    from addin.workbook.openpyxl_gateway import OpenpyxlGateway, WorkbookError

    try:
        gw = OpenpyxlGateway.open(snapshot)
    except (WorkbookError, OSError):
        return None
    games_data, byes_data = gw.read_table(games_table(number)), gw.read_table(byes_table(number))
    if not games_data.present:
        return None
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
            kind = row.get("kind", ByeKind.VOLUNTARY.value)
            byes.append(Bye(pid, ByeKind(kind)))
            names[pid] = str(row.get("name", ""))
    return Round(number, tuple(games), tuple(byes)), names
