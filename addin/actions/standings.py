"""Standings and the cross table, recomputed from every round on every run."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from addin.actions import director
from addin.actions.registry import action
from addin.actions.session import ActionError, Session
from addin.core.model import Round, Tournament
from addin.core.scoring import player_records
from addin.core.tiebreaks import Standing, TiebreakError, standings
from addin.reports.builders import game_cell
from addin.workbook import book
from addin.workbook.layout import cross_table, standings_table

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


def place_text(line: Standing, shared: Collection[int]) -> str:
    """ "3=" when others share the place (``shared``: places held by two or more)."""
    return f"{line.place}=" if line.place in shared else str(line.place)


@action("standings", "Update standings", "recompute McMahon scores, tiebreaks, standings")
def update_standings(session: Session, params: Mapping[str, object]) -> None:
    b = book.read_book(session.gw)
    session.require_no_problems(b.problems, "fix these problems first")
    t = b.tournament
    try:
        lines = standings(t, t.settings.tiebreaks)
    except TiebreakError as err:
        cell = b.settings.cell("tiebreaks")
        raise ActionError(f"Tournament!{cell} (Tiebreak order): {err}") from err

    log = director.log_lines(session.gw)
    changed = changed_earlier_rounds(t, last_logged_digests(log))
    session.warn(
        [
            f"results of round {n} changed after a later round was paired: "
            "every score and tiebreak after it is recomputed"
            for n in changed
        ]
        + director.edited_round_warnings(t, log)
    )

    criteria = lines[0].criteria if lines else tuple(t.settings.tiebreaks)
    numbers = {s.player: i for i, s in enumerate(lines, start=1)}
    records = player_records(t)
    rounds = t.settings.rounds
    shared = {place for place, n in Counter(s.place for s in lines).items() if n > 1}
    standing_rows = []
    cross_rows = []
    for s in lines:
        p = t.players.get(s.player)
        tiebreak_values = {
            f"tb{i}": round(v, 4) if isinstance(v, float) else v
            for i, v in enumerate(s.tiebreaks, start=1)
        }
        standing_rows.append(
            {
                "place": place_text(s, shared),
                "aga_id": s.player,
                "name": p.name if p else str(s.player),
                "rating": p.rating if p else None,
                "band": p.effective_band if p else None,
                "initial_score": (p.initial_score or 0.0) if p else None,
                "wins": s.wins,
                "mms": s.score,
                **tiebreak_values,
            }
        )
        cells = {f"r{rec.round}": str(game_cell(rec, numbers)) for rec in records[s.player]}
        cross_rows.append(
            {
                "number": numbers[s.player],
                "name": p.name if p else str(s.player),
                "rating": p.rating if p else None,
                **cells,
                "mms": s.score,
                **tiebreak_values,
            }
        )
    for table, rows in (
        (standings_table(criteria), standing_rows),
        (cross_table(rounds, criteria), cross_rows),
    ):
        session.gw.remove_sheet(table.sheet)  # wholly computed; columns follow the tiebreaks
        session.gw.write_table(table, rows)
    director.stamp_pairings(session, t.rounds, log)
    played = max((r.number for r in t.rounds), default=0)
    stamp = " ".join(f"{n}:{d}" for n, d in digests(t).items())
    session.done(
        f"Standings of {len(lines)} players after round {played}"
        + (f" (results digest {stamp})" if stamp else "")
    )
