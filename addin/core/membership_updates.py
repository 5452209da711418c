"""What the desk changed in a member's TDListA data: news for the AGA's membership records.

The TDListA holds each member's chapter, state and membership type. When the Players row
of a listed member says otherwise (the member moved, joined another club, renewed as
another type), the AGA report lists the member under MEMBERSHIP UPDATES with the new
values. A blank cell is no change: the desk leaves cells empty far more often than a
member leaves a club. Case and spacing do not count (``nygc`` is ``NYGC``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from addin.core.limits import MAX_SHOWN, shown
from addin.core.model import Player, PlayerId

LISTED_FIELDS: tuple[tuple[str, str], ...] = (
    ("chapter", "Club"),
    ("state", "State"),
    ("membership_type", "Membership Type"),
)
"""(Player attribute, the report's name for it) of the TDListA data the desk can change."""


@dataclass(frozen=True)
class Listed:
    """A member's data as the TDListA gives it."""

    chapter: str = ""
    state: str = ""
    membership_type: str = ""


@dataclass(frozen=True)
class Change:
    field: str
    """The report's name for it: Club, State, Membership Type."""
    listed: str
    now: str

    def __str__(self) -> str:
        return f"{self.field} {self.listed or '(blank)'} -> {_named(self.now)}"


def _named(value: str) -> str:
    """A typed value as a message shows it: plain when it is a plain short word."""
    return value if value.isprintable() and len(value) <= MAX_SHOWN else shown(value)


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def changes(player: Player, listed: Listed) -> tuple[Change, ...]:
    """The TDListA fields the Players row changes for this member (blank: unchanged)."""
    found = []
    for attribute, name in LISTED_FIELDS:
        now, before = getattr(player, attribute).strip(), getattr(listed, attribute).strip()
        if now and not _same(now, before):
            found.append(Change(name, before, now))
    return tuple(found)


def updates(
    players: Mapping[PlayerId, Player], listed: Mapping[PlayerId, Listed]
) -> dict[PlayerId, tuple[Change, ...]]:
    """Every listed member the desk changed, with what changed."""
    found = {}
    for pid, player in players.items():
        member = listed.get(pid)
        if member is not None and (what := changes(player, member)):
            found[pid] = what
    return found
