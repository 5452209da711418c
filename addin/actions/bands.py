"""Bands and initial McMahon scores, proposed by the program and edited by the TD."""

from __future__ import annotations

from dataclasses import dataclass, replace

from addin.actions import intake
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.intake import rated_players
from addin.actions.registry import ParamKind, action, param
from addin.actions.sections import PLAYERS, SETTLED
from addin.core import supergroup
from addin.core.bands import (
    HIGHEST_BAR,
    BandError,
    Banding,
    BarStyle,
    bands_from_scores,
    bar_style,
    build_bands,
    propose_bar,
    rebuild_bands,
    suggest_bar,
)
from addin.core.european import McMahonRules, Supergroup
from addin.core.grades import grade_scale_text, is_grade_scale
from addin.core.handicap import scheme_text
from addin.core.model import Player, PlayerId, Settings
from addin.core.ratings import rank_floor, rank_of
from addin.workbook import bands_sheet, book, players_sheet, settings_table
from addin.workbook.gateway import LogEntry, Problem
from addin.workbook.layout import Section


def band_error_problem(b: book.Book, err: BandError) -> Problem:
    """Pin a BandError to the cell the TD must change."""
    if err.setting is not None:
        return settings_table.setting_problem(b, err.setting, str(err))
    if err.player is not None:
        problem = players_sheet.band_override_problem(b, err.player, str(err))
        if problem is not None:
            return problem
    if err.band is not None:
        problem = bands_sheet.separation_problem(b, err.band, str(err))
        if problem is not None:
            return problem
    return bands_sheet.sheet_problem(str(err))


def compute_banding(b: book.Book, players: list[Player], *, fresh: bool) -> Banding:
    settings = b.tournament.settings
    try:
        if fresh or not b.tournament.bands:
            kept = None if fresh else _from_imported_scores(b, players)
            return kept if kept is not None else build_bands(players, settings)
        return rebuild_bands(b.tournament.bands, players, settings)
    except BandError as err:
        raise ActionError("the bands cannot be built", [band_error_problem(b, err)]) from err


def _from_imported_scores(b: book.Book, players: list[Player]) -> Banding | None:
    """With no Bands rows, the bands of initial scores every player already has (an
    imported event, a TD's typed scores): a first ``bands`` keeps them rather than
    building new ones from the ranks (``--fresh`` builds from the ranks)."""
    if not players or any(p.initial_score is None for p in players):
        return None
    derived = bands_from_scores(players, b.tournament.settings)
    if derived is None or derived[1] != b.tournament.settings:
        return None
    return derived[0]


@dataclass(frozen=True, kw_only=True)
class BandsParams:
    fresh: bool = param(
        "start over, discarding the Bands sheet's rows and band overrides", ParamKind.FLAG
    )


@action(
    "bands",
    "Build bands",
    "propose McMahon bands and initial scores, keeping the TD's edits in the Bands sheet",
    BandsParams,
    reads=SETTLED,
    writes=PLAYERS | {Section.BANDS, Section.SETTINGS},
)
def bands(snapshot: Snapshot, params: BandsParams) -> Change:
    draft = Draft(snapshot)
    b = intake.settled_book(draft, intake.every_player(), writes_players=True)
    players = rated_players(b)
    fresh = bool(params.fresh)
    warnings = []
    proposal = proposed_bar(b, players, fresh=fresh)
    if proposal is not None:
        b, message = proposal
        warnings.append(message)
    t = b.tournament
    banding = compute_banding(b, players, fresh=fresh)

    if t.rounds:
        changed = [
            p
            for p in t.players.values()
            if p.initial_score is not None
            and banding.initial_scores.get(p.aga_id) is not None
            and banding.initial_scores[p.aga_id] != p.initial_score
        ]
        if changed:
            shown = ", ".join(
                f"{p.name} {p.initial_score:g} -> {banding.initial_scores[p.aga_id]:g}"
                for p in changed[:5]
            )
            more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
            warnings.append(
                f"round {max(r.number for r in t.rounds)} is already paired: these bands "
                f"change the initial score of {len(changed)} of {len(t.players)} players "
                f"({shown}{more}), and every McMahon score after them"
            )
    for pid in banding.below_floor:
        warnings.append(
            f"{t.players[pid].name} is rated below the lowest band and joins it "
            f"(initial score {banding.initial_scores[pid]:g})"
        )
    for pid in banding.cleared_overrides:
        warnings.append(f"the band override of {t.players[pid].name} is discarded (--fresh)")
    draft.warn(warnings)

    if proposal is not None:
        write_bar(draft, b)
    bands_sheet.write_bands(draft, banding.bands, banding.counts)
    updates: dict[PlayerId, dict[str, object]] = {
        pid: {
            "band": banding.band_of.get(pid),
            "band_override": banding.band_overrides.get(pid),
            "initial_score": banding.initial_scores.get(pid),
        }
        for pid in t.players
        # A player dropped after playing keeps the score their games were scored with.
        if pid in banding.band_of or not t.rounds
    }
    players_sheet.write_fields(draft, b, updates)

    draft.done(banding.sizes())
    if banding.supergroup:
        kind, top = t.settings.options.supergroup, banding.bands[0].initial_score or 0.0
        line = supergroup.describe(kind, t.settings.rounds, len(banding.supergroup), top + 1)
        draft.say(line)
        draft.change.log.append(LogEntry("Note", draft.action, line))
    for pid in banding.sleepers_out_of_top:
        line = (
            f"{t.players[pid].name} asked to sleep (bye requests) and starts at "
            f"{banding.initial_scores[pid]:g}, one point below the bar: no sleeping in the top "
            "group (BGA 4.3)"
        )
        draft.say(line)
        draft.change.log.append(LogEntry("Note", draft.action, line))
    if is_grade_scale(t.settings.options.grade_scale):
        draft.say(f"McMahon scale: {grade_scale_text(t.settings.options.grade_scale)}")
    even = "; top band games even" if t.settings.top_band_even else ""
    draft.say(f"Handicap scheme: {scheme_text(t.settings)}{even}")
    ratings = [p.rating for p in players if p.rating is not None]
    chosen = bar_style(t.settings)
    for style in (chosen, *(s for s in (BarStyle.BGA, BarStyle.EGF) if s is not chosen)):
        try:
            suggestion = suggest_bar(ratings, t.settings.rounds, style=style)
        except BandError:
            continue
        draft.say(
            f"{style.value} table suggests a bar of {suggestion.rank}: {suggestion.population} "
            f"players at or above it (the table asks for {suggestion.low}-{suggestion.high})"
        )
    return draft.change


def proposed_bar(
    b: book.Book, players: list[Player], *, fresh: bool
) -> tuple[book.Book, str] | None:
    """With no bar set, a new build proposes one (:func:`_proposal`) and asks.

    An ordinary AGA event has a bar: without one the strongest rank alone is band 1 and
    the top boards see large handicaps. The proposal is written to the Tournament sheet
    once the TD accepts it. None when a bar is set, the bands exist, or no table fits.
    """
    t = b.tournament
    settings = t.settings
    if settings.bar is not None or (t.bands and not fresh) or settings.pairing_format != "McMahon":
        return None
    if not fresh and _from_imported_scores(b, players) is not None:
        return None
    ratings = [p.rating for p in players if p.rating is not None]
    try:
        rank, value, why = _proposal(settings, ratings)
    except BandError:
        return None
    new = replace(b, tournament=replace(t, settings=replace(settings, bar=value)))
    cell = b.settings.cell("bar")
    message = (
        f"no bar is set (Tournament{'!' + cell if cell else ''}, Bar): bands proposes a bar of "
        f"{rank}, {why}; accepting writes it to the Tournament sheet, or type "
        "a bar there yourself"
    )
    return new, message


def _proposal(settings: Settings, ratings: list[float]) -> tuple[str, float, str]:
    """The bar proposed, its value and why: the AGA way, or the table the TD chose.

    Under the AGA rules (no table typed, no supergroup) the bar takes the players with a
    realistic chance of winning (:func:`propose_bar`). A European table or supergroup follows
    the BGA specification's tables (:func:`suggest_bar`). Either way the bar is never above
    9d, the strongest rank the AGA formats carry.
    """
    options = settings.options
    if (
        settings.mcmahon_rules is McMahonRules.AGA
        and settings.typed_options.bar_table is None
        and options.supergroup is Supergroup.NONE
    ):
        proposal = propose_bar(ratings, settings.rounds)
        return proposal.rank, proposal.bar, f"because {proposal.why}"
    bounds = supergroup.limits(options.supergroup, settings.rounds)
    above = bounds[0] if bounds else None
    bar = suggest_bar(ratings, settings.rounds, bar_style(settings), supergroup_above=above)
    why = (
        f"from the field: {bar.population} players at or above it (the "
        f"{bar_style(settings).value} table asks for {bar.low}-{bar.high} for "
        f"{settings.rounds} rounds)"
    )
    if bar.bar > rank_floor(HIGHEST_BAR):
        return (
            HIGHEST_BAR,
            rank_floor(HIGHEST_BAR),
            why + f", kept at {HIGHEST_BAR}, the strongest bar the AGA formats carry",
        )
    return bar.rank, bar.bar, why


def write_bar(draft: Draft, b: book.Book) -> None:
    """The accepted bar into the Tournament sheet's Bar row (added if the TD deleted it)."""
    rank = rank_of(b.tournament.settings.bar)  # type: ignore[arg-type]
    settings_table.write_setting(draft, b, "bar", rank)
    draft.change.log.append(
        LogEntry("Action", draft.action, f"Bar set to {rank} (Tournament sheet)")
    )
