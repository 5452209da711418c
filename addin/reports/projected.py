"""Projected AGA ratings as players read them: the wall report "Projected ratings" and the
texts the phone pages share (pure: the figures come in, computed by the action from the
TDListA sheet and the rated games; ``addin.actions.ratings``).

Everywhere it is shown it is marked unofficial: it is this program's projection by the AGA's
published method, and the AGA's own rating, published after it rates the event, may differ
(docs/ratings.md says why).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from addin.core.model import PlayerId, Tournament
from addin.core.ratings import RatingError, rank_of
from addin.reports.builders import _report
from addin.reports.common import alpha_key, name_of, rank_label, standings_after
from addin.reports.model import Column, Format, Query, Report, show

UNOFFICIAL = (
    "Unofficial: projected by this program from the rated games so far, by the AGA's "
    "published rating method. The AGA's own rating, published after it rates the event, "
    "may differ."
)
"""The mark every projection carries, on the wall and on the phone."""
CHANGE_NOTE = (
    "Change: projected rating minus the rating before, in stones (1 kyu to 1 dan is one "
    "stone). Blank: no rated game yet, or no AGA rating before the event."
)


@dataclass(frozen=True)
class ProjectedRating:
    """A player's AGA rating before the event and as projected (``None``: unknown, or no
    rated game)."""

    before: float | None
    rating: float | None
    sigma: float | None

    @property
    def change(self) -> float | None:
        """Projected minus before, across the kyu/dan gap (1k to 1d is +1)."""
        if self.rating is None or self.before is None:
            return None
        return _closed(self.rating) - _closed(self.before)


def _closed(rating: float) -> float:
    """The rating with the -1..1 gap closed, unchecked: a projection may leave the scale a
    rank reads (a 9.1 who beats the field goes past 11), as the AGA's own figures may."""
    return rating - 1.0 if rating > 0 else rating + 1.0


Projections = Mapping[PlayerId, ProjectedRating]


def rating_text(value: float | None) -> str:
    """``-7.34`` as the AGA writes a rating; "" for none."""
    return "" if value is None else f"{value:.2f}"


def change_text(value: float | None) -> str:
    """``+0.32``, ``-1.05``, ``0.00``: the change in stones, signed."""
    return show(value, Format.CHANGE)


def rank_text(value: float | None) -> str:
    """``7k``: the rank a rating falls in ("" for none, or off the scale)."""
    if value is None:
        return ""
    try:
        return rank_of(value)
    except RatingError:
        return ""


def query_projection(q: Query) -> dict[PlayerId, ProjectedRating]:
    return {PlayerId(pid): ProjectedRating(*figures) for pid, *figures in q.ratings}


def ratings(t: Tournament, q: Query) -> Report:
    """The wall report: each player in the standings, the AGA rating before the event, the
    projected rating and sigma, the change; by name, or by change (biggest gain first,
    players without a change last, by name)."""
    found = query_projection(q)
    lines = standings_after(t, q.round)
    players = sorted((s.player for s in lines), key=lambda p: alpha_key(t, p))
    none = ProjectedRating(None, None, None)
    if q.sort == "change":

        def by_change(p: PlayerId) -> tuple[bool, float, tuple[str, str, PlayerId]]:
            change = found.get(p, none).change
            return (change is None, -(change or 0.0), alpha_key(t, p))

        players.sort(key=by_change)
    columns = (
        Column("name", "Name", Format.TEXT, 26),
        Column("aga_id", "AGA #", Format.INT, 7),
        Column("rank", "Rank", Format.TEXT, 4),
        Column("before", "Rating before", Format.RATING, 7),
        Column("projected", "Projected rating", Format.RATING, 8),
        Column("change", "Change", Format.CHANGE, 6),
        Column("sigma", "Projected sigma", Format.RATING, 7),
    )
    rows = []
    for p in players:
        got = found.get(p, none)
        rows.append(
            (
                name_of(t, p),
                int(p),
                rank_label(t.players.get(p)),
                got.before,
                got.rating,
                got.change,
                got.sigma,
            )
        )
    label = f"After round {q.round}, unofficial"
    return _report(t, q, "Projected ratings", label, columns, rows, notes=(UNOFFICIAL, CHANGE_NOTE))
