"""rustworkx (the default) against networkx (the reference implementation): on the same
weighted graphs both find matchings of equal total weight, and ``pair_round`` gives the
same pairing quality with either."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from addin.core.model import ColorPolicy, HandicapPolicy, Settings
from addin.core.pairing import PairingError, PairingInput, bye, pair_round
from addin.core.pairing.colors import ColorBook
from addin.core.pairing.field import prepare
from addin.core.pairing.graph import Density, candidate_pairs
from addin.core.pairing.problem import Problem, build_problem
from addin.core.pairing.simulate import SimTournament, make_players, random_rounds
from addin.core.pairing.solve import matching_weight, solve
from addin.core.pairing.structure import ideal
from addin.core.pairing.weights import SAFE_WEIGHT, Context

SETTINGS = (
    Settings(),
    Settings(color_policy=ColorPolicy.UNRESTRICTED, handicap_policy=HandicapPolicy.NONE),
    Settings(avoid_same_club=True, avoid_same_state=True, avoid_handicap_games=True),
)


def random_tournament(seed: int) -> SimTournament:
    """2-40 players after 0-5 rounds of random (not engine-made) pairings."""
    rng = random.Random(seed)
    n = rng.randint(2, 40)
    settings = SETTINGS[seed % len(SETTINGS)]
    t = SimTournament(make_players(n, rng), replace(settings, rounds=8))
    t.rounds = random_rounds(t.players, rng.randint(0, 5), rng)
    return t


@pytest.mark.parametrize("seed", range(250))
def test_backends_find_equal_weight_matchings(seed: int) -> None:
    t = random_tournament(seed)
    field = prepare(t.input_for(len(t.rounds) + 1))
    ctx = Context(field, ColorBook(field))
    try:
        candidates = bye.candidate_sets(field)[-1] if len(field.pool) % 2 else None
    except PairingError:  # nobody may take the bye: compare the partial matchings
        candidates = None
    ranks = bye.bye_rank(field, candidates) if candidates else None
    structure = ideal(field, None)
    pairs = candidate_pairs(field, ctx, structure, Density.COMPLETE)
    problem = build_problem(field, ctx, structure, pairs, ranks, {})
    fast, reference = solve(problem, "rustworkx"), solve(problem, "networkx")
    assert len(fast) == len(reference)
    assert matching_weight(problem, fast) == matching_weight(problem, reference)


@pytest.mark.parametrize("seed", range(0, 250, 5))
def test_pair_round_quality_is_the_same_with_either_backend(seed: int) -> None:
    t = random_tournament(seed)
    inp = t.input_for(len(t.rounds) + 1)
    try:
        fast = pair_round(inp, "rustworkx")
    except ValueError as error:
        with pytest.raises(ValueError, match=str(error)[:40]):
            pair_round(inp, "networkx")
        return
    reference = pair_round(inp, "networkx")
    assert fast.stats.tier_totals[:-2] == reference.stats.tier_totals[:-2]
    assert len(fast.games) == len(reference.games)


def test_unknown_backend_is_refused() -> None:
    t = random_tournament(1)
    with pytest.raises(ValueError, match="unknown matching backend"):
        pair_round(t.input_for(1), "scipy")  # type: ignore[arg-type]


def test_weights_beyond_rustworkx_integers_go_to_networkx() -> None:
    """rustworkx computes in 128-bit integers; weights that would not fit (here an absurd
    McMahon score span) are solved exactly by networkx instead, with a warning."""
    rng = random.Random(7)
    players = make_players(40, rng)
    scores = {p.aga_id: float(k % 4) * 1e15 for k, p in enumerate(players)}
    inp = PairingInput(1, 5, tuple(players), scores)
    result = pair_round(inp)
    assert any("networkx" in w for w in result.warnings)
    assert result.stats.tier_totals == pair_round(inp, "networkx").stats.tier_totals
    assert result.stats.cross_group_games == 0


@pytest.mark.parametrize("seed", range(5))
def test_rustworkx_is_exact_up_to_the_safe_weight(seed: int) -> None:
    """Random graphs whose weights reach SAFE_WEIGHT: rustworkx still agrees with networkx
    (its 128-bit dual variables have room to spare)."""
    rng = random.Random(seed)
    nodes = 60
    edges = [(i, j) for i in range(nodes) for j in range(i + 1, nodes) if rng.random() < 0.3]
    weights = [SAFE_WEIGHT - rng.randrange(2**100) * rng.randrange(2**19) for _ in edges]
    problem = Problem(nodes, tuple(edges), ((),) * len(edges), (), tuple(weights), None)
    fast, reference = solve(problem, "rustworkx"), solve(problem, "networkx")
    assert matching_weight(problem, fast) == matching_weight(problem, reference)
