"""Projected AGA ratings: what the event's rated games will do to each player's rating.

Unofficial: computed here by the AGA's published method (``addin.core.rating_projection``)
from the TDListA sheet's ratings, sigmas and rating dates; the AGA's own run may differ (see
docs/ratings.md).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from addin.actions import intake
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.registry import action, param
from addin.actions.sections import SETTLED
from addin.core.limits import MAX_ROUNDS
from addin.core.model import Player, PlayerId, Tournament
from addin.core.rating_projection import (
    Entrant,
    Projection,
    ProjectionError,
    RatedGame,
    project,
    rated_game,
    seed_of_rank,
)
from addin.core.ratings import RatingError, entry_rating
from addin.reports.projected import ProjectedRating
from addin.workbook import book, players_sheet
from addin.workbook.gateway import TableSource
from addin.workbook.member_sheet import ListedRating, listed_ratings

HEADER = ("AGA #", "Name", "Rating", "Sigma", "Projected rating", "Projected sigma")
"""The CSV's header, exactly."""


@dataclass(frozen=True, kw_only=True)
class RatingsParams:
    out: Path | None = param("the CSV to write (.csv); without it the table is printed")


def event_date(t: Tournament) -> date:
    """The day the ratings are projected to: the event's last day, else its first, else
    today (the sigma of a rating grows with the days since it was rated)."""
    return t.settings.end_date or t.settings.start_date or date.today()


def rated_games(t: Tournament) -> list[RatedGame]:
    """The games the AGA rates, every round so far; a player in two games of one round, or
    in more rated games than an event has rounds, is an error."""
    games: list[RatedGame] = []
    played: Counter[PlayerId] = Counter()
    for rnd in t.rounds:
        seen: set[PlayerId] = set()
        for g in rnd.games:
            for p in g.players:
                if p in seen:
                    raise ActionError(
                        f"round {rnd.number}: player {p} plays two games; a player plays at "
                        "most one game a round"
                    )
                seen.add(p)
            rated = rated_game(g, t.settings.rules)
            if rated is not None:
                games.append(rated)
                played.update(g.players)
    for p, count in played.items():
        if count > MAX_ROUNDS:
            raise ActionError(
                f"player {p} has {count} rated games; an event rates at most {MAX_ROUNDS} a "
                "player (one a round)"
            )
    return games


def entrant_of(b: book.Book, p: Player, listed: ListedRating | None) -> Entrant:
    try:
        seed = seed_of_rank(entry_rating(p))
    except (RatingError, ProjectionError) as err:
        problem = players_sheet.rating_problem(b, p.aga_id, f"{p.name}: {err}")
        raise ActionError(str(problem) if problem else f"{p.name}: {err}") from err
    if listed is None:  # not in the TDListA: a new member, rated from the rank alone
        return Entrant(p.aga_id, seed, p.aga_rating, None, None)
    return Entrant(p.aga_id, seed, listed.rating, listed.sigma, listed.rated_on)


def csv_text(
    t: Tournament, listed: dict[PlayerId, ListedRating], found: dict[PlayerId, Projection]
) -> str:
    """Every player, by name: the TDListA rating and sigma before, the projection after
    (blank for a player without a rated game)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for p in sorted(t.players.values(), key=lambda p: (p.name.casefold(), p.aga_id)):
        got = found.get(p.aga_id)
        member = listed.get(p.aga_id)
        writer.writerow(
            [
                p.aga_id,
                p.name,
                _number(member.rating if member else p.aga_rating),
                _number(member.sigma if member else None),
                _number(got.rating if got else None),
                _number(got.sigma if got else None),
            ]
        )
    return out.getvalue()


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.5f}"


@dataclass(frozen=True)
class Inputs:
    """What the projection reads from a workbook."""

    tournament: Tournament
    entrants: list[Entrant]
    games: list[RatedGame]
    listed: dict[PlayerId, ListedRating]
    warnings: list[str]


def read_inputs(tables: TableSource, b: book.Book) -> Inputs:
    """The players of ``b``, their TDListA ratings (from ``tables``) and the rated games;
    bad cells stop it."""
    warnings: list[str] = []
    t = b.tournament
    games = rated_games(t)
    playing = {p for g in games for p in (g.white, g.black)}
    listed, problems = listed_ratings(tables, t.players)
    if problems:
        raise ActionError(f"{problems[0]}", problems)
    entrants = [entrant_of(b, t.players[p], listed.get(p)) for p in sorted(playing)]
    for e in entrants:
        where = listed.get(e.player)
        if where is not None and e.sigma is None:
            warnings.append(
                f"{where.where_sigma}: {t.players[e.player].name} has no sigma; seeded as "
                "a new member from the rank entered"
            )
    return Inputs(t, entrants, games, listed, warnings)


def standings_projection(
    tables: TableSource, b: book.Book
) -> tuple[dict[PlayerId, ProjectedRating] | None, str]:
    """Every player's rating before and projected, for the Standings sheet; or ``None`` and
    why it cannot be projected (a bad TDListA cell: the standings go on without it)."""
    t = b.tournament
    try:
        got = read_inputs(tables, b)
        found = project(got.entrants, got.games, event_date(t))
    except (ActionError, ProjectionError) as err:
        return None, str(err).splitlines()[0]
    columns = {}
    for pid, p in t.players.items():
        member = got.listed.get(pid)
        projected = found.get(pid)
        columns[pid] = ProjectedRating(
            member.rating if member else p.aga_rating,
            projected.rating if projected else None,
            projected.sigma if projected else None,
        )
    return columns, ""


def projection_after(
    tables: TableSource, b: book.Book, number: int
) -> tuple[dict[PlayerId, ProjectedRating] | None, str]:
    """:func:`standings_projection` from the rated games of rounds 1 to ``number`` only (a
    report or a page about an earlier round projects what that round left)."""
    rounds = [r for r in b.tournament.rounds if r.number <= number]
    return standings_projection(tables, replace(b, tournament=replace(b.tournament, rounds=rounds)))


@action(
    "ratings",
    "Projected ratings",
    "project each player's AGA rating after the rated games so far, by the AGA's published "
    "method (unofficial), to a CSV",
    RatingsParams,
    reads=SETTLED,
)
def ratings(snapshot: Snapshot, params: RatingsParams) -> Change:
    draft = Draft(snapshot)
    b = book.read_book(draft)
    warnings = intake.screen(draft, b, intake.standings())
    got = read_inputs(draft, b)
    t, games = got.tournament, got.games
    draft.warn([*warnings, *got.warnings])
    try:
        found = project(got.entrants, games, event_date(t))
    except ProjectionError as err:
        raise ActionError(str(err)) from err
    text = csv_text(t, got.listed, found)
    if params.out is not None:
        draft.output(params.out, text.encode("utf-8"))
    else:
        for line in text.splitlines():
            draft.say(line)
    draft.done(
        f"Projected ratings (unofficial) of {len(found)} players from {len(games)} rated games"
        + (f" to {params.out}" if params.out else "")
    )
    return draft.change
