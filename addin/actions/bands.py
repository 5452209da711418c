"""Bands and initial McMahon scores, proposed by the program and edited by the TD."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from addin.actions.registry import Param, ParamKind, action
from addin.actions.session import ActionError, Session
from addin.core.bands import BandError, Banding, BarStyle, build_bands, rebuild_bands, suggest_bar
from addin.core.handicap import scheme_text
from addin.core.model import Band, Player, Status
from addin.core.ratings import RatingError, parse_rating
from addin.workbook import book
from addin.workbook.gateway import Problem
from addin.workbook.layout import BANDS, players_table


def rated_players(b: book.Book) -> list[Player]:
    """Active players with an entry rating (from the rank when the TD typed only a rank)."""
    players: list[Player] = []
    problems: list[Problem] = []
    rows = {r.get("aga_id"): r for r in b.players_data.rows}
    for p in b.tournament.players.values():
        if p.status is Status.DROPPED:
            continue
        rating = p.rating
        if rating is None and p.rank:
            try:
                rating = parse_rating(p.rank)
            except RatingError:
                rating = None
        if rating is None:
            problems.append(
                b.players_data.problem(
                    rows[p.aga_id], "rating", f"{p.name} has no entry rating and no rank"
                )
            )
            continue
        players.append(replace(p, rating=rating))
    if problems:
        raise ActionError(f"{b.settings.data.table.sheet}: every player needs a rating", problems)
    return players


def band_error_problem(b: book.Book, err: BandError) -> Problem:
    """Pin a BandError to the cell the TD must change."""
    if err.setting is not None:
        return Problem("Tournament", str(err), b.settings.cell(err.setting), err.setting)
    if err.player is not None:
        row = next((r for r in b.players_data.rows if r.get("aga_id") == err.player), None)
        if row is not None:
            return b.players_data.problem(row, "band_override", str(err))
    if err.band is not None:
        data = b.tables.get(BANDS.name)
        row = next((r for r in data.rows if r.get("number") == err.band), None) if data else None
        if row is not None and data is not None:
            return data.problem(row, "separation_override", str(err))
    return Problem(BANDS.sheet, str(err))


def compute_banding(b: book.Book, players: list[Player], *, fresh: bool) -> Banding:
    settings = b.tournament.settings
    try:
        if fresh or not b.tournament.bands:
            return build_bands(players, settings)
        return rebuild_bands(b.tournament.bands, players, settings)
    except BandError as err:
        raise ActionError("the bands cannot be built", [band_error_problem(b, err)]) from err


@action(
    "bands",
    "Build bands",
    "propose McMahon bands and initial scores, keeping the TD's edits in the Bands sheet",
    Param(
        "fresh", "start over, discarding the Bands sheet's rows and band overrides", ParamKind.FLAG
    ),
)
def bands(session: Session, params: Mapping[str, object]) -> None:
    b = book.read_book(session.gw)
    session.require_no_problems(b.problems, "fix these problems first")
    t = b.tournament
    players = rated_players(b)
    banding = compute_banding(b, players, fresh=bool(params.get("fresh")))

    warnings = []
    if t.rounds:
        warnings.append(
            f"round {max(r.number for r in t.rounds)} is already paired: new bands change "
            "initial scores, and every McMahon score after them"
        )
    for pid in banding.below_floor:
        warnings.append(
            f"{t.players[pid].name} is rated below the lowest band and joins it "
            f"(initial score {banding.initial_scores[pid]:g})"
        )
    for pid in banding.cleared_overrides:
        warnings.append(f"the band override of {t.players[pid].name} is discarded (--fresh)")
    session.warn(warnings)

    session.gw.write_table(BANDS, [band_values(band, banding) for band in banding.bands])
    updates = {
        pid: {
            "band": banding.band_of.get(pid),
            "band_override": banding.band_overrides.get(pid),
            "initial_score": banding.initial_scores.get(pid),
        }
        for pid in t.players
    }
    table = players_table(t.settings.rounds)
    session.gw.write_table(table, book.merge_rows(b.players_data, "aga_id", updates))

    sizes = ", ".join(f"{banding.counts.get(band.number, 0)}" for band in banding.bands)
    session.done(f"{len(banding.bands)} bands of {sizes} players")
    even = "; top band games even" if t.settings.top_band_even else ""
    session.say(f"Handicap scheme: {scheme_text(t.settings)}{even}")
    ratings = [p.rating for p in players if p.rating is not None]
    for style in (BarStyle.BGA, BarStyle.EGF):
        try:
            suggestion = suggest_bar(ratings, t.settings.rounds, style=style)
        except BandError:
            continue
        session.say(
            f"{style.value} table suggests a bar of {suggestion.rank}: {suggestion.population} "
            f"players at or above it (the table asks for {suggestion.low}-{suggestion.high})"
        )


def band_values(band: Band, banding: Banding) -> dict[str, object]:
    return {
        "number": band.number,
        "label": band.label,
        "min_rating": band.min_rating,
        "players": banding.counts.get(band.number, 0),
        "separation": band.separation,
        "separation_override": band.separation_override,
        "initial_score": band.initial_score,
    }
