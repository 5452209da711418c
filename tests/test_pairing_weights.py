"""The weight tiers act lexicographically: no combination of lower-tier penalties can
outweigh one step of a higher tier (AGA protocol, Program Implementation Notes: "set
various priorities at different numerical scales")."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from addin.core.european import FloatChoice, Options
from addin.core.model import Settings
from addin.core.pairing import bye, weights
from addin.core.pairing.colors import ColorBook
from addin.core.pairing.engine import PairingInput
from addin.core.pairing.field import prepare
from addin.core.pairing.graph import Density, candidate_pairs
from addin.core.pairing.problem import build_problem
from addin.core.pairing.simulate import SimTournament, make_players, random_rounds, simulate
from addin.core.pairing.solve import solve
from addin.core.pairing.structure import ideal
from addin.core.pairing.weights import TIER_NAMES, TIERS, Context

MAX_PLAYERS = 2000
MAX_ROUNDS = 10
MAX_SPAN_POINTS = 40
"""Largest McMahon score span covered by the fast solver's integer range: 30 one-point
bands (9d down to 20k) plus 10 rounds. Wider spans still pair exactly: the engine then
hands the weights to networkx, which computes with unbounded integers."""
MAX_EGF_PLAYERS = 200
"""The largest field whose worst case fits with EGF-style avoidance ("Avoidance may cost
(points)" above 0, any N: its price is capped at the span), whose total_difference tier
sits above the score tier. Larger EGF-style fields still pair exactly (networkx when their
real weights exceed; a 2,000-player synthetic round weighs about 2^103)."""


def max_lower_total(
    scales: tuple[int, ...], tier: int, players: int, span: int, egf: bool = False
) -> int:
    """The most all tiers below ``tier`` can add up to over one perfect matching: each of
    the ``players / 2`` games (and the bye) at the cap of every lower tier."""
    games = (players + 1) // 2
    caps = weights.worst_case_caps(players, span, egf)
    total = 0
    for lower in range(tier + 1, len(TIERS)):
        edges = 1 if TIERS[lower].bye_only else games
        total += edges * caps[lower] * scales[lower]
    return total


@pytest.mark.parametrize("players", [2, 3, 10, 101, 300, 700, MAX_PLAYERS])
@pytest.mark.parametrize("unit", [1, 2])
@pytest.mark.parametrize("egf", [False, True])
def test_one_step_of_a_tier_outweighs_every_lower_tier(players: int, unit: int, egf: bool) -> None:
    span = MAX_SPAN_POINTS * unit
    scales = weights.worst_case_scales(players, span, egf)
    for tier, name in enumerate(TIER_NAMES):
        assert scales[tier] > max_lower_total(scales, tier, players, span, egf), name


@pytest.mark.parametrize(("egf", "players"), [(False, MAX_PLAYERS), (True, MAX_EGF_PLAYERS)])
def test_worst_case_weights_fit_rustworkx_integers(egf: bool, players: int) -> None:
    """At 2,000 players (EGF style: 200), 10 rounds and a 40-point span in half points, the
    heaviest edge stays below the bound the engine hands to rustworkx (which computes in
    128-bit integers)."""
    span = MAX_SPAN_POINTS * 2
    scales = weights.worst_case_scales(players, span, egf)
    caps = weights.worst_case_caps(players, span, egf)
    heaviest = sum(c * s for c, s in zip(caps, scales, strict=True))
    assert heaviest < weights.SAFE_WEIGHT < 2**127


def test_the_egf_price_is_opengothas_reading_of_its_setting() -> None:
    """ "Avoidance may cost (points)" N is worth 1.2 N + 0.5 points of total score difference
    (OpenGotha's preferMMSDiffRatherThanSameClub, Tournament.costValue), in tenths of 1/q
    point; capped just above the most a pairing can total (every game the whole span
    apart), so the tier's cap holds for any N and q."""
    assert weights.egf_price(3, 1, 40, 100) == 41  # 4.1 points
    assert weights.egf_price(3, 2, 80, 100) == 82  # 4.1 points in half points
    assert weights.egf_price(1, 1, 40, 100) == 17
    assert weights.egf_price(100, 2, 2, 4) == weights.egf_price(60, 2, 2, 4) == 45
    assert weights.egf_price(100, 1000, 80, 2000) == 10 * 80 * 1000 + 5


def test_tier_order_follows_the_protocol() -> None:
    """Score difference first (in EGF style its total, then its square; else the square
    alone); criterion 3 before criterion 4 (relaxed last); both before
    the choice of floater; additional considerations only by transposing or switching,
    so below the floater and above split and shift; switches after all transpositions."""
    assert TIER_NAMES == (
        "total_difference",
        "mms_difference",
        "bye_choice",
        "repeat_float",
        "color_rule",
        "floater_choice",
        "avoidance",
        "handicap_and_colour",
        "switch",
        "shift",
    )


def _field(seed: int, n: int, played: int, **settings: object) -> PairingInput:
    t = simulate(n, played, total_rounds=8, seed=seed, byes=0.05, volunteers=0.02)
    t.settings = replace(t.settings, **settings)  # type: ignore[arg-type]
    return t.input_for(played + 1)


def _lopsided(seed: int, n: int, played: int, **settings: object) -> PairingInput:
    """A field after random pairings: colour balances up to +-``played``, rematches spread
    across score groups (histories no McMahon pairing makes, to stress the tiers)."""
    rng = random.Random(seed)
    players = make_players(n, rng)
    t = SimTournament(players, replace(Settings(rounds=8, seed=seed), **settings))
    t.rounds = random_rounds(players, played, rng)
    return t.input_for(played + 1)


@pytest.mark.parametrize("seed", range(10))
def test_no_criterion_exceeds_its_cap(seed: int) -> None:
    """The caps the proof uses hold for every candidate game of real fields, EGF style
    (avoidance that may cost up to N points, N beyond the span too) and colour balances
    far off included."""
    points = (0, 3, 100)[seed % 3]
    switches = {"avoid_same_club": True, "avoid_handicap_games": True, "avoidance_points": points}
    if seed % 2:
        inp = _field(seed, 40, seed % 5, **switches)
        inp = replace(inp, round=1 + seed % 3)  # first half: avoidance and handicap tiers on
    else:
        inp = replace(_lopsided(seed, 40, 4, **switches), round=4)  # 4 of 8: first half
    field = prepare(inp)
    ctx = Context(field, ColorBook(field))
    n = len(field.pool)
    span = (field.pool[0].units - field.pool[-1].units) if field.pool else 0
    caps = weights.worst_case_caps(n, span, egf=points > 0)
    for costs in weights.game_costs(list(itertools.combinations(range(n), 2)), ctx):
        for tier, cost, cap in zip(weights.GAME_TIERS, costs, caps[: len(costs)], strict=True):
            assert 0 <= cost <= cap, tier.name


@pytest.mark.parametrize("seed", range(6))
def test_a_game_weighs_the_same_alone_or_among_all_the_candidates(seed: int) -> None:
    """The criteria run over every candidate game at once; each game's penalties are the
    ones it has weighed on its own, whatever the other games (handicaps, restricted
    colours, EGF-style avoidance and the European float choices included)."""
    options = (
        Options(),
        Options(float_choice=FloatChoice.BGA),
        Options(float_choice=FloatChoice.EGF_SOS),
    )
    switches = {
        "avoid_same_club": True,
        "avoid_same_city": True,
        "avoid_handicap_games": True,
        "avoidance_points": seed % 3,
        "typed_options": options[seed % 3],
    }
    inp = replace(_lopsided(seed, 30, 3, **switches), round=3)
    field = prepare(inp)
    ctx = Context(field, ColorBook(field))
    games = list(itertools.combinations(range(len(field.pool)), 2))
    random.Random(seed).shuffle(games)
    together = weights.game_costs(games, ctx)
    alone = [weights.game_costs([g], ctx)[0] for g in games]
    assert together == alone
    assert any(any(costs) for costs in together)


def _perfect_matchings(nodes: list[int], allowed: set[tuple[int, int]]):
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for k, other in enumerate(rest):
        if (first, other) in allowed:
            for m in _perfect_matchings(rest[:k] + rest[k + 1 :], allowed):
                yield [(first, other), *m]


@pytest.mark.parametrize("seed", range(40))
def test_maximum_weight_is_the_lexicographic_optimum(seed: int) -> None:
    """Brute force on small fields: the matching of maximum weight has the smallest tier
    vector (compared tier by tier, most important first) of all perfect matchings."""
    rng = random.Random(seed)
    n = rng.randint(5, 10)
    if seed % 4 == 3:  # colour balances far off, EGF-style avoidance in the first half
        inp = _lopsided(seed, n, 3, avoid_same_club=True, avoidance_points=1 + seed % 3)
    else:
        inp = _field(seed, n, rng.randint(0, 2))
    field = prepare(inp)
    ctx = Context(field, ColorBook(field))
    odd = len(field.pool) % 2 == 1
    candidates = bye.candidate_sets(field)[-1] if odd else None
    ranks = bye.bye_rank(field, candidates) if candidates else None
    structure = ideal(field, None)
    pairs = candidate_pairs(field, ctx, structure, Density.COMPLETE)
    problem = build_problem(field, ctx, structure, pairs, ranks, {})
    cost = dict(zip(problem.edges, problem.costs, strict=True))
    found = solve(problem, "rustworkx")
    assert 2 * len(found) == problem.nodes
    vectors = [
        tuple(map(sum, zip(*(cost[e] for e in m), strict=True)))
        for m in _perfect_matchings(list(range(problem.nodes)), set(problem.edges))
    ]
    best = tuple(map(sum, zip(*(cost[e] for e in found), strict=True)))
    assert best == min(vectors)
