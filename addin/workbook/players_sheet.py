"""The Players sheet as the actions change it: some of a player's fields, or every player.

A Players column holds the :class:`~addin.core.model.Player` field of the same name, so an
action says what it changes in the model's words (``{"band": 3}``); this module finds the
rows and writes the table once, keeping every cell and column the TD typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from addin.core.egd import EgdPlayer
from addin.core.egd_refresh import refresh as egd_refresh
from addin.core.european import GradeScale
from addin.core.member import Member
from addin.core.member_refresh import Refresh, refresh
from addin.core.model import Player, PlayerId
from addin.core.registration import is_temporary_id
from addin.workbook.book import Book, merge_rows, player_values
from addin.workbook.gateway import Problem, Row, Tables
from addin.workbook.layout import players_table

ID = "aga_id"
"""The field that keys a Players row."""


def headers(rounds: int) -> dict[str, str]:
    """The Players column header of each field, for messages."""
    return {c.key: c.header for c in players_table(rounds).columns}


def _name(values: dict[str, object]) -> str:
    family, given = values.get("family_name") or "", values.get("given_name") or ""
    return f"{family}, {given}" if given else str(family)


def refreshes(
    b: Book, members: Sequence[Member], previous: Mapping[int, Member] | None = None
) -> list[tuple[str, Refresh]]:
    """Each registered player the list changes, with the player's name; ``previous``: the
    list the workbook held until now, by AGA #, which tells the desk's values from its own."""
    by_id = {m.aga_id: m for m in members}
    previous = previous or {}
    found = []
    for row in b.players_data.rows:
        pid = row.values.get(ID)
        if not isinstance(pid, int) or is_temporary_id(pid) or pid not in by_id:
            continue
        r = refresh(row.values, by_id[pid], previous.get(pid))
        if r.changes or r.kept_rating is not None or r.kept:
            found.append((f"{_name(row.values)} (AGA # {pid})", r))
    return found


def egd_refreshes(
    b: Book,
    players: Sequence[EgdPlayer],
    previous: Mapping[int, EgdPlayer],
    scale: GradeScale,
) -> list[tuple[str, Refresh]]:
    """Each registered player (by EGD PIN) a newer EGD list changes, as ``refreshes`` does
    for the TDListA; ``previous``: the list the workbook held until now, by PIN."""
    by_pin = {p.pin: p for p in players}
    found = []
    for row in b.players_data.rows:
        pid, pin = row.values.get(ID), row.values.get("egd_pin")
        if not isinstance(pid, int) or not isinstance(pin, int) or pin not in by_pin:
            continue
        r = egd_refresh(pid, row.values, by_pin[pin], previous.get(pin), scale)
        if r.changes or r.kept_rating is not None or r.kept:
            found.append((f"{_name(row.values)} (EGD PIN {pin})", r))
    return found


def sheet_notice(message: str) -> Problem:
    """``message`` about the Players sheet as a whole (what the next action fills in)."""
    return Problem(players_table(0).sheet, message)


def player_row(b: Book, pid: object) -> Row | None:
    """The Players row of AGA # ``pid`` (the first, if the TD typed it twice)."""
    return next((r for r in b.players_data.rows if r.get(ID) == pid), None)


def row_number(b: Book, pid: object) -> int | str:
    """The sheet row of AGA # ``pid``, for messages ("?" when it has none)."""
    row = player_row(b, pid)
    return row.number if row is not None and row.number is not None else "?"


def _problem(b: Book, pid: object, key: str, message: str) -> Problem | None:
    row = player_row(b, pid)
    return b.players_data.problem(row, key, message) if row is not None else None


def rating_problem(b: Book, pid: object, message: str) -> Problem | None:
    """``message`` on ``pid``'s Entry rating cell (None when no row has that AGA #)."""
    return _problem(b, pid, "rating", message)


def initial_score_problem(b: Book, pid: object, message: str) -> Problem | None:
    """``message`` on ``pid``'s Initial score cell (None when no row has that AGA #)."""
    return _problem(b, pid, "initial_score", message)


def band_override_problem(b: Book, pid: object, message: str) -> Problem | None:
    """``message`` on ``pid``'s Band override cell (None when no row has that AGA #)."""
    return _problem(b, pid, "band_override", message)


def write_fields(
    tables: Tables,
    b: Book,
    updates: Mapping[PlayerId, Mapping[str, object]],
    *,
    fill_only: Iterable[str] = (),
) -> list[Row]:
    """Write each player's changed fields (``updates``: AGA # -> field -> value) into their
    row, a new row for an AGA # not there; fields in ``fill_only`` only into blank cells.
    The rows written."""
    rows = merge_rows(b.players_data, ID, updates, fill_only=fill_only)
    tables.write_table(players_table(b.tournament.settings.rounds), rows)
    return rows


def renumber(
    tables: Tables, b: Book, old: int, new: int, fields: Mapping[str, object]
) -> list[Row]:
    """AGA # ``old``'s row given AGA # ``new`` and ``fields``; the rows written."""
    return write_fields(tables, b, {old: {ID: new, **fields}})


def with_players(b: Book, players: Iterable[Player]) -> list[Row]:
    """The Players rows ``b`` read, ``players`` written into theirs (new rows at the end)."""
    rounds = b.tournament.settings.rounds
    return merge_rows(b.players_data, ID, {p.aga_id: player_values(p, rounds) for p in players})


def write_rows(tables: Tables, b: Book, rows: Iterable[Row]) -> None:
    """Replace the Players rows with ``rows`` (rows of ``b``'s Players table)."""
    tables.write_table(players_table(b.tournament.settings.rounds), list(rows))


def write_players(tables: Tables, players: Iterable[Player], rounds: int) -> None:
    """Replace every Players row with ``players`` (a tournament of ``rounds`` rounds)."""
    tables.write_table(players_table(rounds), [player_values(p, rounds) for p in players])
