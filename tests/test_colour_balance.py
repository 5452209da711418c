"""Colour balance beyond the AGA limits: within a score group, among pairings of equal
score difference, floats and floaters, the one whose even games leave fewest players two
colours off balance; and White to whoever has had more Blacks."""

from __future__ import annotations

from addin.core.model import ColorPolicy, Game, HandicapPolicy, Player, Result, Round, Settings
from addin.core.pairing import PairingInput, pair_round

SETTINGS = Settings(handicap_policy=HandicapPolicy.NONE, color_policy=ColorPolicy.UNRESTRICTED)


def test_a_group_pairs_white_with_black_before_the_fold_order() -> None:
    # Players 1-4 won round 1, 1 and 3 as White, 2 and 4 as Black; 5-8 lost.
    players = tuple(Player(k, f"P{k}", rating=7.0 - 0.1 * k) for k in range(1, 9))
    first = Round(
        1,
        (
            Game(1, 5, result=Result.WHITE_WINS),
            Game(6, 2, result=Result.BLACK_WINS),
            Game(3, 7, result=Result.WHITE_WINS),
            Game(8, 4, result=Result.BLACK_WINS),
        ),
    )
    scores = {k: 1.0 if k <= 4 else 0.0 for k in range(1, 9)}
    result = pair_round(PairingInput(2, 6, players, scores, (first,), (), SETTINGS))
    white_before = {1, 3, 6, 8}
    top = [g for g in result.games if g.white <= 4]
    assert len(top) == 2 and all(g.black <= 4 for g in top), "the score groups stay whole"
    for g in result.games:
        # The fold order would pair 1-3 and 2-4 (both had White, both had Black); balance
        # pairs a White with a Black, and the one who had Black takes White.
        assert (g.white in white_before) != (g.black in white_before), g
        assert g.black in white_before, g
    assert result.stats.mms_squared_difference == 0
