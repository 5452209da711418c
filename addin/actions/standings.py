"""Standings and the cross table, recomputed from every round on every run."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence

from addin.actions import director, intake
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.registry import NoParams, action
from addin.actions.sections import PLAYERS, SETTLED
from addin.core.model import Player, Round, Tournament
from addin.core.ratings import rank_of
from addin.core.tiebreaks import (
    TiebreakContext,
    TiebreakError,
    resolve,
    standings,
)
from addin.workbook.layout import Section
from addin.workbook.standings_sheets import write_standings

DIGEST = re.compile(r"results digest ((?:\d+:[0-9a-f]{8} ?)+)")


def results_digest(rnd: Round) -> str:
    """Eight hex digits that change whenever any result of the round changes."""
    text = ";".join(
        f"{g.white}-{g.black}:{g.result.value if g.result else ''}"
        for g in sorted(rnd.games, key=lambda g: (g.white, g.black))
    )
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def digests(t: Tournament) -> dict[int, str]:
    return {r.number: results_digest(r) for r in t.rounds}


def last_logged_digests(log: Sequence[tuple[str, str]]) -> dict[int, str]:
    """The results digests last recorded in the Log's (level, message) lines."""
    for _, message in reversed(log):
        match = DIGEST.search(message)
        if match:
            pairs = (p.split(":") for p in match.group(1).split())
            return {int(n): d for n, d in pairs}
    return {}


def changed_earlier_rounds(t: Tournament, before: Mapping[int, str]) -> list[int]:
    """Rounds, other than the last, whose results changed since the last standings."""
    if not t.rounds:
        return []
    last = max(r.number for r in t.rounds)
    now = digests(t)
    return [n for n, d in sorted(now.items()) if n < last and n in before and before[n] != d]


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
    changed = changed_earlier_rounds(t, last_logged_digests(log))
    draft.warn(
        [
            f"results of round {n} changed after a later round was paired: "
            "every score and tiebreak after it is recomputed"
            for n in changed
        ]
        + director.edited_round_warnings(t, log)
    )

    extras = extra_columns(t, [s.player for s in lines], ctx)
    write_standings(draft, t, lines, extras, ctx.records, rank_label)
    director.stamp_pairings(draft, t.rounds, log)
    played = max((r.number for r in t.rounds), default=0)
    stamp = " ".join(f"{n}:{d}" for n, d in digests(t).items())
    draft.done(
        f"Standings of {len(lines)} players after round {played}"
        + (f" (results digest {stamp})" if stamp else "")
    )
    return draft.change
