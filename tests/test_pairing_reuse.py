"""What the engine keeps from one pass of a round to the next (candidate-graph windows,
game costs, handicap stones from per-player ratings) never changes a pairing: on seeded
fields late in the event, where colour restrictions and floats pile up, the pairing is
the one of the reference path that recomputes everything each pass (``reuse=False``). What
it borrows from the process for a round (the cycle collector, paused) it gives back."""

from __future__ import annotations

import gc
import itertools
from dataclasses import replace

import pytest

from addin.core.model import HandicapBasis, HandicapPolicy, Settings
from addin.core.pairing import pair_round
from addin.core.pairing.colors import ColorBook, stones
from addin.core.pairing.errors import PairingError
from addin.core.pairing.field import prepare
from addin.core.pairing.simulate import simulate
from addin.core.pairing.weights import Context

SETTINGS = {
    "default": Settings(),
    "even above 2d, full, at most 5, top band even": Settings(
        handicap_policy=HandicapPolicy.FULL,
        handicap_even_from=2.0,
        handicap_ceiling=5,
        top_band_even=True,
    ),
    "McMahon-score basis, minus 2": Settings(
        handicap_basis=HandicapBasis.MMS, handicap_policy=HandicapPolicy.MINUS_2
    ),
    "no handicap": Settings(handicap_policy=HandicapPolicy.NONE),
}


@pytest.mark.parametrize(("seed", "played"), [(1, 5), (2, 7), (3, 9)])
def test_pairing_is_the_reference_paths(seed: int, played: int) -> None:
    """Sparse graphs (350 players, 10 rounds, byes and drops), several passes a round."""
    t = simulate(350, played, total_rounds=10, seed=seed, byes=0.03, drops=0.01)
    inp = t.input_for(played + 1)
    kept = pair_round(inp, graph="sparse")
    reference = pair_round(inp, graph="sparse", reuse=False)
    assert kept.stats.graph in ("sparse", "denser")
    assert kept.stats.solves > 1  # passes happened, so something was reused
    assert kept.games == reference.games
    assert kept.byes == reference.byes
    assert kept.stats == reference.stats
    assert kept.warnings == reference.warnings


@pytest.mark.parametrize("name", SETTINGS)
def test_stones_from_per_player_ratings_are_the_handicap_schemes(name: str) -> None:
    """Every pair of a field: the pairing's shortcut gives the stones of the scheme."""
    t = simulate(120, 3, total_rounds=6, seed=4)
    settings = replace(SETTINGS[name], rounds=6)
    f = prepare(replace(t.input_for(4), settings=settings))
    fast, slow = Context(f, ColorBook(f)), Context(f, ColorBook(f), fast_stones=False)
    seen = set()
    for hi, lo in itertools.combinations(f.pool, 2):
        expected = stones(hi, lo, settings)
        i, j = hi.index, lo.index
        assert fast.stones_between(i, j) == slow.stones_between(i, j) == expected, (
            hi.rating,
            lo.rating,
        )
        seen.add(expected)
    assert len(seen) > 1 or settings.handicap_policy is HandicapPolicy.NONE


def test_the_cycle_collector_resumes_after_a_round_as_the_host_had_it() -> None:
    """Pairing pauses Python's cycle collector and puts it back as it was: on after a round
    paired or refused, and still off for a host that had turned it off."""
    t = simulate(40, 2, total_rounds=6, seed=3)
    inp = t.input_for(3)
    assert gc.isenabled()
    pair_round(inp)
    assert gc.isenabled()
    impossible = replace(inp, round=7)  # not a round of a 6-round event
    with pytest.raises(PairingError):
        pair_round(impossible)
    assert gc.isenabled()
    gc.disable()
    try:
        pair_round(inp)
        assert not gc.isenabled()
    finally:
        gc.enable()
