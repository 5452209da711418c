"""Tiebreaks and final standings, as a registry of named criteria.

Sources
-------
* AGA Swiss McMahon Pairing Protocol, "Final Standings--Tiebreaks" (the four standard
  tiebreaks SOMS, SODOMS, face to face, random draw; the phantom-player rules for byes;
  the 0.5 credit for opponents' voluntary byes and double forfeits; the Bob example).
* AGA Program Interface and Reporting Requirements, "Tiebreaks": any order, more
  algorithms allowed at the TD's discretion, never based on raw wins.
* BGA McMahon functional specification, section 5 (CUSS, CUSP, SOS, SOSOS, SODOS and
  their sleeping-round rules).
* OpenGotha placement criteria (SOSM-1, SOSM-2 and the long names used as aliases).

Byes and missed games (AGA rules, used by every McMahon-score tiebreak except the
"BGA ..." variants)
---------------------------------------------------------------------------------
* A forced bye is a win against a phantom who started on the player's own initial score
  and won half of the rounds: phantom = initial + N / 2, N = rounds counted (the
  ``after_round`` of the standings, i.e. all rounds at the end of the tournament).
* A voluntary bye, and likewise a round the player missed without a bye recorded
  (dropped, late entry), is a loss against that same phantom.
* An opponent's voluntary byes, double forfeits and absences each add 0.5 to the
  opponent's score as it counts in the player's SOS and, when the player beat that
  opponent, SODOS ("effective score" = final + 0.5 per instance).  The credit never
  changes anyone's own McMahon score or place.
* A double-forfeit game counts as a game against the paired opponent (a loss for both).
* Games with no result entered yet count for nothing.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from addin.core.model import PlayerId, Tournament
from addin.core.participants import no_shows
from addin.core.scoring import (
    Outcome,
    RoundRecord,
    initial_score,
    last_round,
    player_records,
)

__all__ = [
    "TIEBREAKS",
    "Contribution",
    "Standing",
    "Tiebreak",
    "TiebreakContext",
    "TiebreakError",
    "random_draw",
    "resolve",
    "resolve_order",
    "standings",
]

Values = dict[PlayerId, float | None]
ComputeFn = Callable[["TiebreakContext", Sequence[PlayerId]], Values]


class TiebreakError(ValueError):
    """An unknown or repeated tiebreak name."""


# --------------------------------------------------------------------------- context


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one round adds to a player's SOS-family tiebreaks."""

    round: int
    value: float
    """Opponent's effective McMahon score, or the phantom's (or own) score for a bye."""
    weight: float
    """Share of ``value`` that goes to SODOS: 1 for a win, 0.5 for a jigo, 0 for a loss."""
    opponent: PlayerId | None = None
    """``None`` when ``value`` is a stand-in (phantom or own score)."""


class TiebreakContext:
    """Everything tiebreaks read, computed once per standings table."""

    def __init__(self, t: Tournament, after_round: int | None = None) -> None:
        self.tournament = t
        self.rounds = last_round(t) if after_round is None else after_round
        self.records: dict[PlayerId, list[RoundRecord]] = player_records(t, self.rounds)
        gone = set(no_shows(t))
        self.players: list[PlayerId] = [p for p in self.records if p not in gone]
        """The players ranked: everyone but the no-shows (``addin.core.participants``),
        whose records stay (they are nobody's opponent, so they feed no tiebreak)."""
        self.initial: dict[PlayerId, float] = {p: initial_score(t, p) for p in self.records}

    # McMahon scores -------------------------------------------------------------

    @cached_property
    def history(self) -> dict[PlayerId, list[float]]:
        """Score after each round, index 0 = initial."""
        return {
            p: [self.initial[p]] + [r.score_after for r in recs] for p, recs in self.records.items()
        }

    @cached_property
    def scores(self) -> dict[PlayerId, float]:
        return {p: h[-1] for p, h in self.history.items()}

    def phantom(self, player: PlayerId) -> float:
        """The AGA bye phantom: the player's initial score plus half the rounds."""
        return self.initial[player] + self.rounds / 2

    @cached_property
    def effective(self) -> dict[PlayerId, float]:
        """Final score + 0.5 per missed game: the score a player counts for in others' SOS."""
        return {
            p: self.scores[p] + 0.5 * sum(r.outcome.missed_game for r in recs)
            for p, recs in self.records.items()
        }

    # SOS building blocks --------------------------------------------------------

    @cached_property
    def contributions(self) -> dict[PlayerId, list[Contribution]]:
        """Per-round SOS contributions under the AGA phantom rules."""
        return {p: [c for r in recs if (c := self._aga(r))] for p, recs in self.records.items()}

    def _aga(self, rec: RoundRecord) -> Contribution | None:
        outcome = rec.outcome
        if outcome is Outcome.PENDING:
            return None
        if outcome.is_game:
            opp = rec.opponent
            assert opp is not None
            return Contribution(rec.round, self.effective[opp], outcome.points, opp)
        weight = 1.0 if outcome is Outcome.FORCED_BYE else 0.0
        return Contribution(rec.round, self.phantom(rec.player), weight)

    @cached_property
    def bga_contributions(self) -> dict[PlayerId, list[Contribution]]:
        """Per-round contributions under BGA section 5.3/5.5 (own initial score for byes)."""
        return {p: [c for r in recs if (c := self._bga(r))] for p, recs in self.records.items()}

    def _bga(self, rec: RoundRecord) -> Contribution | None:
        outcome = rec.outcome
        if outcome is Outcome.PENDING:
            return None
        if outcome in (Outcome.WIN, Outcome.LOSS, Outcome.JIGO, Outcome.NO_RESULT):
            assert rec.opponent is not None
            return Contribution(rec.round, self.scores[rec.opponent], outcome.points, rec.opponent)
        # Free win (forfeit win, forced bye) or sleeping (everything else).
        weight = 1.0 if outcome in (Outcome.FORFEIT_WIN, Outcome.FORCED_BYE) else 0.0
        return Contribution(rec.round, self.initial[rec.player], weight)

    @cached_property
    def sos(self) -> dict[PlayerId, float]:
        return {p: sum(c.value for c in cs) for p, cs in self.contributions.items()}

    @cached_property
    def sodos(self) -> dict[PlayerId, float]:
        return {p: sum(c.value * c.weight for c in cs) for p, cs in self.contributions.items()}

    @cached_property
    def win_points_history(self) -> dict[PlayerId, list[float]]:
        """CUSP's running totals: wins + jigos, no free wins, no byes (BGA 5.2)."""
        return {
            p: list(itertools.accumulate(_cusp_points(r.outcome) for r in recs))
            for p, recs in self.records.items()
        }


def _cusp_points(outcome: Outcome) -> float:
    return 0.0 if outcome is Outcome.FORFEIT_WIN else outcome.win_points


# --------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class Tiebreak:
    """A named tiebreak criterion; higher values rank first."""

    name: str
    aliases: tuple[str, ...]
    compute: ComputeFn
    """``compute(ctx, players)``: values for ``players`` (a tie group if ``group_dependent``)."""
    group_dependent: bool = False
    """Value only defined within a tie group (face to face)."""
    uses_raw_wins: bool = False
    """Based on wins, not McMahon scores: only when the TD picks it (interface document)."""

    @property
    def doc(self) -> str:
        """Definition and source."""
        return inspect.getdoc(self.compute) or ""


TIEBREAKS: dict[str, Tiebreak] = {}


def _tiebreak(
    name: str, *aliases: str, group_dependent: bool = False, uses_raw_wins: bool = False
) -> Callable[[ComputeFn], ComputeFn]:
    def register(fn: ComputeFn) -> ComputeFn:
        TIEBREAKS[name] = Tiebreak(name, aliases, fn, group_dependent, uses_raw_wins)
        return fn

    return register


def _pick(table: Mapping[PlayerId, float], players: Iterable[PlayerId]) -> Values:
    return {p: table[p] for p in players}


@_tiebreak("SOS", "SOMS", "SOSM", "Sum of opponents' McMahon scores")
def _sos(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """Sum of the final McMahon scores of all the player's opponents.

    AGA protocol, Final Standings--Tiebreaks, standard tiebreak 1 ("SOMS"); BGA spec 5.3
    ("SOS"); OpenGotha "SOSM".  Byes count the phantom (initial + rounds / 2); each
    opponent counts 0.5 more per voluntary bye, double forfeit or absence.
    """
    return _pick(ctx.sos, players)


@_tiebreak("SODOS", "SODOMS", "SODOSM", "Sum of defeated opponents' McMahon scores")
def _sodos(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """Sum of the final McMahon scores of the opponents the player defeated.

    AGA protocol, Final Standings--Tiebreaks, standard tiebreak 2 ("SODOMS"); BGA spec 5.5
    ("SODOS"); OpenGotha "SODOSM".  Forfeit wins count the opponent; a forced bye counts
    the phantom; a jigo or no-result game counts half the opponent's score (BGA 5.5; the
    AGA text is silent).  Credits for the opponent's missed games apply as in SOS.
    Note BGA 5.5, note 4: SODOS depends on where the McMahon zero lies.
    """
    return _pick(ctx.sodos, players)


@_tiebreak("SOSOS", "SOSOSM", "Sum of opponents' SOS")
def _sosos(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """Sum of the SOS of the player's opponents.

    BGA spec 5.4; OpenGotha "SOSOSM".  For each bye or missed round the player's own SOS
    is added (BGA 5.4, "for each round that the player sleeps").
    """
    return {
        p: sum(ctx.sos[c.opponent] if c.opponent is not None else ctx.sos[p] for c in cs)
        for p, cs in ((p, ctx.contributions[p]) for p in players)
    }


def _sos_minus(ctx: TiebreakContext, players: Sequence[PlayerId], drop: int) -> Values:
    return {p: sum(sorted(c.value for c in ctx.contributions[p])[drop:]) for p in players}


@_tiebreak("SOS-1", "SOSM-1", "SOSMM1")
def _sos_1(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """SOS without the single lowest round contribution.

    European (EGF) variant; OpenGotha "SOSM-1", "Sum of (n-1) best opponents scores (MMS)".
    Not in BGA spec section 5, which lists only CUSS, CUSP, SOS, SOSOS and SODOS.
    Contributions are the AGA ones (phantom for byes, missed-game credits).
    """
    return _sos_minus(ctx, players, 1)


@_tiebreak("SOS-2", "SOSM-2", "SOSMM2")
def _sos_2(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """SOS without the two lowest round contributions.

    European (EGF) variant; OpenGotha "SOSM-2", "Sum of (n-2) best opponents scores (MMS)".
    """
    return _sos_minus(ctx, players, 2)


@_tiebreak("BGA SOS", "SOS (BGA)")
def _bga_sos(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """SOS by the BGA rule: for each round the player sleeps add their own initial score.

    BGA spec 5.3.  Byes, absences, forfeits and double forfeits count as sleeping or free
    wins (own initial McMahon score); no credit for opponents' missed games.
    """
    return {p: sum(c.value for c in ctx.bga_contributions[p]) for p in players}


@_tiebreak("BGA SODOS", "SODOS (BGA)")
def _bga_sodos(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """SODOS by the BGA rule: a free win (forfeit win, forced bye) adds own initial score.

    BGA spec 5.5: each jigo adds half the opponent's McMahon score.
    """
    return {p: sum(c.value * c.weight for c in ctx.bga_contributions[p]) for p in players}


@_tiebreak("CUSS", "CUSSM", "Cumulative sum of McMahon scores")
def _cuss(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """Sum of the player's McMahon score at the end of each round (rounds 1..N).

    BGA spec 5.1; OpenGotha "CUSSM".  Rewards winning early.
    """
    return {p: sum(ctx.history[p][1:]) for p in players}


@_tiebreak("CUSP", "Cumulative sum of points", "Cumulative sum of wins", uses_raw_wins=True)
def _cusp(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """Sum over rounds 1..N of the player's winning points at the end of each round.

    BGA spec 5.2 ("Cumulative Sum of Wins"): winning points are wins (1) and jigos (0.5;
    no-result games too), without free wins (forfeit wins) or bye points.  Based on raw
    wins, which the AGA interface document forbids as a default tiebreak: TD's choice only.
    With equal initial scores and all games played it orders exactly like CUSS (BGA 5.2).
    """
    return {p: sum(ctx.win_points_history[p]) for p in players}


@_tiebreak("Wins", "NBW", "Number of wins", "Raw score", uses_raw_wins=True)
def _wins(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """Raw score: wins (forfeit wins too) plus 0.5 per jigo or no-result game.

    AGA interface document, Tiebreak List Report ("Raw Score (i.e., number of wins)");
    OpenGotha "NBW".  The interface document forbids tiebreaks on raw wins by default:
    used only when the TD lists it explicitly.
    """
    return {p: sum(r.outcome.win_points for r in ctx.records[p]) for p in players}


@_tiebreak(
    "Face to face",
    "F2F",
    "Face-to-face",
    "Head to head",
    "DC",
    "Direct confrontation",
    group_dependent=True,
)
def _face_to_face(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """Points each tied player scored in games against the others of the tie group.

    AGA protocol, Final Standings--Tiebreaks, standard tiebreak 3 ("face to face result,
    if applicable"); OpenGotha "DC".  Applicable only when every two players of the group
    met (a two-player tie between players who met, or a complete round robin inside a
    larger tie); otherwise every member gets ``None`` and the tie stands.  Games without
    a result and double forfeits are not meetings; forfeits are.
    """
    group = set(players)
    scored = dict.fromkeys(players, 0.0)
    met: set[frozenset[PlayerId]] = set()
    for p in players:
        for rec in ctx.records[p]:
            if rec.opponent in group and rec.outcome.is_game and _played(rec.outcome):
                met.add(frozenset((p, rec.opponent)))
                scored[p] += rec.outcome.points
    complete = all(frozenset(pair) in met for pair in itertools.combinations(players, 2))
    if len(players) < 2 or not complete:
        return dict.fromkeys(players, None)
    return dict(scored)


def _played(outcome: Outcome) -> bool:
    return outcome not in (Outcome.PENDING, Outcome.DOUBLE_FORFEIT)


def random_draw(seed: int, player: PlayerId) -> float:
    """A number in [0, 1) fixed by (seed, player id): SHA-256, not Python's ``hash()``."""
    digest = hashlib.sha256(f"aga-mcmahon-random-draw:{seed}:{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


@_tiebreak("Random", "Random draw")
def _random(ctx: TiebreakContext, players: Sequence[PlayerId]) -> Values:
    """Random draw, the highest draw ranking first.

    AGA protocol, Final Standings--Tiebreaks, standard tiebreak 4.  Each player's draw is
    SHA-256 of ``settings.seed`` and the player id: the same on every run, machine and
    dict order; a new seed gives a new draw.  Breaks every tie that reaches it.
    """
    seed = ctx.tournament.settings.seed
    return {p: random_draw(seed, p) for p in players}


def _key(name: str) -> str:
    return re.sub(r"[\s\-_'’]+", "", name).casefold()


def _index() -> dict[str, Tiebreak]:
    index: dict[str, Tiebreak] = {}
    for tb in TIEBREAKS.values():
        for label in (tb.name, *tb.aliases):
            other = index.setdefault(_key(label), tb)
            if other is not tb:
                raise RuntimeError(f"tiebreak label {label!r} is ambiguous")
    return index


_BY_KEY = _index()


def resolve(name: str) -> Tiebreak:
    """The tiebreak called ``name`` (any alias; case, spaces, hyphens ignored)."""
    tb = _BY_KEY.get(_key(name))
    if tb is None:
        known = ", ".join(TIEBREAKS)
        raise TiebreakError(f"unknown tiebreak {name!r}; known tiebreaks: {known}")
    return tb


def resolve_order(names: Iterable[str]) -> tuple[Tiebreak, ...]:
    """Resolve a configured order; a tiebreak listed twice (under any alias) is an error."""
    order: list[Tiebreak] = []
    for name in names:
        tb = resolve(name)
        if tb in order:
            raise TiebreakError(f"tiebreak {name!r} is listed twice (as {tb.name!r})")
        order.append(tb)
    return tuple(order)


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class Standing:
    """One line of the standings; fully tied players share ``place``."""

    place: int
    player: PlayerId
    score: float
    """McMahon score."""
    wins: float
    """Raw score, for information (never a tiebreak unless configured)."""
    tiebreaks: tuple[float | None, ...]
    """Values in ``criteria`` order; ``None`` where face to face did not apply."""
    criteria: tuple[str, ...]
    """Canonical tiebreak names."""

    def value(self, name: str) -> float | None:
        return self.tiebreaks[self.criteria.index(resolve(name).name)]


def _split(group: list[PlayerId], values: Values) -> list[list[PlayerId]]:
    def key(p: PlayerId) -> tuple[bool, float]:
        v = values[p]
        return (v is not None, v if v is not None else 0.0)

    ordered = sorted(group, key=key, reverse=True)
    return [list(g) for _, g in itertools.groupby(ordered, key=key)]


def _tie_order(t: Tournament, p: PlayerId) -> tuple[float, str, PlayerId]:
    """Display order inside a full tie: entry rating, then name, then id."""
    player = t.players.get(p)
    rating = player.rating if player is not None and player.rating is not None else -1e9
    return (-rating, player.name if player is not None else "", p)


def standings(
    t: Tournament,
    order: Sequence[str] | None = None,
    after_round: int | None = None,
    context: TiebreakContext | None = None,
) -> list[Standing]:
    """Players ranked by McMahon score, then the tiebreaks of ``order`` in turn.

    ``order`` defaults to ``t.settings.tiebreaks``.  Each tiebreak only splits groups that
    are still tied when it comes up (face to face is computed within such a group).
    Players tied on everything share a place (1, 2, 2, 4 ...). A player who never came
    (``addin.core.participants.no_shows``) has no line. ``context``: one already
    built for ``t`` and ``after_round``, when the caller reads more from it.
    """
    criteria = resolve_order(t.settings.tiebreaks if order is None else order)
    ctx = context if context is not None else TiebreakContext(t, after_round)
    values: dict[str, Values] = {
        tb.name: ({} if tb.group_dependent else tb.compute(ctx, ctx.players)) for tb in criteria
    }
    groups = _split(ctx.players, dict(ctx.scores))
    for tb in criteria:
        next_groups: list[list[PlayerId]] = []
        for group in groups:
            if len(group) > 1 and tb.group_dependent:
                values[tb.name].update(tb.compute(ctx, group))
            next_groups.extend(_split(group, values[tb.name]) if len(group) > 1 else [group])
        groups = next_groups
    return _lines(t, ctx, criteria, groups, values)


def _lines(
    t: Tournament,
    ctx: TiebreakContext,
    criteria: tuple[Tiebreak, ...],
    groups: list[list[PlayerId]],
    values: dict[str, Values],
) -> list[Standing]:
    names = tuple(tb.name for tb in criteria)
    raw = {p: sum(r.outcome.win_points for r in ctx.records[p]) for p in ctx.players}
    lines: list[Standing] = []
    for group in groups:
        place = len(lines) + 1
        for p in sorted(group, key=lambda p: _tie_order(t, p)):
            tbv = tuple(values[n].get(p) for n in names)
            lines.append(Standing(place, p, ctx.scores[p], raw[p], tbv, names))
    return lines
