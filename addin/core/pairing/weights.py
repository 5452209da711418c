"""The pairing criteria as integer penalties in lexicographic tiers.

Each criterion is a small named function, as in pairgoth: given the round's candidate games
(pairs of pool indices), the penalty of each, all in one pass over precomputed per-player
lists, since a large field has thousands of candidate games a pass. A tier groups criteria
of equal rank; tiers act lexicographically because every tier's *scale*
exceeds the largest total that all lower tiers together can reach in one matching:

    scale[lowest] = 1
    scale[t] = 1 + sum(bound[l] * scale[l] for every tier l below t)

where ``bound[l]`` is the most tier ``l`` can add up to over a perfect matching: games x
the largest penalty one game can carry (``per_player`` tiers: at most one unit per
player; the bye tier: one edge). So no combination of lower-tier penalties can outweigh
one step of a higher tier. The engine computes the bounds from the candidate graph it
actually builds (tight, small numbers); :func:`worst_case_scales` computes them from the
caps below for a given field size, which is what the tests check (2,000 players and 10
rounds fit well inside the 127-bit integers rustworkx uses).

Tiers, most important first (protocol references in brackets):

=================  ==================================================  ==============
tier               penalty of one candidate game                        cap per game
=================  ==================================================  ==============
total_difference   EGF style only ("Avoidance may cost (points)" N >    20*span + 2 *
                   0, avoidance on this round): the score difference    (10*span*games
                   counted as is, twice, in tenths of 1/q point, and a  + 5) + 1 (EGF
                   game avoidance objects to priced at twice the        style; else
                   :func:`egf_price` plus one  [OpenGotha's trade]      nothing)
mms_difference     (score difference in 1/q points)^2  [merge groups    (span*q)^2
                   so as to minimise the total score difference]
bye_choice         bye edge only: preference rank of the bye recipient   players - 1
                   (lowest score, then lowest rating)  [Odd-Numbered]
repeat_float       players floating in the same direction as in the      2
                   previous round  [criterion 3, lifted at the end]
color_rule         criterion 4 breaks the game cannot avoid (restricted  2
                   colours, even games)  [criterion 4]
floater_choice     rank of the up-floater in its own score group (0 =    63
                   strongest)  [strongest floater that permits a pairing]
avoidance          same family 5, club 4, city 3, state 2, country 1,   15
                   each a switch, first half only  [Additional
                   considerations]
handicap_and_      3 for a handicap game when avoiding them (first      5
colour             half only), plus the players the game leaves two
                   colours off balance in even games (beyond AGA),
                   after the colouring the colouring step will give it
switch             both players from the same half of the split group    1
                   ("a switch"; all transpositions come first)
shift              min(d, 15)^2 * w, d = distance from the split-and-     225 * 15
                   shift partner, w = 15 for the top of the group down
                   to 8 at its bottom (prefer changes that affect the
                   lowest-ranked players)  [Basic Pairing]
=================  ==================================================  ==============

EGF style trades score difference for avoidance as OpenGotha does: its score cost is nearly
linear in the groups apart, so what it weighs against a same-club game is the pairing's
*total* score difference, and its setting N (preferMMSDiffRatherThanSameClub) works out at
1.2 N + 0.5 points (``Tournament.costValue``: the club factor times 1.2 over the score range,
plus half a group). The total_difference tier says exactly that: a pairing whose games
are, in total, up to 1.2 N + 0.5 points further apart is preferred to one game avoidance
objects to, and among pairings of equal total the squared difference below still spreads
it (two games 4 apart before one 8 apart). In the AGA rule (N = 0) the tier is off and
weighs nothing.

The order follows the protocol: criterion 3 before criterion 4 ("relax criterion 4"
comes before "relax criterion 3"), both before the choice of floater ("subject to
criterion 3, the floater is ...", and an alternate floater is tried before relaxing
criterion 4), and the additional considerations only by transposing or switching
within a score group, so below the floater and above split-and-shift. The bye's group
(volunteers first, then the lowest group that can take it) is decided outside the
weights, by the candidate sets of :mod:`.bye`.

Magnitudes in the worst case the tests prove, 2,000 players, 10 rounds, a 40-point score
span in half points (``worst_case_scales(2000, 80)``): scales from 1 (shift), 3.4e6
(switch), then one per tier up to mms_difference;
the heaviest edge stays below :data:`SAFE_WEIGHT` (2^120) and far below the 2^127
of rustworkx's integers. EGF style (``worst_case_scales(players, span, egf=True)``) adds the
total_difference tier above the score tier, whose cap grows with the field (the price of a
game is capped at the most a pairing can total): its worst case stays below at 200 players
up to a 40-point span in half points; past that the engine hands the weights to networkx,
which computes with unbounded integers, should a real graph come near (a 2,000-player
synthetic round, EGF style, weighs about 2^103). Real graphs are far lighter: their bounds
come from the penalties actually present (:func:`tier_bound`), and inactive tiers weigh
nothing.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import add, mul

from addin.core.european import AvoidanceScope, FloatChoice, GroupPairing
from addin.core.handicap import gap_stones
from addin.core.model import Color, ColorPolicy, HandicapBasis, Player
from addin.core.pairing.colors import (
    BREAKS,
    COLOUR_SETS,
    UNAVOIDABLE,
    ColorBook,
    first_takes_white,
    off_balance,
    stones,
)
from addin.core.pairing.field import Entrant, Field
from addin.core.pairing.seeding import draw_rank, sos_ranks
from addin.core.pairing.structure import Structure
from addin.core.ratings import closed_rating

FLOAT_CAP = 63
"""Floater ranks beyond this count as equally weak (keeps the tier small)."""
SHIFT_CAP = 15
"""Distances from the split-and-shift partner beyond this count as equally bad."""
W_MIN, W_MAX = 8, 15
"""Rank weight of a disturbance: top of the group 15, bottom 8 (ratio under 2)."""
HANDICAP_WEIGHT = 3
"""A handicap game avoided outweighs the colour imbalance (at most 2) of one game."""
AVOIDANCE_WEIGHTS = {"family": 5, "club": 4, "city": 3, "state": 2, "country": 1}
"""Same family weighs most, same country least (each a switch of the Settings)."""
_BELOW_BAR = AvoidanceScope.BELOW_CURRENT_BAR
SAFE_WEIGHT = 2**120
"""Largest edge weight handed to rustworkx (i128 arithmetic, with room for its duals)."""


Games = Sequence[tuple[int, int]]
"""Candidate games as pairs of pool indices ``(i, j)``, ``i`` placed above ``j`` (``i < j``)."""


AVOIDANCE: tuple[tuple[str, str, Callable[[Player], str]], ...] = (
    ("family", "avoid_same_family", lambda p: p.family_group),
    ("club", "avoid_same_club", lambda p: p.chapter),
    ("city", "avoid_same_city", lambda p: p.city),
    ("state", "avoid_same_state", lambda p: p.state),
    ("country", "avoid_same_country", lambda p: p.country),
)
"""Each avoidance switch of ``Settings``: its name, the switch, the attribute it compares."""


def _key(text: str) -> str:
    return text.strip().casefold()


def shared(a: Entrant, b: Entrant, field: Field) -> list[str]:
    """Avoidance attributes the two players share, with the switch on, in the first half
    (or, BGA 7.5, both below the current bar)."""
    if not (field.avoids(a) and field.avoids(b)):
        return []
    return [
        what
        for what, switch, value in AVOIDANCE
        if getattr(field.settings, switch)
        and _key(value(a.player))
        and _key(value(a.player)) == _key(value(b.player))
    ]


class Context:
    """The round's facts the criteria read, precomputed per pool index (a criterion reads
    them for every candidate game, thousands a pass for a large field)."""

    def __init__(self, field: Field, colors: ColorBook, fast_stones: bool = True) -> None:
        self.field = field
        self.colors = colors
        pool = field.pool
        self.crit3 = field.crit3_active
        floats = field.history.last_float
        self.floated_down = [floats.get(e.id, 0) == -1 for e in pool]
        self.floated_up = [floats.get(e.id, 0) == 1 for e in pool]
        self.units = [e.units for e in pool]
        self.group = [e.group for e in pool]
        self.rank_in_group = [e.rank_in_group for e in pool]
        self.float_priority = [e.float_priority for e in pool]
        """Per pool index, what the criteria read of each player (they run over every
        candidate game at once, thousands a round: a list lookup each)."""
        self.restricted = colors.restricted
        self.forbidden = [colors.forbidden(e) for e in pool]
        self.forbidden_at = [COLOUR_SETS.index(f) for f in self.forbidden]
        """Each player's forbidden colours as a place in :data:`.colors.COLOUR_SETS`."""
        self.may_take = {c: [c not in f for f in self.forbidden] for c in Color}
        """Per colour, whether each player may take it (criterion 4)."""
        self.balances = [field.history.balance.get(e.id, 0) for e in pool]
        """Whites minus Blacks in even games, per pool index."""
        at = self.forbidden_at if self.restricted else [0] * len(pool)
        states = sorted(set(zip(self.balances, at, strict=True)))
        place = {state: k for k, state in enumerate(states)}
        self.colour_state = [place[state] for state in zip(self.balances, at, strict=True)]
        """Per player, the place of its (balance, forbidden colours) in :attr:`even_off`."""
        self.even_off = [
            [_even_off(ba, bb, BREAKS[fa][fb], BREAKS[fb][fa]) for bb, fb in states]
            for ba, fa in states
        ]
        """:func:`_even_off` of an even game between every two colour states of the field
        (a few dozen: the colour tier is then a table lookup per game)."""
        on = [
            (what, value)
            for what, switch, value in AVOIDANCE
            if getattr(field.settings, switch)
            and (field.first_half or field.settings.options.avoidance_scope is _BELOW_BAR)
        ]
        self.keys = {
            what: [_key(value(e.player)) if field.avoids(e) else "" for e in pool]
            for what, value in on
        }
        """Per avoided attribute (its switch on, and avoidance applying this round), each
        player's (folded) value; "" when avoidance does not apply to the player or the value
        is blank."""
        self.avoid_handicap = field.settings.avoid_handicap_games and field.first_half
        points = field.settings.avoidance_points
        span = pool[0].units - pool[-1].units if pool else 0
        self.egf_price = (
            egf_price(points, field.score_unit, span, len(pool)) if points and on else 0
        )
        """EGF style: the score difference a game the avoidance switches object to is worth,
        in tenths of 1/q point (0: the AGA rule, the total_difference tier is off)."""
        self.balance = field.settings.color_policy is not ColorPolicy.MANUAL
        choice = field.settings.options.float_choice
        self.by_sos = choice is FloatChoice.EGF_SOS
        self.by_priority = choice is FloatChoice.BGA
        if self.by_priority:  # spec 6.1.1: equal priorities drawn at random
            self.draw = [draw_rank(field.settings, field.round, e.id, 6) for e in pool]
        if self.by_sos:  # spec 6.1.2: neighbouring groups seeded by SOS
            ranks = sos_ranks([e.sos for e in pool], field.groups)
            self.sos_top = ranks
            self.sos_bottom = [len(field.groups[e.group]) - 1 - ranks[e.index] for e in pool]
        self._stones: dict[tuple[int, int], int] = {}
        settings = field.settings
        self.all_even = settings.handicap_policy.reduction is None or settings.handicap_ceiling <= 0
        """No handicap policy, or a ceiling of 0: every game is even (no stones to work out)."""
        self._by_gap = fast_stones and settings.handicap_basis is not HandicapBasis.MMS
        cap = settings.handicap_even_from
        self._closed = [
            closed_rating(e.rating if cap is None else min(e.rating, cap)) for e in pool
        ]
        self._even = [settings.top_band_even and e.top_band for e in pool]
        self._scheme = (settings.handicap_policy.reduction, settings.handicap_ceiling)
        """Per player, what :func:`.colors.stones` reads, so that a game's stones cost one
        subtraction (the graph and the weights ask for tens of thousands a round)."""
        self.calls = tuple(
            (t, f)
            for t, tier in enumerate(GAME_TIERS)
            for f in tier.criteria
            if _ACTIVE.get(f, _always)(self)
        )
        """(tier, criterion) of every criterion that applies this round."""

    def objected(self, games: Games) -> list[bool]:
        """Per game, whether the avoidance switches object to it (the players share an
        attribute whose switch is on)."""
        out = [False] * len(games)
        for keys in self.keys.values():
            out = [
                o or bool((k := keys[i]) and k == keys[j])
                for o, (i, j) in zip(out, games, strict=True)
            ]
        return out

    def stones_between(self, i: int, j: int) -> int:
        """Handicap stones of the game between pool indices ``i`` < ``j``."""
        if self.all_even:
            return 0
        key = (i, j)
        found = self._stones.get(key)
        if found is None:
            if not self._by_gap:
                pool = self.field.pool
                found = stones(pool[i], pool[j], self.field.settings)
            elif self._even[i] or self._even[j]:
                found = 0
            else:
                found = gap_stones(self._closed[i] - self._closed[j], *self._scheme)
            self._stones[key] = found
        return found


Cost = Callable[[Games, Context], list[int]]
"""A criterion: the penalty of each of the candidate games (in their order)."""


# --- criteria -------------------------------------------------------------------------


def egf_price(points: int, unit: int, span: int, players: int) -> int:
    """EGF style ("Avoidance may cost (points)" N): the total score difference a game the
    avoidance switches object to is worth, in tenths of 1/q point (``unit`` = q), as
    OpenGotha prices its preferMMSDiffRatherThanSameClub N: 1.2 N + 0.5 points. Capped just
    above the most any pairing of ``players`` can total (every game the whole ``span``
    units apart): a larger N avoids at any cost just the same, and the tier's cap holds."""
    return min((12 * points + 5) * unit, _most_price(span, players))


def _most_price(span: int, players: int) -> int:
    """Just above the most any pairing of ``players`` can total, in tenths of 1/q point:
    every game the whole ``span`` units apart."""
    return 10 * span * ((players + 1) // 2) + 5


def total_difference(games: Games, ctx: Context) -> list[int]:
    """EGF style: the score difference counted as is (twice, in tenths of 1/q point), plus,
    for a game the avoidance switches object to, twice :func:`egf_price` and one. A
    pairing whose games are in total up to the price further apart is then preferred to
    that game, and one exactly at the price too (the odd one)."""
    units, price = ctx.units, 2 * ctx.egf_price + 1
    return [
        20 * abs(units[i] - units[j]) + (price if objected else 0)
        for (i, j), objected in zip(games, ctx.objected(games), strict=True)
    ]


def mms_difference(games: Games, ctx: Context) -> list[int]:
    """Squared McMahon score difference, in units of 1/q point."""
    units = ctx.units
    return [(units[i] - units[j]) ** 2 for i, j in games]


def repeat_float(games: Games, ctx: Context) -> list[int]:
    """Criterion 3: a down-floater who floated down last round, an up-floater who floated up."""
    units, down, up = ctx.units, ctx.floated_down, ctx.floated_up
    return [0 if units[i] == units[j] else down[i] + up[j] for i, j in games]


def color_rule(games: Games, ctx: Context) -> list[int]:
    """Criterion 4 breaks that no colour choice avoids (restricted colours, even games)."""
    at, stones = ctx.forbidden_at, ctx.stones_between
    return [
        breaks if (breaks := UNAVOIDABLE[at[i]][at[j]]) and not stones(i, j) else 0
        for i, j in games
    ]


def floater_choice(games: Games, ctx: Context) -> list[int]:
    """The up-floater should be the strongest of its score group. EGF (spec 6.1.2): the
    down-floater the highest SOS of its group, the up-floater the lowest of its own.
    BGA (6.1.1): priorities first (0-4), then the draw (0-10): at most 58."""
    group = ctx.group
    if ctx.by_sos:
        top, bottom = ctx.sos_top, ctx.sos_bottom
        return [0 if group[i] == group[j] else min(top[i] + bottom[j], FLOAT_CAP) for i, j in games]
    if ctx.by_priority:
        priority, draw = ctx.float_priority, ctx.draw
        return [
            0
            if group[i] == group[j]
            else 12 * (priority[i][1] + priority[j][0]) + draw[i] + draw[j]
            for i, j in games
        ]
    rank = ctx.rank_in_group
    return [0 if group[i] == group[j] else min(rank[j], FLOAT_CAP) for i, j in games]


def _same(what: str) -> Cost:
    def cost(games: Games, ctx: Context) -> list[int]:
        keys, weight = ctx.keys[what], AVOIDANCE_WEIGHTS[what]
        return [weight if (key := keys[i]) and key == keys[j] else 0 for i, j in games]

    cost.__name__ = f"same_{what}"
    cost.__doc__ = f"When both players share a {what} (its switch on, first half only)."
    return cost


same_family, same_club, same_city, same_state, same_country = (
    _same(what) for what, _, _ in AVOIDANCE
)


def handicap_game(games: Games, ctx: Context) -> list[int]:
    """A handicap game, when handicap games are to be avoided (first half only); it
    weighs more than the colour imbalance of one game."""
    stones = ctx.stones_between
    return [HANDICAP_WEIGHT if stones(i, j) else 0 for i, j in games]


def colour_balance(games: Games, ctx: Context) -> list[int]:
    """Players the game leaves two or more colours off balance in even games: after the
    colouring the colouring step will give an even game (criterion 4 first when
    restricted, then Black to whoever has had more Whites), or as they stand when a
    handicap fixes the colours. Pricing a colouring the step would not give (the better of
    the two) let a pair of +2 and +4 look like +1 and +5 (one player off) and end at +3 and
    +3 (two)."""
    state, off = ctx.colour_state, ctx.even_off
    if ctx.all_even:
        return [off[state[i]][state[j]] for i, j in games]
    balance, stones = ctx.balances, ctx.stones_between
    return [
        off_balance(balance[i], balance[j], False) if stones(i, j) else off[state[i]][state[j]]
        for i, j in games
    ]


def _even_off(ba: int, bb: int, breaks_first: int, breaks_second: int) -> int:
    """:func:`.colors.off_balance` after the colouring step's choice for an even game."""
    return off_balance(ba, bb, True, first_takes_white(ba, bb, breaks_first, breaks_second))


def _always(ctx: Context) -> bool:
    return True


def _avoids(what: str) -> Callable[[Context], bool]:
    return lambda ctx: what in ctx.keys


_ACTIVE: dict[Cost, Callable[[Context], bool]] = {
    total_difference: lambda ctx: ctx.egf_price > 0,
    repeat_float: lambda ctx: ctx.crit3,
    color_rule: lambda ctx: ctx.restricted,
    handicap_game: lambda ctx: ctx.avoid_handicap,
    colour_balance: lambda ctx: ctx.balance,
    **{
        f: _avoids(what)
        for f, (what, _, _) in zip(
            (same_family, same_club, same_city, same_state, same_country), AVOIDANCE, strict=True
        )
    },
}
"""When a criterion applies at all this round (else it costs nothing and is not called)."""


def rank_weight(top: int, size: int) -> int:
    """15 for a disturbance at the top of the group, falling to 8 at its bottom."""
    span = max(size - 1, 1)
    top = min(max(top, 0), span)
    return W_MIN + (W_MAX - W_MIN) * (span - top) // span


class Placer:
    """The two layout tiers of a candidate game under one split-and-shift layout.

    * ``switch``: 1 when both players come from the same half of the (extended) group,
      i.e. the pairing needs a switch; every transposition is tried first.
    * ``shift``: ``min(d, 15)^2 * w`` where ``d`` is how far the lower player is from the
      higher one's split-and-shift partner and ``w`` the :func:`rank_weight` of the
      higher player's position (the spec's dP^2, leaning towards disturbing the
      lowest-ranked players).

    Everything of the higher player is precomputed per player (its position, its
    partner's, its rank weight): this runs over every candidate game each pass.
    """

    def __init__(self, field: Field, structure: Structure) -> None:
        layouts = structure.layouts
        fold = field.settings.options.group_pairing is GroupPairing.FOLD
        self.group = [e.group for e in field.pool]
        self.own = [layouts[e.group].position(e.index, True) for e in field.pool]
        self.half = [layouts[g].half for g in self.group]
        self.upper = [top < half for top, half in zip(self.own, self.half, strict=True)]
        sizes = [layouts[g].size for g in self.group]
        self.partner = [
            size - 1 - top if fold else top + half  # spec 7.3: split and fold, top meets bottom
            for top, half, size in zip(self.own, self.half, sizes, strict=True)
        ]
        self.weight = [
            rank_weight(top, size) if top < size else W_MIN
            for top, size in zip(self.own, sizes, strict=True)
        ]
        self.pulled = [(len(g.staying), g.floaters) for g in layouts]
        self.squares = [min(d, SHIFT_CAP) ** 2 for d in range(2 * len(field.pool) + 1)]
        """``min(d, SHIFT_CAP)^2`` of every distance a game can have."""

    def costs(self, games: Games) -> list[tuple[int, int]]:
        """(switch, shift) of each of the candidate games."""
        group, own, half, upper = self.group, self.own, self.half, self.upper
        partner, weight, pulled = self.partner, self.weight, self.pulled
        squares = self.squares
        out = []
        for i, j in games:
            g = group[i]
            if group[j] == g:
                bottom = own[j]
            else:  # a lower player, at its place among the group's floaters
                staying, floaters = pulled[g]
                bottom = staying + bisect_left(floaters, j)
            d = abs(bottom - partner[i])
            out.append((1 if (bottom < half[i]) == upper[i] else 0, weight[i] * squares[d]))
        return out


# --- tiers ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tier:
    name: str
    criteria: tuple[Cost, ...]
    cap: Callable[[int, int], int]
    """Largest penalty of one edge, given (players, score span in 1/q points)."""
    per_player: bool = False
    """Penalty counts at most one unit per player, so a matching totals at most ``players``."""
    bye_only: bool = False
    """Only the bye edge carries it: a matching totals at most one edge's cap."""


GAME_TIERS: tuple[Tier, ...] = (
    Tier(
        "total_difference",
        (total_difference,),
        lambda n, span: 20 * span + 2 * _most_price(span, n) + 1,
    ),
    # (EGF style only: worst_case_caps keeps this cap with egf=True, else the tier weighs 0)
    Tier("mms_difference", (mms_difference,), lambda n, span: span * span),
    Tier("bye_choice", (), lambda n, span: max(n - 1, 0), bye_only=True),
    Tier("repeat_float", (repeat_float,), lambda n, span: 2, per_player=True),
    Tier("color_rule", (color_rule,), lambda n, span: 2, per_player=True),
    Tier("floater_choice", (floater_choice,), lambda n, span: FLOAT_CAP),
    Tier(
        "avoidance",
        (same_family, same_club, same_city, same_state, same_country),
        lambda n, span: sum(AVOIDANCE_WEIGHTS.values()),
    ),
    Tier(
        "handicap_and_colour",
        (handicap_game, colour_balance),
        lambda n, span: HANDICAP_WEIGHT + 2,
    ),
)
"""Tiers that depend only on the two players (computed once per edge)."""
LAYOUT_TIERS: tuple[Tier, ...] = (
    Tier("switch", (), lambda n, span: 1),
    Tier("shift", (), lambda n, span: SHIFT_CAP**2 * W_MAX),
)
"""Tiers that depend on the split-and-shift layout (recomputed each pass)."""
TIERS = GAME_TIERS + LAYOUT_TIERS
TROUBLE_TIERS = ("repeat_float", "color_rule", "floater_choice")
"""Tiers whose penalty in a matched game means a desirable rule gave way."""
TIER_NAMES = tuple(t.name for t in TIERS)
BYE_TIER = TIER_NAMES.index("bye_choice")


def game_costs(games: Games, ctx: Context) -> list[tuple[int, ...]]:
    """Penalties of the layout-independent tiers for each of the candidate games: each
    criterion that applies this round runs once over all of them."""
    columns: list[list[int] | None] = [None] * len(GAME_TIERS)
    for tier, criterion in ctx.calls:
        column = criterion(games, ctx)
        before = columns[tier]
        columns[tier] = column if before is None else list(map(add, before, column))
    zeros = [0] * len(games)
    return list(zip(*(zeros if c is None else c for c in columns), strict=True))


def bye_costs(rank: int) -> tuple[int, ...]:
    """The layout-independent penalties of a bye edge: its recipient's rank."""
    costs = [0] * len(GAME_TIERS)
    costs[BYE_TIER] = rank
    return tuple(costs)


# --- scales ---------------------------------------------------------------------------


def tier_bound(tier: Tier, max_cost: int, players: int) -> int:
    """Most that ``tier`` can total over one perfect matching of ``players`` players."""
    if tier.bye_only:
        return max_cost
    bound = (players // 2) * max_cost
    return min(bound, players) if tier.per_player else bound


def scales_for(bounds: Sequence[int]) -> tuple[int, ...]:
    """Scale of each tier (most important first) from the bounds of the tiers."""
    scales = [0] * len(bounds)
    below = 0
    for t in range(len(bounds) - 1, -1, -1):
        scales[t] = below + 1
        below += bounds[t] * scales[t]
    return tuple(scales)


def worst_case_caps(players: int, span: int, egf: bool = False) -> tuple[int, ...]:
    """The largest penalty one edge can carry in each tier, for ``players`` players and a
    score span of ``span`` units (the difference between the highest and lowest McMahon
    score, times q); ``egf``: with EGF-style avoidance, whose total_difference tier then
    weighs (a game the whole span apart that avoidance objects to, at the capped price)."""
    caps = [t.cap(players, span) for t in TIERS]
    if not egf:
        caps[TIER_NAMES.index("total_difference")] = 0
    return tuple(caps)


def worst_case_bounds(players: int, span: int, egf: bool = False) -> tuple[int, ...]:
    """Tier bounds from :func:`worst_case_caps`."""
    nodes = players + players % 2  # an odd field has a bye node
    caps = worst_case_caps(players, span, egf)
    return tuple(tier_bound(t, cap, nodes) for t, cap in zip(TIERS, caps, strict=True))


def worst_case_scales(players: int, span: int, egf: bool = False) -> tuple[int, ...]:
    return scales_for(worst_case_bounds(players, span, egf))


def combine(costs: Sequence[int], scales: Sequence[int]) -> int:
    """Total penalty of one edge."""
    return sum(map(mul, costs, scales))
