"""The TDListA sheet: the AGA member list, read as members and written from them.

Registration and typed rows are checked against it; ``lookup`` reads it alone
(``MEMBER_SHEETS``), at the registration desk's pace.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import date

from addin.core.limits import shown
from addin.core.lookup import MemberIndex
from addin.core.member import Member, split_name
from addin.core.ratings import is_valid_rating
from addin.workbook.gateway import Problem, Row, Tables, TableSource, day, numeric, text, whole
from addin.workbook.layout import TDLISTA

MEMBER_SHEETS = (TDLISTA.sheet,)
"""The sheets a look-up in the member list reads (and nothing else)."""


def _member_values(m: Member) -> dict[str, object]:
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


def write_members(tables: Tables, members: Iterable[Member]) -> None:
    """Replace the TDListA sheet's rows with ``members``."""
    tables.write_table(TDLISTA, [_member_values(m) for m in members])


def _member_from_row(row: Row) -> Member | None:
    v = row.values  # read through the functions themselves: 22,410 rows a cold look-up
    aga_id = whole(v, "aga_id")
    if aga_id is None or v.get("name") is None:
        return None
    name = text(v, "name")
    family, given = split_name(name)
    return Member(
        name=name,
        family_name=family,
        given_name=given,
        aga_id=aga_id,
        membership_type=text(v, "membership_type"),
        rating=numeric(v, "rating"),
        expiry=day(v, "expiry"),
        chapter=text(v, "chapter"),
        state=text(v, "state"),
        sigma=numeric(v, "sigma"),
        rating_date=day(v, "rating_date"),
    )


def read_member_index(tables: TableSource) -> tuple[MemberIndex, list[Problem]]:
    """The TDListA indexed, or the problems that stop it being used (an empty index then).

    A gateway that can name its content (a file read for a look-up) keeps the index for
    the next look-up in the same list (``read_cache``)."""
    from addin.workbook import read_cache

    return read_cache.indexed(tables, TDLISTA, MemberIndex, lambda: _indexed(tables))


def _indexed(tables: TableSource) -> tuple[MemberIndex, list[Problem], bool]:
    data = tables.read_table(TDLISTA)
    off_scale = [
        Problem(
            TDLISTA.sheet,
            f"rating {shown(row['rating'], 40)} is not on the AGA scale (above -51 and below "
            "11, not between -1 and 1)",
            cell=row.cells.get("rating"),
            column=TDLISTA.column("rating").header,
        )
        for row in data.rows
        if (rating := row.numeric("rating")) is not None and not is_valid_rating(rating)
    ]
    if (data.problems and data.present) or off_scale:
        return MemberIndex(()), [*data.problems, *off_scale], False
    index = MemberIndex(m for m in map(_member_from_row, data.rows) if m is not None)
    return index, [], bool(data.rows) and not data.problems  # an empty list costs nothing


def previous_members(tables: TableSource, wanted: Collection[int]) -> dict[int, Member]:
    """The members ``wanted`` as the TDListA sheet holds them now, before a newer list
    replaces it (nothing is read when nobody is wanted; an unreadable row is left out)."""
    if not wanted:
        return {}
    found: dict[int, Member] = {}
    for row in tables.read_table(TDLISTA).rows:
        if row.get("aga_id") in wanted:
            member = _member_from_row(row)
            if member is not None:
                found[member.aga_id] = member
    return found


MAX_SIGMA = 10.0
"""The largest sigma the rating projection accepts (the AGA's method never gives one above 6)."""


@dataclass(frozen=True)
class ListedRating:
    """A member's TDListA rating, sigma and rating date, as the rating projection reads them."""

    rating: float | None
    sigma: float | None
    rated_on: date | None
    where_sigma: str
    """The sigma cell, for a warning when it is blank (``TDListA!H7 (Sigma)``)."""


def listed_ratings(
    tables: TableSource, wanted: Collection[int]
) -> tuple[dict[int, ListedRating], list[Problem]]:
    """The TDListA rating, sigma and date of each of the ``wanted`` members listed, or the
    problems of their cells: a rating or sigma that is not a number (text, an error value),
    a rating off the AGA scale, a sigma of 0 or less or above ``MAX_SIGMA``."""
    data = tables.read_table(TDLISTA)
    found: dict[int, ListedRating] = {}
    problems: list[Problem] = []
    for row in data.rows:
        aga_id = row.get("aga_id")
        if not isinstance(aga_id, int) or aga_id not in wanted:
            continue
        for key, expected in (
            ("rating", "a rating"),
            ("sigma", "a sigma"),
            ("rating_date", "a date"),
        ):
            if key in row.unread:
                problems.append(
                    data.problem(row, key, f"{shown(row.unread[key], 40)} is not {expected}")
                )
        rating = row.numeric("rating")
        sigma = row.numeric("sigma")
        if rating is not None and not is_valid_rating(rating):
            problems.append(
                data.problem(
                    row,
                    "rating",
                    f"rating {shown(rating, 40)} is not on the AGA scale (above -51 and below "
                    "11, not between -1 and 1)",
                )
            )
        if sigma is not None and not 0 < sigma <= MAX_SIGMA:
            problems.append(
                data.problem(
                    row,
                    "sigma",
                    f"sigma {shown(sigma, 40)} is not above 0 and at most {MAX_SIGMA:g}",
                )
            )
        where = row.where(TDLISTA, "sigma")
        found[aga_id] = ListedRating(
            rating, sigma, row.day("rating_date"), f"{where.sheet}!{where.cell} ({where.column})"
        )
    return found, problems
