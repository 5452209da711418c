"""A round's change, in the tournament and in its sheets; Players rows merged in."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from addin.actions.director.desk import Desk
from addin.actions.session import Session
from addin.core.model import PlayerId, Round, Tournament
from addin.publish.codes import write_codes
from addin.workbook import book
from addin.workbook.gateway import Row, TableData
from addin.workbook.layout import byes_table, games_table, players_table


def with_round(t: Tournament, rnd: Round) -> Tournament:
    rounds = [rnd if r.number == rnd.number else r for r in t.rounds]
    return replace(t, rounds=rounds)


def _keep_extras(
    rows: list[dict[str, object]], old: TableData | None, key: Callable[[Mapping], object]
) -> list[Row]:
    """Rows to write, each carrying the TD's own columns of the row it replaces."""
    extras = {key(r.values): r.extra for r in old.rows} if old else {}
    return [Row(values, extra=dict(extras.get(key(values), {}))) for values in rows]


def write_round(session: Session, desk: Desk, rnd: Round) -> None:
    games, byes = book.round_rows(rnd, desk.t.players)
    games_t, byes_t = games_table(rnd.number), byes_table(rnd.number)

    def pair_key(v: Mapping) -> object:
        return frozenset((v.get("white"), v.get("black")))

    def bye_key(v: Mapping) -> object:
        return v.get("player")

    session.gw.write_table(games_t, _keep_extras(games, desk.b.tables.get(games_t.name), pair_key))
    session.gw.write_table(byes_t, _keep_extras(byes, desk.b.tables.get(byes_t.name), bye_key))
    write_codes(session.gw, rnd, new_round=False)


def write_players(session: Session, desk: Desk, updates: Mapping[PlayerId, dict]) -> None:
    rows = book.merge_rows(desk.b.players_data, "aga_id", updates)
    session.gw.write_table(players_table(desk.t.settings.rounds), rows)
