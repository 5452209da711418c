"""A round's change, in the tournament and in its sheets; Players rows merged in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from addin.actions.director.desk import Desk
from addin.actions.session import Session
from addin.core.model import PlayerId, Round, Tournament
from addin.publish.codes import write_codes
from addin.workbook import players_sheet
from addin.workbook.round_writer import rewrite_round


def with_round(t: Tournament, rnd: Round) -> Tournament:
    rounds = [rnd if r.number == rnd.number else r for r in t.rounds]
    return replace(t, rounds=rounds)


def write_round(session: Session, desk: Desk, rnd: Round) -> None:
    rewrite_round(session.gw, desk.b, rnd, desk.t.players)
    write_codes(session.gw, rnd, new_round=False)


def write_players(session: Session, desk: Desk, updates: Mapping[PlayerId, dict]) -> None:
    players_sheet.write_fields(session.gw, desk.b, updates)
