"""The TDListA sheet as a member index: what registration and typed rows are checked against."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from addin.actions.session import ActionError
from addin.core.limits import shown
from addin.core.lookup import MemberIndex
from addin.core.ratings import is_valid_rating
from addin.formats.tdlista import Member, split_name
from addin.workbook.gateway import Gateway, Problem, Row
from addin.workbook.layout import TDLISTA


def member_values(m: Member) -> dict[str, object]:
    return {
        "name": m.name,
        "aga_id": m.aga_id,
        "membership_type": m.membership_type,
        "rating": m.rating,
        "expiry": m.expiry,
        "chapter": m.chapter,
        "state": m.state,
        "sigma": m.sigma,
        "rating_date": m.rating_date,
    }


def member_from_row(row: Row) -> Member | None:
    if row.get("aga_id") is None or row.get("name") is None:
        return None
    name = str(row["name"])
    family, given = split_name(name)
    return Member(
        name=name,
        family_name=family,
        given_name=given,
        aga_id=int(row["aga_id"]),  # type: ignore[call-overload]
        membership_type=str(row.get("membership_type", "")),
        rating=row.get("rating"),  # type: ignore[arg-type]
        expiry=row.get("expiry"),  # type: ignore[arg-type]
        chapter=str(row.get("chapter", "")),
        state=str(row.get("state", "")),
        sigma=row.get("sigma"),  # type: ignore[arg-type]
        rating_date=row.get("rating_date"),  # type: ignore[arg-type]
    )


def read_members(gw: Gateway) -> MemberIndex:
    """The TDListA indexed; a gateway that can name its content (a file read for a
    look-up) keeps the index for the next look-up in the same list (``read_cache``)."""
    from addin.workbook import read_cache

    keys_of = getattr(gw, "content_keys", None)
    tried: list[str] = []
    for key in keys_of(TDLISTA) if keys_of is not None else ():
        kept = read_cache.load(key)
        if isinstance(kept, MemberIndex):
            if tried:  # kept again under the cheaper key, for the next look-up
                read_cache.copy(key, tried[0])
            return kept
        tried.append(key)
    data = gw.read_table(TDLISTA)
    off_scale = [
        Problem(
            TDLISTA.sheet,
            f"rating {shown(row['rating'], 40)} is not on the AGA scale (above -51 and below "
            "11, not between -1 and 1)",
            cell=row.cells.get("rating"),
            column="Rating",
        )
        for row in data.rows
        if isinstance(row.get("rating"), float) and not is_valid_rating(row["rating"])  # type: ignore[arg-type]
    ]
    if (data.problems and data.present) or off_scale:
        raise ActionError(
            f"{gw.source}: the TDListA sheet has problems", [*data.problems, *off_scale]
        )
    index = MemberIndex(m for m in map(member_from_row, data.rows) if m is not None)
    if not data.problems:
        read_cache.store(index, *tried)
    return index


def keep_index(path: Path) -> int:
    """Index the TDListA saved in ``path`` and keep it, as ``lookup`` reads and keys it: a
    new list is indexed when it arrives, not at the desk's first look-up. What is kept is
    what reading the saved file makes, under keys of its saved bytes, so a list changed
    later misses it. Run once the workbook is saved (``Session.afterwards``); anything in
    the way (another command's turn, a list with problems) leaves nothing kept and is no
    error: the next look-up indexes the list. Returns the exit code, 0."""
    from addin.workbook.calamine_reader import CalamineReader
    from addin.workbook.open_elsewhere import one_at_a_time
    from addin.workbook.saving import target_of

    try:
        with one_at_a_time(target_of(path), timeout=KEEP_WAIT):
            read_members(CalamineReader.open(path, [TDLISTA.sheet]))
    except Exception:  # the import is done and reported; keeping its index is a bonus
        pass
    return 0


KEEP_WAIT = 2.0
"""Seconds ``keep_index`` waits for another command on the workbook before it gives up."""


def previous_members(gw: Gateway, wanted: Collection[int]) -> dict[int, Member]:
    """The members ``wanted`` as the TDListA sheet holds them now, before a newer list
    replaces it (nothing is read when nobody is wanted; an unreadable row is left out)."""
    if not wanted:
        return {}
    found: dict[int, Member] = {}
    for row in gw.read_table(TDLISTA).rows:
        if row.get("aga_id") in wanted:
            member = member_from_row(row)
            if member is not None:
                found[member.aga_id] = member
    return found
