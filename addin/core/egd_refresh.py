"""What a newer EGD list changes in a registered player's EGD data, as a newer TDListA does
for an AGA member (``addin.core.member_refresh``, whose rules these are).

The list gives the GoR, the grade, the club (the Players chapter) and the country. The entry
rating follows GoR and grade (``addin.core.egd.entry_rating``, on the event's McMahon scale)
only while the player entered at what the old list gave: an entry rating the TD chose is
kept, and the change says so. A club or country typed at the desk over the old list's stays.
"""

from __future__ import annotations

from collections.abc import Mapping

from addin.core.egd import EgdPlayer, entry_rating
from addin.core.european import GradeScale
from addin.core.member_refresh import Memory, Refresh, followed, listed_changes

LISTED = (
    ("gor", "gor"),
    ("chapter", "club"),
    ("country", "country"),
)
"""Players column -> the EgdPlayer attribute it comes from."""

EGD_MEMORY = Memory("EGD data", "EGD PIN", {key: attr for key, attr in LISTED if key != "gor"})
"""What an import that leaves the differences waiting remembers of the older list."""

TOLERANCE = 1e-9


def refresh(
    pid: int,
    values: Mapping[str, object],
    player: EgdPlayer,
    previous: EgdPlayer | None,
    scale: GradeScale,
) -> Refresh:
    """The changes ``player`` (the newer list's line) makes to the Players row ``values`` of
    player ``pid``; ``previous``: the same PIN in the list the workbook held until now."""
    changes, kept = listed_changes(values, player, previous, LISTED, "gor")
    new_rating = entry_rating(player.gor, player.grade, scale)
    old_gor = values.get("gor")
    before = entry_rating(
        old_gor if isinstance(old_gor, int) else None,
        previous.grade if previous is not None else str(values.get("rank") or ""),
        scale,
    )
    if new_rating is None or _near(before, new_rating):
        return Refresh(pid, tuple(changes), None, tuple(kept))
    rating = values.get("rating")
    if rating is None or _near(rating, before):
        changes = followed(values, new_rating, changes)
        return Refresh(pid, tuple(changes), None, tuple(kept))
    kept_rating = float(rating) if isinstance(rating, int | float) else None
    return Refresh(pid, tuple(changes), kept_rating, tuple(kept))


def _near(a: object, b: object) -> bool:
    return isinstance(a, int | float) and isinstance(b, int | float) and abs(a - b) < TOLERANCE
