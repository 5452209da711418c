"""Standings and the cross table, recomputed from every round on every run."""

from __future__ import annotations

from collections.abc import Sequence

from addin.actions import director, intake
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.ratings import standings_projection
from addin.actions.registry import NoParams, action
from addin.actions.sections import PLAYERS, SETTLED
from addin.core import consistency
from addin.core.model import Player, Tournament
from addin.core.participants import no_show_text
from addin.core.ratings import rank_of
from addin.core.tiebreaks import (
    TiebreakContext,
    TiebreakError,
    resolve,
    standings,
)
from addin.workbook.layout import Section
from addin.workbook.standings_sheets import write_standings


def rank_label(p: Player | None) -> str | None:
    """The rank a printout shows (3k, 2d), not the raw rating (-3.47)."""
    if p is None:
        return None
    if p.rating is not None:
        return rank_of(p.rating)
    return p.rank or None


def extra_columns(
    t: Tournament, players: Sequence[int], ctx: TiebreakContext | None = None
) -> dict[str, dict[int, float | None]]:
    """The TD's extra columns ("(CUSP)" in the Tiebreak order), labelled as breaking no tie."""
    ctx = ctx if ctx is not None else TiebreakContext(t)
    return {
        f"{resolve(name).name} (not a tiebreak)": dict(resolve(name).compute(ctx, list(players)))
        for name in t.settings.extra_columns
    }


@action(
    "standings",
    "Update standings",
    "recompute McMahon scores, tiebreaks, standings",
    reads=SETTLED,
    writes=PLAYERS | {Section.STANDINGS},
)
def update_standings(snapshot: Snapshot, _params: NoParams) -> Change:
    draft = Draft(snapshot)
    b = intake.settled_book(draft, intake.standings())
    t = b.tournament
    ctx = TiebreakContext(t)  # read once: the standings, the extra columns, the cross table
    try:
        lines = standings(t, t.settings.tiebreaks, context=ctx)
    except TiebreakError as err:
        cell = b.settings.cell("tiebreaks")
        raise ActionError(f"Tournament!{cell} (Tiebreak order): {err}") from err

    log = director.log_lines(draft)
    draft.warn(
        consistency.results_changed_warnings(t, log) + director.edited_round_warnings(t, log)
    )

    extras = extra_columns(t, [s.player for s in lines], ctx)
    projection = None
    if t.settings.projected_ratings:
        projection, why = standings_projection(draft, b)
        if projection is None:
            draft.say(f"Projected ratings left out of the standings: {why}")
    write_standings(draft, t, lines, extras, ctx.records, rank_label, projection)
    director.stamp_pairings(draft, t.rounds, log)
    played = max((r.number for r in t.rounds), default=0)
    stamp = " ".join(f"{n}:{d}" for n, d in consistency.results_digests(t).items())
    draft.done(
        f"Standings of {len(lines)} players after round {played}"
        + (f" (results digest {stamp})" if stamp else "")
    )
    if apart := no_show_text(t):
        draft.done(apart)
    return draft.change
