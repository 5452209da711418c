"""The Players sheet as the actions change it: some of a player's fields, or every player.

A Players column holds the :class:`~addin.core.model.Player` field of the same name, so an
action says what it changes in the model's words (``{"band": 3}``); this module finds the
rows and writes the table once, keeping every cell and column the TD typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from addin.core.model import Player, PlayerId
from addin.workbook.book import Book, merge_rows, player_values
from addin.workbook.gateway import Gateway, Problem, Row
from addin.workbook.layout import players_table

ID = "aga_id"
"""The field that keys a Players row."""


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


def band_override_problem(b: Book, pid: object, message: str) -> Problem | None:
    """``message`` on ``pid``'s Band override cell (None when no row has that AGA #)."""
    return _problem(b, pid, "band_override", message)


def write_fields(
    gw: Gateway,
    b: Book,
    updates: Mapping[PlayerId, Mapping[str, object]],
    *,
    fill_only: Iterable[str] = (),
) -> None:
    """Write each player's changed fields (``updates``: AGA # -> field -> value) into their
    row, a new row for an AGA # not there; fields in ``fill_only`` only into blank cells."""
    rows = merge_rows(b.players_data, ID, updates, fill_only=fill_only)
    gw.write_table(players_table(b.tournament.settings.rounds), rows)


def write_players(gw: Gateway, players: Iterable[Player], rounds: int) -> None:
    """Replace every Players row with ``players`` (a tournament of ``rounds`` rounds)."""
    gw.write_table(players_table(rounds), [player_values(p, rounds) for p in players])
