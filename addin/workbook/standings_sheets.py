"""The Standings and Cross Table sheets, written wholly from the computed standings.

Both are recomputed on every run and their tiebreak columns follow the Tiebreak order, so
each sheet is removed and written afresh (the TD's own columns there are not kept).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from addin.core.model import Player, PlayerId, Tournament
from addin.core.scoring import RoundRecord
from addin.core.tiebreaks import Standing
from addin.reports.builders import game_cell
from addin.reports.projected import ProjectedRating
from addin.workbook.gateway import Tables
from addin.workbook.layout import cross_table, standings_table


def _projected(p: ProjectedRating | None) -> dict[str, float | None]:
    if p is None:
        return {}
    change = None if p.change is None else round(p.change, 4)
    return {
        "rating_before": p.before,
        "projected_rating": None if p.rating is None else round(p.rating, 4),
        "projected_sigma": None if p.sigma is None else round(p.sigma, 4),
        "rating_change": change,
    }


def write_standings(
    tables: Tables,
    t: Tournament,
    lines: Sequence[Standing],
    extras: Mapping[str, Mapping[PlayerId, float | None]],
    records: Mapping[PlayerId, Sequence[RoundRecord]],
    rank: Callable[[Player | None], str | None],
    projection: Mapping[PlayerId, ProjectedRating] | None = None,
) -> None:
    """``lines`` (the standings, best first) with the TD's ``extras`` columns after their
    tiebreaks; ``records``: each player's rounds, for the cross table; ``rank``: the rank
    a printout shows; ``projection``: each player's projected AGA rating, for the Standings
    sheet's unofficial columns (``None``: the setting is off, no such columns)."""
    criteria = lines[0].criteria if lines else tuple(t.settings.tiebreaks)
    criteria = (*criteria, *extras)
    numbers = {s.player: i for i, s in enumerate(lines, start=1)}
    standing_rows = []
    cross_rows = []
    for s in lines:
        p = t.players.get(s.player)
        values = (*s.tiebreaks, *(column[s.player] for column in extras.values()))
        tiebreak_values = {
            f"tb{i}": round(v, 4) if isinstance(v, float) else v
            for i, v in enumerate(values, start=1)
        }
        standing_rows.append(
            {
                "place": s.place,
                "aga_id": s.player,
                "name": p.name if p else str(s.player),
                "rank": rank(p),
                "band": p.effective_band if p else None,
                "initial_score": (p.initial_score or 0.0) if p else None,
                "wins": s.wins,
                "mms": s.score,
                **tiebreak_values,
                **(_projected(projection.get(s.player)) if projection is not None else {}),
            }
        )
        cells = {f"r{rec.round}": str(game_cell(rec, numbers)) for rec in records[s.player]}
        cross_rows.append(
            {
                "number": numbers[s.player],
                "name": p.name if p else str(s.player),
                "rank": rank(p),
                **cells,
                "mms": s.score,
                **tiebreak_values,
            }
        )
    for table, rows in (
        (standings_table(criteria, projected=projection is not None), standing_rows),
        (cross_table(t.settings.rounds, criteria), cross_rows),
    ):
        tables.remove_sheet(table.sheet)  # wholly computed; columns follow the tiebreaks
        tables.write_table(table, rows)
