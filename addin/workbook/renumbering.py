"""A player's AGA number replaced in every sheet that names it (``replace-id``).

The Players row is rewritten by ``players_sheet``; this module rewrites the Round sheets'
games and byes, the Requests and the Standings, cell by cell, so that every other cell
and the TD's own columns stay as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from addin.core.model import Tournament
from addin.workbook.book import Book, copy_row
from addin.workbook.gateway import TableData, Tables, TableSource
from addin.workbook.layout import REQUESTS, byes_table, games_table, standings_table

GAME_IDS = ("white", "black")
BYE_IDS = ("player",)
REQUEST_IDS = ("first", "second")
STANDING_IDS = ("aga_id",)


def _renumbered_rows(data: TableData | None, keys: Sequence[str], old: int, new: int) -> int:
    """Replace ``old`` by ``new`` in ``keys`` of ``data``'s rows (in place); how many cells."""
    count = 0
    for row in data.rows if data else ():
        for key in keys:
            if row.values.get(key) == old:
                row.values[key] = new
                count += 1
                notes = row.values.get("notes")  # a game's notes name players "Name (number)"
                if isinstance(notes, str):
                    row.values["notes"] = notes.replace(f"({old})", f"({new})")
    return count


def _copy(data: TableData | None) -> TableData | None:
    if data is None:
        return None
    return replace(data, rows=[copy_row(r) for r in data.rows])


def _standings(tables: TableSource, tiebreaks: Sequence[str], projected: bool) -> TableData | None:
    """The Standings table as ``standings`` wrote it; one it cannot read as such (the
    tiebreak order changed since) is left for the next ``standings`` to rewrite."""
    table = standings_table(tiebreaks, projected)
    if table.sheet not in tables.sheet_names():
        return None
    data = tables.read_table(table)
    return data if data.present and not data.problems else None


def renumber_elsewhere(tables: Tables, b: Book, t: Tournament, old: int, new: int) -> list[str]:
    """AGA # ``old`` made ``new`` in ``t``'s rounds, the Requests and the Standings as ``b``
    read them; where it was changed ("round 2", "Requests", "Standings")."""
    where: list[str] = []
    for rnd in t.rounds:
        games_t, byes_t = games_table(rnd.number), byes_table(rnd.number)
        games, byes = _copy(b.tables.get(games_t.name)), _copy(b.tables.get(byes_t.name))
        cells = _renumbered_rows(games, GAME_IDS, old, new)
        cells += _renumbered_rows(byes, BYE_IDS, old, new)
        if cells:
            if games is not None:
                tables.write_table(games_t, games.rows)
            if byes is not None:
                tables.write_table(byes_t, byes.rows)
            where.append(f"round {rnd.number}")
    requests = _copy(b.tables.get(REQUESTS.name))
    if _renumbered_rows(requests, REQUEST_IDS, old, new) and requests is not None:
        tables.write_table(REQUESTS, requests.rows)
        where.append(REQUESTS.sheet)
    standings = _copy(_standings(tables, t.settings.tiebreaks, t.settings.projected_ratings))
    if _renumbered_rows(standings, STANDING_IDS, old, new) and standings is not None:
        tables.write_table(standings.table, standings.rows)
        where.append(standings.table.sheet)
    return where
