"""``replace-id``: a temporary 9xxxx number swapped for the player's real AGA number.

Every table that holds the number follows: the Players row, every Round sheet's games and
byes, the Requests sheet and the Standings sheet when it is there. The Log keeps the old
number as history. When the TDListA has the new number, its AGA data fill the Players row
(the entry rating the pairings used stays); a name that differs is an active warning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date

from addin.actions import intake
from addin.actions.director.desk import check_warnings, finish, open_desk
from addin.actions.member_list import read_members
from addin.actions.registry import Param, action
from addin.actions.session import ActionError, Session
from addin.core.limits import shown
from addin.core.registration import TEMPORARY_IDS, check_registration, is_temporary_id
from addin.core.renumber import renumbered
from addin.formats.tdlista import Member
from addin.workbook import players_sheet
from addin.workbook.renumbering import renumber_elsewhere

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
            f"(Players row {players_sheet.row_number(b, new)})"
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

    fields = _list_values(member) if member is not None else {}
    rows = players_sheet.renumber(session.gw, b, old, new, fields)
    where = [f"Players row {players_sheet.row_number(b, old)}"]
    where += renumber_elsewhere(session.gw, b, t, old, new)
    intake.stamp_rows(session, rows, settings)
    finish(session, desk, after, _message(player.name, old, new, where, member, player.rating))


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
