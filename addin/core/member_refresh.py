"""What a newer TDListA changes in a registered player's AGA data.

The list gives the published rating, membership type and expiry, chapter and state. The
entry rating follows the published one only while the player entered at it: an entry rating
the TD chose (``set-rating``, a rank typed or requested that differs from the list) is kept,
and the change says so. A value typed at the desk over the old list's (a chapter, a state)
stays too, and is listed as kept. A blank in the new list never erases what the Players sheet
holds.

After round 1 an import lists the differences and makes none of them until the TD asks; the
new list replaces the old one in the TDListA sheet all the same, so the next import could no
longer tell the old list's chapter from one typed at the desk. The import therefore logs each
difference it left waiting with the old list's value (:func:`waiting`), and the next import
takes the old list's values from those lines (:func:`listed_before`): a difference listed
once is made when the TD asks, not kept silently as if someone had typed it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING, TypeVar

from addin.core.member import Member
from addin.core.ratings import RatingError, parse_rating, rank_of

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


@dataclass(frozen=True)
class Change:
    key: str
    """The Players column key."""
    old: object
    new: object


@dataclass(frozen=True)
class Refresh:
    aga_id: int
    changes: tuple[Change, ...]
    kept_rating: float | None = None
    """An entry rating the TD set, kept although the published rating moved."""
    kept: tuple[Change, ...] = ()
    """Values typed at the desk over the old list's, kept although the new list differs
    (``old``: the value kept; ``new``: the new list's)."""

    def values(self) -> dict[str, object]:
        return {c.key: c.new for c in self.changes}


LISTED = (
    ("aga_rating", "rating"),
    ("membership_type", "membership_type"),
    ("membership_expiry", "expiry"),
    ("chapter", "chapter"),
    ("state", "state"),
)
"""Players column -> the Member attribute it comes from."""


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _same(a: object, b: object) -> bool:
    if _blank(a) and _blank(b):
        return True
    if isinstance(a, str) or isinstance(b, str):
        return str(a).strip() == str(b).strip()
    return a == b


def entered_at_published(values: Mapping[str, object]) -> bool:
    """Whether the entry rating is the published one the row recorded (not the TD's choice)."""
    rating, published = values.get("rating"), values.get("aga_rating")
    return rating is None or (published is not None and rating == published)


def _rank_follows(rank: object, old_rating: object) -> bool:
    """A rank cell that only shows the published rank (as ``register`` writes it)."""
    if _blank(rank):
        return True
    if not isinstance(old_rating, int | float):
        return False
    try:
        return rank_of(parse_rating(str(rank))) == rank_of(float(old_rating))
    except (RatingError, ValueError):
        return False


def listed_changes(
    values: Mapping[str, object],
    listed_now: object,
    listed_before: object | None,
    fields: Sequence[tuple[str, str]],
    published: str,
) -> tuple[list[Change], list[Change]]:
    """What a newer list's line (``listed_now``) changes in a Players row's ``values`` for
    ``fields`` (Players column, list attribute), and the desk's values it keeps.

    ``listed_before`` is the same line in the list the workbook held until now: a value that
    differs from it was typed at the desk and stays; only what the row holds as the old list
    gave it follows the new list. The ``published`` rating always follows the list."""
    changes: list[Change] = []
    kept: list[Change] = []
    for key, attr in fields:
        old, new = values.get(key), getattr(listed_now, attr)
        if _blank(new) or _same(old, new):
            continue
        listed = getattr(listed_before, attr) if listed_before is not None else None
        if key != published and listed_before is not None and not _same(old, listed):
            if not _same(new, listed):  # the list changed it too: say whose value stays
                kept.append(Change(key, old, new))
            continue
        changes.append(Change(key, old, new))
    return changes, kept


def followed(
    values: Mapping[str, object], new_rating: float, changes: list[Change]
) -> list[Change]:
    """The entry rating (and the rank that only shows it) following the list to
    ``new_rating``, first in ``changes``."""
    old_rating = values.get("rating")
    if old_rating == new_rating:
        return changes
    moved = [Change("rating", old_rating, new_rating)]
    rank = values.get("rank")
    if _rank_follows(rank, old_rating) and rank != rank_of(new_rating):
        moved.append(Change("rank", rank, rank_of(new_rating)))
    return moved + changes


def refresh(
    values: Mapping[str, object], member: Member, previous: Member | None = None
) -> Refresh:
    """The changes ``member`` (the newer list's line) makes to a Players row's ``values``.

    ``previous`` is the same member in the list the workbook held until now: a value that
    differs from it was typed at the desk (a chapter, a state) and stays; only what the row
    holds as the old list gave it follows the new list."""
    changes, kept = listed_changes(values, member, previous, LISTED, "aga_rating")
    kept_rating = None
    new_rating = member.rating
    if new_rating is not None and not _same(values.get("aga_rating"), new_rating):
        if entered_at_published(values):
            changes = followed(values, new_rating, changes)
        elif isinstance(old_rating := values.get("rating"), int | float):  # the TD's choice
            kept_rating = float(old_rating)
    return Refresh(member.aga_id, tuple(changes), kept_rating, tuple(kept))


WAITING = "waiting for --update-players"
"""How a logged difference that the import did not make ends."""

BLANK = "blank"
"""How a difference shows an empty value."""


@dataclass(frozen=True)
class Memory:
    """What a list's import remembers of the differences it left waiting, and how its Log
    lines say them."""

    data: str
    """The data the list gives, as the import's lines say it: "AGA data"."""
    key: str
    """How a line names the list's key: "AGA #" (``Name (AGA # 123): ...``)."""
    fields: Mapping[str, str]
    """Players column -> the list line's attribute a waiting line remembers (the published
    rating needs no memory: its own column keeps the old list's)."""

    def differences(self, message: str) -> bool:
        """The import's line that starts a list of waiting differences."""
        return (
            re.match(
                rf"^\d+ registered player\(s\) have different {re.escape(self.data)} ", message
            )
            is not None
        )

    def updated(self, message: str) -> bool:
        """The import's line that says the differences were made."""
        updated = rf"^Updated the {re.escape(self.data)} of \d+ registered player"
        return re.match(updated, message) is not None


AGA_MEMORY = Memory("AGA data", "AGA #", {key: attr for key, attr in LISTED if key != "aga_rating"})


def waiting(line: str) -> str:
    """A difference line as the import logs it when it leaves the difference waiting."""
    return f"{line} ({WAITING})"


def listed_before(
    messages: Iterable[str], headers: Mapping[str, str], memory: Memory = AGA_MEMORY
) -> dict[int, dict[str, object]]:
    """The list's key (AGA #, EGD PIN) -> Players column key -> the value the older list
    gave, for each difference the last import left waiting (``headers``: the Players
    headers by key). An import that made the differences forgets them; a later one that left
    them waiting lists them anew."""
    keys = {headers[key]: key for key in memory.fields if key in headers}
    names = "|".join(re.escape(h) for h in sorted(keys, key=len, reverse=True))
    line = re.compile(
        rf"^\s*.* \({re.escape(memory.key)} (\d+)\): ({names}) (.*?) -> .* "
        rf"\({re.escape(WAITING)}\)$"
    )
    remembered: dict[int, dict[str, object]] = {}
    for message in messages:
        if memory.differences(message) or memory.updated(message):
            remembered = {}
        elif (found := line.match(message)) is not None:
            key = keys[found.group(2)]
            remembered.setdefault(int(found.group(1)), {})[key] = _value(key, found.group(3))
    return remembered


DATES = frozenset({"membership_expiry"})
"""The remembered columns that hold a date (or none)."""


def _value(key: str, text: str) -> object:
    if text == BLANK:
        return None
    if key in DATES:
        try:
            return date.fromisoformat(text)
        except ValueError:
            return None  # no date: never the row's, so the row's is taken as typed at the desk
    return text


Listed = TypeVar("Listed", bound="DataclassInstance")


def as_listed_before(
    listed: Listed, values: Mapping[str, object], memory: Memory = AGA_MEMORY
) -> Listed:
    """``listed`` (the list line the workbook held: a ``Member``, an ``EgdPlayer``) with the
    older list's ``values`` (Players column key -> value) that a waiting difference
    remembered."""
    changed = {
        memory.fields[key]: value if key in DATES else "" if value is None else str(value)
        for key, value in values.items()
    }
    return replace(listed, **changed)
