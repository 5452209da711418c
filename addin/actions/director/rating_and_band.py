"""A player's entry rating and McMahon band: ``set-rating``, ``set-band``."""

from __future__ import annotations

from dataclasses import dataclass, replace

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director.desk import (
    Desk,
    check_warnings,
    find_player,
    finish,
    name_of,
    open_desk,
)
from addin.actions.director.rebanding import (
    band_updates,
    moved_warning,
    rebuilt_banding,
    write_banding,
)
from addin.actions.registry import action, param
from addin.actions.sections import ROUNDS, SETTLED
from addin.core.bands import Banding
from addin.core.model import Player, Status
from addin.core.ratings import RatingError, parse_rating
from addin.core.scoring import mcmahon_scores
from addin.workbook.layout import Section


@dataclass(frozen=True, kw_only=True)
class SetRatingParams:
    player: int = param("the player's AGA #", required=True)
    rating: str = param(
        "the new entry rating: a rating (-3.5, 4.2) or a rank (3k, 4d)", required=True
    )


@action(
    "set-rating",
    "Revise a rating",
    "revise a player's entry rating; band, initial score and McMahon score follow",
    SetRatingParams,
    reads=SETTLED,
    writes=ROUNDS | {Section.BANDS},
)
def set_rating(snapshot: Snapshot, params: SetRatingParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    player = find_player(desk.t, params.player)
    try:
        rating = parse_rating(str(params.rating))
    except RatingError as err:
        raise ActionError(f"--rating: {err}") from err
    if rating == player.rating:
        raise ActionError(f"{name_of(desk.t, player.aga_id)} is already rated {rating:g}")
    what = f"entry rating {_score(player.rating)} -> {rating:g}"
    _rebanded(draft, desk, replace(player, rating=rating), what)
    return draft.change


@dataclass(frozen=True, kw_only=True)
class SetBandParams:
    player: int = param("the player's AGA #", required=True)
    band: int = param("band number (1 = top)", required=True)


@action(
    "set-band",
    "Move to a band",
    "place a player in another McMahon band (a band override); initial and McMahon scores follow",
    SetBandParams,
    reads=SETTLED,
    writes=ROUNDS | {Section.BANDS},
)
def set_band(snapshot: Snapshot, params: SetBandParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    player = find_player(t, params.player)
    band = params.band
    numbers = sorted(b.number for b in t.bands)
    if not numbers:
        raise ActionError("there are no bands yet: build them first (bands)")
    if band not in numbers:
        raise ActionError(f"there is no band {band} (bands: {', '.join(map(str, numbers))})")
    if player.band_override == band:
        raise ActionError(f"{name_of(t, player.aga_id)} is already in band {band}")
    what = f"band override {_score(player.band_override)} -> {band}"
    _rebanded(draft, desk, replace(player, band_override=band), what)
    return draft.change


def _rebanded(draft: Draft, desk: Desk, changed: Player, what: str) -> None:
    """Write ``changed`` with the band and initial score the bands give it, and anyone else
    whose initial score the new band sizes move (the TD is warned about those)."""
    t = desk.t
    banding = rebuilt_banding(desk, changed)
    updates, moved = band_updates(desk, changed, banding)
    own = {"rating": changed.rating, "band_override": changed.band_override}
    updates[changed.aga_id] = {**own, **updates.get(changed.aga_id, {})}
    draft.warn(moved_warning(t, moved) + check_warnings(desk))
    write_banding(draft, desk, banding, updates)
    finish(draft, desk, t, _rebanded_message(desk, changed, what, banding))


def _rebanded_message(desk: Desk, changed: Player, what: str, banding: Banding | None) -> str:
    t = desk.t
    pid = changed.aga_id
    old = t.players[pid]
    if banding is None:
        why = "dropped" if changed.status is Status.DROPPED else "no bands yet: run bands"
        return f"{name_of(t, pid)}: {what} ({why}; initial score unchanged)"
    score = banding.initial_scores[pid]
    after = replace(t, players={**t.players, pid: replace(changed, initial_score=score)})
    return (
        f"{name_of(t, pid)}: {what}; band {old.effective_band} -> {banding.effective_band(pid)}, "
        f"initial score {_score(old.initial_score)} -> {score:g}, McMahon score "
        f"{mcmahon_scores(t)[pid]:g} -> {mcmahon_scores(after)[pid]:g}"
    )


def _score(value: float | None) -> str:
    return "blank" if value is None else f"{value:g}"
