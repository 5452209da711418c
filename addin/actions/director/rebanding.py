"""The bands rebuilt around one player whose rating, band or status changes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from addin.actions.bands import compute_banding
from addin.actions.change import ActionError, Draft
from addin.actions.director.desk import Desk, name_of, write_players
from addin.actions.intake import rated_players
from addin.core.bands import Banding
from addin.core.model import Player, PlayerId, Status, Tournament
from addin.core.ratings import RatingError, entry_rating
from addin.workbook.bands_sheet import write_bands

MAX_NAMED = 5
"""Players named in one warning; the rest are counted."""


def _names(t: Tournament, pids: Iterable[PlayerId]) -> str:
    pids = list(pids)
    shown = ", ".join(name_of(t, p) for p in pids[:MAX_NAMED])
    return shown + (f" and {len(pids) - MAX_NAMED} more" if len(pids) > MAX_NAMED else "")


def rebuilt_banding(desk: Desk, changed: Player) -> Banding | None:
    """The bands rebuilt with ``changed`` in them; None before bands are built or for a
    dropped player (who counts in no band)."""
    if not desk.t.bands or changed.status is Status.DROPPED:
        return None
    try:
        rating = entry_rating(changed)
    except RatingError as err:
        raise ActionError(str(err)) from err
    others = [p for p in rated_players(desk.b) if p.aga_id != changed.aga_id]
    return compute_banding(desk.b, [*others, replace(changed, rating=rating)], fresh=False)


def band_updates(
    desk: Desk, changed: Player, banding: Banding | None
) -> tuple[dict[PlayerId, dict[str, object]], list[PlayerId]]:
    """Players rows to write for ``banding``, and the players other than ``changed`` whose
    initial score it moves."""
    if banding is None:
        return {}, []
    updates: dict[PlayerId, dict[str, object]] = {}
    moved: list[PlayerId] = []
    for pid, score in banding.initial_scores.items():
        updates[pid] = {
            "band": banding.band_of[pid],
            "band_override": banding.band_overrides.get(pid),
            "initial_score": score,
        }
        if pid != changed.aga_id and score != desk.t.players[pid].initial_score:
            moved.append(pid)
    return updates, moved


def moved_warning(t: Tournament, moved: list[PlayerId]) -> list[str]:
    if not moved:
        return []
    return [
        f"the new band sizes change the separations: the initial McMahon score of "
        f"{len(moved)} other player(s) changes ({_names(t, moved)})"
    ]


def write_banding(
    draft: Draft,
    desk: Desk,
    banding: Banding | None,
    updates: Mapping[PlayerId, dict[str, object]],
) -> None:
    if banding is not None:
        write_bands(draft, banding.bands, banding.counts)
    write_players(draft, desk, updates)
