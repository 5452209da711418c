"""The sparse candidate graph: as good as the complete graph, and never a reason to miss
a valid pairing (denser and complete fallbacks)."""

from __future__ import annotations

import itertools

import pytest

from addin.core.model import Game, HandicapPolicy, Player, Round, Settings
from addin.core.pairing import PairingInput, pair_round
from addin.core.pairing.engine import COMPLETE_UP_TO
from addin.core.pairing.simulate import simulate


@pytest.mark.parametrize(
    ("seed", "n", "played"),
    [(s, n, p) for s, (n, p) in enumerate(itertools.product((90, 150, 240), (1, 3, 5, 7)))],
)
def test_sparse_graph_finds_the_complete_graph_optimum(seed: int, n: int, played: int) -> None:
    """Simulated tournaments (8 rounds, byes, drops, volunteers): the sparse graph's
    pairing has exactly the complete graph's penalty in every tier."""
    t = simulate(n, played, total_rounds=8, seed=seed, byes=0.05, drops=0.01, volunteers=0.01)
    inp = t.input_for(played + 1)
    sparse = pair_round(inp, graph="sparse")
    complete = pair_round(inp, graph="complete")
    assert sparse.stats.graph in ("sparse", "denser")
    assert complete.stats.graph == "complete"
    assert sparse.stats.tier_totals == complete.stats.tier_totals
    assert sparse.stats.edges < complete.stats.edges


def _round_robin(players: list[int], first_round: int) -> list[Round]:
    """All rounds of a round robin (circle method) among ``players``."""
    ring = list(players)
    rounds = []
    for k in range(len(ring) - 1):
        half = len(ring) // 2
        games = tuple(Game(ring[i], ring[-1 - i]) for i in range(half))
        rounds.append(Round(first_round + k, games))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def test_denser_graph_when_the_sparse_one_has_no_perfect_matching() -> None:
    """The top ten have all met each other, so each must float down; the sparse graph
    joins them to too few players below, the denser one pairs everybody."""
    players = tuple(Player(k, f"P{k}", rating=round(9.0 - 0.03 * k, 2)) for k in range(1, 251))
    scores = {k: 3.0 if k <= 10 else 0.0 for k in range(1, 251)}
    history = tuple(_round_robin(list(range(1, 11)), 1))
    inp = PairingInput(10, 12, players, scores, history, settings=Settings(rounds=12))
    result = pair_round(inp)
    assert result.stats.graph == "denser"
    top = [g for g in result.games if min(g.players) <= 10]
    assert len(top) == 10 and all(max(g.players) > 10 for g in top)
    assert result.stats.tier_totals == pair_round(inp, graph="complete").stats.tier_totals


def test_auto_mode_is_complete_for_small_fields_and_sparse_for_large() -> None:
    small = simulate(COMPLETE_UP_TO, 1, seed=3)
    large = simulate(COMPLETE_UP_TO + 2, 1, seed=3)
    assert pair_round(small.input_for(2)).stats.graph == "complete"
    assert pair_round(large.input_for(2)).stats.graph == "sparse"


def test_unknown_graph_mode_is_refused() -> None:
    t = simulate(4, 0, seed=1)
    with pytest.raises(ValueError, match="unknown graph mode"):
        pair_round(t.input_for(1), graph="dense")  # type: ignore[arg-type]


def test_sparse_graph_joins_players_who_balance_each_others_colours() -> None:
    """One score group of 120, all even games: the top half's first 40 and the bottom
    half's first 40 had White in round 1, the others Black. Around every player's
    split-and-shift partner sit players of his own colour; the best pairing crosses the
    halves rank for rank (White with Black), and only the 40 Whites left over meet each
    other. The sparse graph finds the complete graph's pairing in every tier down to the
    switches (without its colour partners: 36 off balance instead of 20, and 12 switches);
    in the last, the distance from split-and-shift, the complete graph reaches further."""
    players = tuple(Player(k, f"P{k}", rating=round(6.0 - 0.01 * k, 2)) for k in range(1, 121))
    white = {k for k in range(1, 121) if (k - 1) % 60 < 40}
    first = Round(
        1, tuple(Game(k, 1000 + k) if k in white else Game(1000 + k, k) for k in range(1, 121))
    )
    settings = Settings(rounds=6, handicap_policy=HandicapPolicy.NONE)
    inp = PairingInput(2, 6, players, {k: 0.0 for k in range(1, 121)}, (first,), settings=settings)
    sparse = pair_round(inp, graph="sparse")
    complete = pair_round(inp, graph="complete")
    assert sparse.stats.graph == "sparse"
    assert sparse.stats.tier_totals[:-1] == complete.stats.tier_totals[:-1]
    assert dict(sparse.stats.tier_totals)["handicap_and_colour"] == 20
    off = sum(g.white in white and g.black in white for g in sparse.games)
    assert off == 20, "40 Whites meet each other, one of each pair off balance"
