"""The field to pair: who plays, in which order, in which score group, under which requests.

Protocol, Pairing: remove the players receiving byes, sort the field by McMahon score and
then by entry rating, and make score groups of equal scores. Players in forced pairs are
set aside before matching (Manual pairing); everyone else forms the *pool* the matching
pairs. Ties in score and rating are broken by AGA number so that the order never depends
on input order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from addin.core.european import AvoidanceScope, FloatChoice
from addin.core.model import PairRequest, Player, PlayerId, RequestKind, Settings, Status
from addin.core.pairing.errors import PairingError
from addin.core.pairing.history import History, Pair, pair, read_history
from addin.core.pairing.inputs import PairingInput
from addin.core.pairing.seeding import float_priorities, seed_key, sos_so_far, uses_sos
from addin.core.ratings import RatingError, entry_rating

MAX_SCORE_DENOMINATOR = 1000
"""Scores are compared in units of 1/q points, q the least common denominator (2 for halves)."""


@dataclass(frozen=True)
class Entrant:
    """A player in this round, with everything the weights need precomputed."""

    player: Player
    score: float
    rating: float
    order: int
    """Position in the whole sorted field (0 = top): boards follow it."""
    index: int = -1
    """Node of the matching graph: position in the pool (-1: in a forced pair)."""
    group: int = -1
    """Score group within the pool (0 = highest score)."""
    rank_in_group: int = 0
    """0 = strongest (highest entry rating) of its score group in the pool."""
    units: int = 0
    """Score in units of 1/q points (exact integer arithmetic)."""
    sos: float = 0.0
    """Sum of opponents' scores so far, when a European option seeds by it (else 0)."""
    float_priority: tuple[int, int] = (1, 1)
    """BGA 6.1.1: (up, down) costs from the last float and its result (0 high, 2 low)."""

    @property
    def id(self) -> PlayerId:
        return self.player.aga_id

    @property
    def top_band(self) -> bool:
        """Plays in the top band: band 1, or admitted above the bar."""
        return self.player.above_bar or self.player.effective_band == 1

    @property
    def label(self) -> str:
        """How notes and errors name the player."""
        return f"{self.player.name} ({self.id})"


@dataclass(frozen=True)
class Field:
    round: int
    total_rounds: int
    settings: Settings
    pool: tuple[Entrant, ...]
    """Players the matching pairs, sorted; ``pool[i].index == i``."""
    groups: tuple[tuple[int, ...], ...]
    """Pool indices of each score group, highest score first."""
    forced: tuple[tuple[Entrant, Entrant], ...]
    prohibited: frozenset[Pair]
    history: History
    voluntary_byes: tuple[PlayerId, ...]
    """Players filtered out because they asked for a bye this round."""
    score_unit: int
    warnings: tuple[str, ...]
    current_bar: float | None = None
    """BGA 7.5: the bar's initial score plus one a round, when avoidance applies below it."""

    @property
    def by_id(self) -> dict[PlayerId, Entrant]:
        entrants = {e.id: e for e in self.pool}
        entrants.update({e.id: e for fp in self.forced for e in fp})
        return entrants

    def allowed(self, a: Entrant, b: Entrant) -> bool:
        """Mandatory rules for a game: no rematch (criterion 1), no prohibited pair."""
        key = pair(a.id, b.id)
        return key not in self.history.played and key not in self.prohibited

    @property
    def crit3_active(self) -> bool:
        """Criterion 3 is lifted in the last round of a tournament of fewer than six
        rounds and in the last two rounds of a longer one."""
        last_free = 1 if self.total_rounds < 6 else 2
        return self.round <= self.total_rounds - last_free

    def avoids(self, e: Entrant) -> bool:
        """Whether the avoidance switches apply to ``e`` this round: the first half (AGA),
        or below the current bar in every round (BGA 7.5)."""
        if self.settings.options.avoidance_scope is AvoidanceScope.BELOW_CURRENT_BAR:
            return self.current_bar is None or e.score < self.current_bar
        return self.first_half

    @property
    def first_half(self) -> bool:
        """Additional considerations apply in the first half only (round <= rounds / 2)."""
        return 2 * self.round <= self.total_rounds


def _score_unit(scores: Sequence[float]) -> int:
    q = 1
    for s in set(scores):  # a few distinct scores among many players
        q = math.lcm(q, Fraction(s).limit_denominator(MAX_SCORE_DENOMINATOR).denominator)
    return q


def _rating(player: Player) -> float:
    try:
        return entry_rating(player)
    except RatingError as error:
        raise PairingError(f"cannot pair {player.name} ({player.aga_id}): {error}") from error


def _requests(
    requests: Sequence[PairRequest], number: int, present: Mapping[PlayerId, Player]
) -> tuple[list[tuple[PlayerId, PlayerId]], frozenset[Pair]]:
    """Forced pairs (validated) and prohibited pairs that apply to round ``number``."""
    current = [r for r in requests if r.round is None or r.round == number]
    prohibited = frozenset(
        pair(r.first, r.second) for r in current if r.kind is RequestKind.PROHIBIT
    )
    forced: list[tuple[PlayerId, PlayerId]] = []
    partner: dict[PlayerId, PlayerId] = {}
    for r in current:
        if r.kind is not RequestKind.FORCE:
            continue
        a, b = r.first, r.second
        if a == b:
            raise PairingError(f"forced pair {a}-{b} pairs a player with himself")
        for p in (a, b):
            if p not in present:
                raise PairingError(
                    f"forced pair {a}-{b}: player {p} is not in the field of round {number} "
                    "(unknown, dropped or on a bye)"
                )
        if partner.get(a) == b:
            continue
        for p, q in ((a, b), (b, a)):
            if p in partner:
                raise PairingError(
                    f"forced pairs {p}-{partner[p]} and {a}-{b} both claim player {p}"
                )
            partner[p] = q
        if pair(a, b) in prohibited:
            raise PairingError(f"pair {a}-{b} is both forced and prohibited in round {number}")
        forced.append((a, b))
    return forced, prohibited


def prepare(inp: PairingInput) -> Field:
    """Filter, validate and sort the input; raise :class:`PairingError` on contradictions."""
    if inp.total_rounds < 1 or not 1 <= inp.round <= inp.total_rounds:
        raise PairingError(f"round {inp.round} is not a round of a {inp.total_rounds}-round event")
    seen: set[PlayerId] = set()
    present: dict[PlayerId, Player] = {}
    voluntary: list[PlayerId] = []
    for p in inp.players:
        if p.aga_id in seen:
            raise PairingError(f"player {p.aga_id} appears twice in the field")
        seen.add(p.aga_id)
        if p.status is not Status.ACTIVE:
            continue
        if inp.round in p.bye_requests:
            voluntary.append(p.aga_id)
            continue
        if p.aga_id not in inp.scores:
            raise PairingError(f"no McMahon score for {p.name} ({p.aga_id})")
        present[p.aga_id] = p
    forced_ids, prohibited = _requests(inp.requests, inp.round, present)
    history = read_history(inp.history, inp.round, inp.scores)
    warnings = [
        f"forced pair {a}-{b} is a rematch: they met in an earlier round"
        for a, b in forced_ids
        if pair(a, b) in history.played
    ]
    unit = _score_unit([inp.scores[p] for p in present])
    seed = seed_key(inp.settings, inp.round, inp.history, inp.scores)  # spec 7.3; AGA: ()
    sos = sos_so_far(inp.history, inp.scores) if uses_sos(inp.settings) else {}
    bga = inp.settings.options.float_choice is FloatChoice.BGA
    priority = float_priorities(inp.history, inp.scores) if bga else {}
    ranked = sorted(
        ((p, float(inp.scores[p.aga_id]), _rating(p)) for p in present.values()),
        key=lambda r: (-r[1], *seed(r[0].aga_id), -r[2], r[0].aga_id),
    )
    in_forced = {p for fp in forced_ids for p in fp}
    pool, groups, by_id = _place(ranked, in_forced, unit, sos, priority)
    forced = sorted(
        (_in_order(by_id[a], by_id[b]) for a, b in forced_ids), key=lambda g: g[0].order
    )
    return Field(
        round=inp.round,
        total_rounds=inp.total_rounds,
        settings=inp.settings,
        pool=pool,
        groups=groups,
        forced=tuple(forced),
        prohibited=prohibited,
        history=history,
        voluntary_byes=tuple(sorted(voluntary)),
        score_unit=unit,
        warnings=tuple(warnings),
        current_bar=_current_bar(inp),
    )


def _current_bar(inp: PairingInput) -> float | None:
    """BGA 7.5: "the Current McMahon Bar ... starts off at the initial McMahon bar ... and
    increases by 1 each round": the top band's initial score (below a supergroup) plus the
    rounds already played. None without the option or without bands."""
    if inp.settings.options.avoidance_scope is not AvoidanceScope.BELOW_CURRENT_BAR:
        return None
    top = [
        p.initial_score
        for p in inp.players
        if p.effective_band == 1 and p.initial_score is not None and not p.above_bar
    ]
    return min(top) + inp.round - 1 if top else None


def _in_order(a: Entrant, b: Entrant) -> tuple[Entrant, Entrant]:
    return (a, b) if a.order < b.order else (b, a)


def _place(
    ranked: Sequence[tuple[Player, float, float]],
    forced: set[PlayerId],
    unit: int,
    sos: Mapping[PlayerId, float],
    priority: Mapping[PlayerId, tuple[int, int]],
) -> tuple[tuple[Entrant, ...], tuple[tuple[int, ...], ...], dict[PlayerId, Entrant]]:
    """Every player's entrant, in field order (player, score, rating each): the pool,
    indexed and cut into score groups, and everyone by id (forced pairs too)."""
    pool: list[Entrant] = []
    groups: list[list[int]] = []
    everyone: dict[PlayerId, Entrant] = {}
    for order, (p, score, rating) in enumerate(ranked):
        pid, units = p.aga_id, round(score * unit)
        seeding = (sos.get(pid, 0.0), priority.get(pid, (1, 1)))
        if pid in forced:
            e = Entrant(p, score, rating, order, -1, -1, 0, units, *seeding)
        else:
            if not pool or pool[-1].units != units:
                groups.append([])
            index, group, rank = len(pool), len(groups) - 1, len(groups[-1])
            e = Entrant(p, score, rating, order, index, group, rank, units, *seeding)
            groups[-1].append(index)
            pool.append(e)
        everyone[pid] = e
    return tuple(pool), tuple(tuple(g) for g in groups), everyone
