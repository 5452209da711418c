"""``replace-id``: a temporary 9xxxx number swapped for the player's real AGA number.

Every table that holds the number follows: the Players row, every Round sheet's games and
byes, the Requests sheet and the Standings sheet when it is there. The Log keeps the old
number as history. When the TDListA has the new number, its AGA data fill the Players row
(the entry rating the pairings used stays); a name that differs is an active warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from addin.actions import intake
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director.desk import check_warnings, finish, open_desk
from addin.actions.member_list import read_members
from addin.actions.registry import action, param
from addin.actions.sections import ROUNDS, SETTLED
from addin.core.limits import shown
from addin.core.member import Member
from addin.core.registration import TEMPORARY_IDS, check_registration, is_temporary_id
from addin.core.renumber import renumbered
from addin.workbook import players_sheet
from addin.workbook.layout import Section
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


@dataclass(frozen=True, kw_only=True)
class ReplaceIdParams:
    old: str = param(
        "the number the player has now (a temporary 9xxxx number)", required=True, option="from"
    )
    to: str = param("the player's real AGA number", required=True)


@action(
    "replace-id",
    "Replace temporary number",
    "give a player the real AGA number in place of a temporary 9xxxx number, everywhere",
    ReplaceIdParams,
    reads=SETTLED | {Section.STANDINGS},
    writes=ROUNDS | {Section.REQUESTS, Section.STANDINGS},
)
def replace_id(snapshot: Snapshot, params: ReplaceIdParams) -> Change:
    draft = Draft(snapshot)
    old = parse_number(params.old, "--from")
    new = parse_number(params.to, "--to")
    if new > HIGHEST_AGA:
        raise ActionError(
            f"--to: {new} is not a real AGA number ({TEMPORARY_IDS[0]}-{TEMPORARY_IDS[-1]} are "
            f"temporary; real numbers are 1-{HIGHEST_AGA})"
        )
    desk = open_desk(draft)
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
    index = read_members(draft)
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
    draft.warn(warnings + check_warnings(desk))

    fields = _list_values(member) if member is not None else {}
    rows = players_sheet.renumber(draft, b, old, new, fields)
    where = [f"Players row {players_sheet.row_number(b, old)}"]
    where += renumber_elsewhere(draft, b, t, old, new)
    intake.stamp_rows(draft, rows, settings)
    finish(draft, desk, after, _message(player.name, old, new, where, member, player.rating))
    return draft.change


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
