"""``replace-id``: a temporary 9xxxx number swapped for the player's real AGA number.

Every table that holds the number follows: the Players row, every Round sheet's games and
byes, the Requests sheet and the Standings sheet when it is there. The Log keeps the old
number as history. When the TDListA has the new number, its AGA data fill the Players row
(the entry rating the pairings used stays); a name that differs is an active warning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date

from addin.actions import intake
from addin.actions.director.desk import check_warnings, finish, open_desk
from addin.actions.member_list import read_members
from addin.actions.registry import Param, action
from addin.actions.session import ActionError, Session
from addin.core.limits import shown
from addin.core.model import PlayerId
from addin.core.registration import TEMPORARY_IDS, check_registration, is_temporary_id
from addin.core.renumber import renumbered
from addin.formats.tdlista import Member
from addin.workbook import book
from addin.workbook.gateway import Gateway, TableData
from addin.workbook.layout import REQUESTS, byes_table, games_table, players_table, standings_table

ID_COLUMNS: Mapping[str, tuple[str, ...]] = {"games": ("white", "black"), "byes": ("player",)}
HIGHEST_AGA = TEMPORARY_IDS[0] - 1
"""Real AGA numbers lie below the temporary range."""

_WHOLE = re.compile(r"[0-9]{1,9}")


def parse_number(value: object, option: str) -> int:
    """A whole AGA number from what the TD typed, or a one-line ActionError."""
    text = str(value if value is not None else "").strip()
    if text.endswith(".0"):
        text = text[:-2]
    if not _WHOLE.fullmatch(text) or int(text) < 1:
        raise ActionError(
            f"{option}: {shown(value)} is not an AGA number (a whole number, 1 or more)"
        )
    return int(text)


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
    return replace(data, rows=[intake.copy_row(r) for r in data.rows])


def _standings(gw: Gateway, tiebreaks: Sequence[str]) -> TableData | None:
    """The Standings table as ``standings`` wrote it; one it cannot read as such (the
    tiebreak order changed since) is left for the next ``standings`` to rewrite."""
    if "Standings" not in gw.sheet_names():
        return None
    data = gw.read_table(standings_table(tiebreaks))
    return data if data.present and not data.problems else None


def _list_values(member: Member) -> dict[str, object]:
    values: dict[str, object] = {
        "aga_rating": member.rating,
        "membership_type": member.membership_type,
        "membership_expiry": member.expiry,
        "chapter": member.chapter,
        "state": member.state,
    }
    return {k: v for k, v in values.items() if v not in (None, "")}


@action(
    "replace-id",
    "Replace temporary number",
    "give a player the real AGA number in place of a temporary 9xxxx number, everywhere",
    Param("from", "the number the player has now (a temporary 9xxxx number)", required=True),
    Param("to", "the player's real AGA number", required=True),
)
def replace_id(session: Session, params: Mapping[str, object]) -> None:
    old = parse_number(params.get("from"), "--from")
    new = parse_number(params.get("to"), "--to")
    if new > HIGHEST_AGA:
        raise ActionError(
            f"--to: {new} is not a real AGA number ({TEMPORARY_IDS[0]}-{TEMPORARY_IDS[-1]} are "
            f"temporary; real numbers are 1-{HIGHEST_AGA})"
        )
    desk = open_desk(session)
    t, b = desk.t, desk.b
    player = t.players.get(old)
    if player is None:
        raise ActionError(f"--from: AGA # {old} is not in the Players sheet")
    if new == old:
        raise ActionError(f"--to: {player.name} already has AGA # {new}")
    if new in t.players:
        raise ActionError(
            f"--to: AGA # {new} is already {t.players[new].name}'s number "
            f"(Players row {_row_of(b, new)})"
        )
    index = read_members(session.gw)
    member = index.by_id(new) if len(index) else None
    settings = t.settings
    warnings: list[str] = []
    if not is_temporary_id(old):
        warnings.append(
            f"AGA # {old} ({player.name}) is not a temporary number: it was a real AGA number"
        )
    if len(index):
        start = settings.start_date or date.today()
        found = check_registration(
            index, start, aga_id=new, name=player.name, requested=player.rank or None,
            end_date=settings.end_date,
        )  # fmt: skip
        warnings += [w.message for w in found]
    after = renumbered(t, old, new)
    session.warn(warnings + check_warnings(session, desk))

    values: dict[str, object] = {"aga_id": new}
    if member is not None:
        values.update(_list_values(member))
    rows = book.merge_rows(b.players_data, "aga_id", {old: values})
    session.gw.write_table(players_table(settings.rounds), rows)
    where = [f"Players row {_row_of(b, old)}"]
    for rnd in t.rounds:
        games_t, byes_t = games_table(rnd.number), byes_table(rnd.number)
        games, byes = _copy(b.tables.get(games_t.name)), _copy(b.tables.get(byes_t.name))
        cells = _renumbered_rows(games, ID_COLUMNS["games"], old, new)
        cells += _renumbered_rows(byes, ID_COLUMNS["byes"], old, new)
        if cells:
            if games is not None:
                session.gw.write_table(games_t, games.rows)
            if byes is not None:
                session.gw.write_table(byes_t, byes.rows)
            where.append(f"round {rnd.number}")
    requests = _copy(b.tables.get(REQUESTS.name))
    if _renumbered_rows(requests, ("first", "second"), old, new) and requests is not None:
        session.gw.write_table(REQUESTS, requests.rows)
        where.append("Requests")
    standings = _copy(_standings(session.gw, settings.tiebreaks))
    if _renumbered_rows(standings, ("aga_id",), old, new) and standings is not None:
        session.gw.write_table(standings.table, standings.rows)
        where.append("Standings")
    intake.stamp_rows(session, rows, settings)
    finish(session, desk, after, _message(player.name, old, new, where, member, player.rating))


def _row_of(b: book.Book, aga_id: PlayerId) -> object:
    return next((r.number for r in b.players_data.rows if r.get("aga_id") == aga_id), "?")


def _message(
    name: str, old: int, new: int, where: list[str], member: Member | None, rating: float | None
) -> str:
    text = f"{name}: AGA # {old} -> {new} in " + ", ".join(where)
    if member is None:
        return text + " (not in the TDListA)"
    text += f"; AGA data from the TDListA ({member.name})"
    if member.rating is not None and rating is not None and member.rating != rating:
        text += f"; entry rating {rating:g} kept (the list rates {member.rating:g})"
    return text
