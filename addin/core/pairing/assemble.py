"""From a matching to the round: games with colours, handicap, komi, boards and notes;
the forced bye; and the quality statistics of the pairing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from addin.core.european import FloatChoice
from addin.core.model import Bye, ByeKind, Game, PlayerId
from addin.core.pairing.colors import ColorBook
from addin.core.pairing.field import Entrant, Field
from addin.core.pairing.history import pair
from addin.core.pairing.weights import TIER_NAMES, shared


@dataclass(frozen=True)
class PairingStats:
    """How far the pairing is from the ideal, in the protocol's terms."""

    cross_group_games: int
    """Games between different McMahon scores (floats)."""
    mms_squared_difference: float
    """Sum over games of the squared McMahon score difference."""
    float_breaks: int
    """Players floated in the same direction twice running while criterion 3 applies."""
    color_breaks: int
    """Criterion 4 breaks (restricted colours only)."""
    avoidance_kept: int
    """Games kept between players of the same family/club/city/state/country although
    avoidance was on (no valid alternative within the score group)."""
    handicap_games: int
    tier_totals: tuple[tuple[str, int], ...]
    """Penalty of the matched games in each weight tier (forced pairs excluded)."""
    graph: str
    """Candidate graph the final matching came from: sparse, denser or complete."""
    edges: int
    solves: int
    """Matchings computed (bye candidate sets x densities x layout passes)."""


def repeat_floaters(hi: Entrant, lo: Entrant, field: Field) -> list[tuple[Entrant, str]]:
    """Players of this game floating in the same direction as last round (criterion 3)."""
    if hi.units == lo.units:
        return []
    floats = field.history.last_float
    out = [(hi, "down")] if floats.get(hi.id) == -1 else []
    return out + ([(lo, "up")] if floats.get(lo.id) == 1 else [])


@dataclass(frozen=True)
class Assembled:
    games: tuple[Game, ...]
    byes: tuple[Bye, ...]
    float_breaks: int
    color_breaks: int
    avoidance_kept: int
    warnings: tuple[str, ...]


_PRIORITY = ("high", "neutral", "low")


def _float_reason(hi: Entrant, lo: Entrant, choice: FloatChoice | None) -> str:
    """Why these two float, when a European option chose them (empty under the AGA)."""
    if choice is FloatChoice.EGF_SOS:
        return f" (EGF: seeded by SOS, {hi.sos:g} and {lo.sos:g})"
    if choice is FloatChoice.BGA:
        down, up = _PRIORITY[hi.float_priority[1]], _PRIORITY[lo.float_priority[0]]
        return f" (BGA 6.1.1, by previous float: priority down {down}, up {up})"
    return ""


def assemble(
    field: Field,
    colors: ColorBook,
    matched: Sequence[tuple[Entrant, Entrant]],
    bye: Entrant | None,
) -> Assembled:
    """Games of the matched pairs and of the forced pairs, numbered from the top board."""
    forced = {pair(a.id, b.id) for a, b in field.forced}
    games = sorted([*matched, *field.forced], key=lambda g: min(g[0].order, g[1].order))
    out: list[Game] = []
    float_breaks = color_breaks = kept = 0
    relaxed: list[str] = []
    for board, (x, y) in enumerate(games, start=1):
        hi, lo = (x, y) if x.order < y.order else (y, x)
        notes: list[str] = []
        is_forced = pair(hi.id, lo.id) in forced
        if is_forced:
            notes.append("Forced pair (TD)")
            if pair(hi.id, lo.id) in field.history.played:
                notes.append("Rematch forced by the TD")
        if hi.units != lo.units:
            notes.append(
                f"Float: {hi.label} down from {hi.score:g}, {lo.label} up from {lo.score:g}"
                + _float_reason(hi, lo, field.settings.options.float_choice)
            )
            if field.crit3_active:
                for e, direction in repeat_floaters(hi, lo, field):
                    float_breaks += 1
                    notes.append(f"Criterion 3 relaxed: {e.label} floats {direction} twice running")
                    relaxed.append(f"board {board}: {e.label} floats {direction} twice running")
        same = shared(hi, lo, field)
        if same and not is_forced:
            kept += 1
            notes.append(f"Same {'/'.join(same)} kept: no valid alternative in the score group")
        colouring = colors.colour(hi, lo)
        color_breaks += colouring.breaks
        if colouring.breaks:
            relaxed.append(f"board {board}: colour rule relaxed")
        notes.extend(colouring.notes)
        out.append(
            Game(
                white=colouring.white.id,
                black=colouring.black.id,
                handicap=colouring.handicap,
                komi=colouring.komi,
                board=board,
                notes="; ".join(notes),
            )
        )
    byes = [Bye(bye.id, ByeKind.FORCED)] if bye is not None else []
    byes += [Bye(p, ByeKind.VOLUNTARY) for p in field.voluntary_byes]
    warnings = [f"pairing rule relaxed on {r}" for r in relaxed]
    return Assembled(tuple(out), tuple(byes), float_breaks, color_breaks, kept, tuple(warnings))


def stats(
    field: Field,
    result: Assembled,
    tier_totals: Sequence[int],
    graph: str,
    edges: int,
    solves: int,
) -> PairingStats:
    score: dict[PlayerId, float] = {e.id: e.score for e in field.by_id.values()}
    diffs = [score[g.white] - score[g.black] for g in result.games]
    return PairingStats(
        cross_group_games=sum(d != 0 for d in diffs),
        mms_squared_difference=float(sum(d * d for d in diffs)),
        float_breaks=result.float_breaks,
        color_breaks=result.color_breaks,
        avoidance_kept=result.avoidance_kept,
        handicap_games=sum(g.handicap > 0 for g in result.games),
        tier_totals=tuple(zip(TIER_NAMES, tier_totals, strict=True)),
        graph=graph,
        edges=edges,
        solves=solves,
    )
