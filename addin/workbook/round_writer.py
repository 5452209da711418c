"""A round changed by hand (the director's operations) written back to its sheet.

Each game and bye row carries the TD's own columns of the row it replaces: a game is the
same game while it has the same two players, a bye while it is the same player's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from addin.core.model import Player, PlayerId, Round
from addin.workbook.book import Book, round_rows
from addin.workbook.gateway import Gateway, Row, TableData
from addin.workbook.layout import byes_table, games_table


def _keep_extras(
    rows: list[dict[str, object]],
    old: TableData | None,
    key: Callable[[Mapping[str, object]], object],
) -> list[Row]:
    """Rows to write, each carrying the TD's own columns of the row it replaces."""
    extras = {key(r.values): r.extra for r in old.rows} if old else {}
    return [Row(values, extra=dict(extras.get(key(values), {}))) for values in rows]


def _pair_key(v: Mapping[str, object]) -> object:
    return frozenset((v.get("white"), v.get("black")))


def _bye_key(v: Mapping[str, object]) -> object:
    return v.get("player")


def rewrite_round(gw: Gateway, b: Book, rnd: Round, players: Mapping[PlayerId, Player]) -> None:
    """Round ``rnd``'s games and byes in place of those ``b`` read."""
    games, byes = round_rows(rnd, players)
    games_t, byes_t = games_table(rnd.number), byes_table(rnd.number)
    gw.write_table(games_t, _keep_extras(games, b.tables.get(games_t.name), _pair_key))
    gw.write_table(byes_t, _keep_extras(byes, b.tables.get(byes_t.name), _bye_key))
