"""Colour balance beyond the AGA limits: within a score group, among pairings of equal
score difference, floats and floaters, the one whose even games leave fewest players two
colours off balance, counted after the colouring the games will get; and White to whoever
has had more Blacks."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from addin.core.model import ColorPolicy, Game, HandicapPolicy, Player, Result, Round, Settings
from addin.core.pairing import PairingInput, pair_round
from addin.core.pairing.colors import ColorBook
from addin.core.pairing.field import prepare
from addin.core.pairing.simulate import SimTournament, make_players, random_rounds
from addin.core.pairing.weights import Context, colour_balance

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


def _games(player: int, colours: str, first_opponent: int) -> list[tuple[int, Game]]:
    """``player``'s even games of rounds 1.. in ``colours`` ("W"/"B"), each against a new
    opponent from ``first_opponent`` on (players who are not in the round being paired)."""
    out = []
    for number, colour in enumerate(colours, start=1):
        other = first_opponent + number
        game = Game(player, other) if colour == "W" else Game(other, player)
        out.append((number, replace(game, result=Result.JIGO)))
    return out


def _history(colours: dict[int, str]) -> tuple[Round, ...]:
    by_round: dict[int, list[Game]] = {}
    for player, sequence in colours.items():
        for number, game in _games(player, sequence, 100 * player):
            by_round.setdefault(number, []).append(game)
    return tuple(Round(number, tuple(games)) for number, games in sorted(by_round.items()))


def off_after(result_games: tuple[Game, ...], history: tuple[Round, ...]) -> int:
    """Players whose Whites minus Blacks, this round included, are two or more either way."""
    balance: dict[int, int] = {}
    for rnd in history:
        for g in rnd.games:
            balance[g.white] = balance.get(g.white, 0) + 1
            balance[g.black] = balance.get(g.black, 0) - 1
    for g in result_games:
        balance[g.white] = balance.get(g.white, 0) + 1
        balance[g.black] = balance.get(g.black, 0) - 1
    return sum(abs(balance[p]) >= 2 for g in result_games for p in (g.white, g.black))


def test_a_pair_of_plus_two_and_plus_four_is_priced_as_the_colouring_ends_it() -> None:
    # One score group: 1 (+2) and 3 (+4) would meet in the fold order (1-3, 2-4). Coloured
    # as the colouring step does (Black to whoever has had more Whites) they end at +3 and
    # +3, two players off balance; priced by the better colouring (+1 and +5) that pair
    # looked as good as any other. Against the two balanced players each ends one off.
    colours = {1: "WBWW", 2: "WBWB", 3: "WWWW", 4: "BWBW"}
    players = tuple(Player(k, f"P{k}", rating=7.0 - 0.1 * k) for k in colours)
    history = _history(colours)
    scores = {k: 0.0 for k in colours}
    inp = PairingInput(5, 10, players, scores, history, (), SETTINGS)
    result = pair_round(inp)
    assert {frozenset((g.white, g.black)) for g in result.games} != {
        frozenset((1, 3)),
        frozenset((2, 4)),
    }
    for g in result.games:
        if {g.white, g.black} & {1, 3}:
            assert g.black in (1, 3), "the one with more Whites takes Black"
    assert off_after(result.games, history) == 1


@pytest.mark.parametrize("policy", [ColorPolicy.RESTRICTED, ColorPolicy.UNRESTRICTED])
@pytest.mark.parametrize("seed", range(6))
def test_the_colour_tier_prices_the_colouring_the_colouring_step_gives(
    policy: ColorPolicy, seed: int
) -> None:
    """For every candidate game of fields with lopsided colour histories (random pairings,
    so balances reach +-4), the colour tier's penalty is the number of its players the
    colouring step itself leaves two or more colours off balance."""
    rng = random.Random(seed)
    players = make_players(24, rng)
    settings = Settings(rounds=8, seed=seed, color_policy=policy)
    t = SimTournament(players, settings)
    t.rounds = random_rounds(players, 4, rng)
    field = prepare(t.input_for(5))
    book = ColorBook(field)
    ctx = Context(field, book)
    balance = field.history.balance
    for hi, lo in itertools.combinations(field.pool, 2):
        coloured = book.colour(hi, lo)
        after = [
            balance.get(e.id, 0) + (0 if coloured.handicap else 1 if e is coloured.white else -1)
            for e in (hi, lo)
        ]
        assert colour_balance([(hi.index, lo.index)], ctx) == [sum(abs(b) >= 2 for b in after)]
