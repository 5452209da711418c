"""The weight tiers act lexicographically: no combination of lower-tier penalties can
outweigh one step of a higher tier (AGA protocol, Program Implementation Notes: "set
various priorities at different numerical scales")."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from addin.core.pairing import bye, weights
from addin.core.pairing.colors import ColorBook
from addin.core.pairing.engine import PairingInput
from addin.core.pairing.field import prepare
from addin.core.pairing.graph import Density, candidate_pairs
from addin.core.pairing.problem import build_problem
from addin.core.pairing.simulate import simulate
from addin.core.pairing.solve import solve
from addin.core.pairing.structure import ideal
from addin.core.pairing.weights import TIER_NAMES, TIERS, Candidate, Context

MAX_PLAYERS = 2000
MAX_ROUNDS = 10
MAX_SPAN_POINTS = 40
"""Largest McMahon score span covered by the fast solver's integer range: 30 one-point
bands (9d down to 20k) plus 10 rounds. Wider spans still pair exactly: the engine then
hands the weights to networkx, which computes with unbounded integers."""


def max_lower_total(scales: tuple[int, ...], tier: int, players: int, span: int) -> int:
    """The most all tiers below ``tier`` can add up to over one perfect matching: each of
    the ``players / 2`` games (and the bye) at the cap of every lower tier."""
    games = (players + 1) // 2
    total = 0
    for lower in range(tier + 1, len(TIERS)):
        t = TIERS[lower]
        edges = 1 if t.bye_only else games
        total += edges * t.cap(players, span) * scales[lower]
    return total


@pytest.mark.parametrize("players", [2, 3, 10, 101, 700, MAX_PLAYERS])
@pytest.mark.parametrize("unit", [1, 2])
def test_one_step_of_a_tier_outweighs_every_lower_tier(players: int, unit: int) -> None:
    span = MAX_SPAN_POINTS * unit
    scales = weights.worst_case_scales(players, span)
    for tier, name in enumerate(TIER_NAMES):
        assert scales[tier] > max_lower_total(scales, tier, players, span), name


def test_worst_case_weights_fit_rustworkx_integers() -> None:
    """At 2,000 players, 10 rounds and half points, the heaviest edge stays below the
    bound the engine hands to rustworkx (which computes in 128-bit integers)."""
    span = MAX_SPAN_POINTS * 2
    scales = weights.worst_case_scales(MAX_PLAYERS, span)
    heaviest = sum(t.cap(MAX_PLAYERS, span) * s for t, s in zip(TIERS, scales, strict=True))
    assert heaviest < weights.SAFE_WEIGHT < 2**127


def test_tier_order_follows_the_protocol() -> None:
    """Score difference first; criterion 3 before criterion 4 (relaxed last); both before
    the choice of floater; additional considerations only by transposing or switching,
    so below the floater and above split and shift; switches after all transpositions."""
    assert TIER_NAMES == (
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


@pytest.mark.parametrize("seed", range(6))
def test_no_criterion_exceeds_its_cap(seed: int) -> None:
    """The caps the proof uses hold for every candidate game of real fields."""
    inp = _field(seed, 40, seed % 5, avoid_same_club=True, avoid_handicap_games=True)
    inp = replace(inp, round=1 + seed % 3)  # first half: avoidance and handicap tiers on
    field = prepare(inp)
    ctx = Context(field, ColorBook(field))
    n = len(field.pool)
    span = (field.pool[0].units - field.pool[-1].units) if field.pool else 0
    for i, j in itertools.combinations(range(n), 2):
        c = Candidate(field.pool[i], field.pool[j])
        costs = weights.game_costs(c, ctx)
        for tier, cost in zip(weights.GAME_TIERS, costs, strict=True):
            assert 0 <= cost <= tier.cap(n, span), tier.name


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
