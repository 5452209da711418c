"""The AGA Swiss McMahon Pairing Protocol, section by section, as executable examples.

Each test names the protocol passage it checks; expected pairings are derived from the
text (players are numbered in field order: McMahon score, then rating, descending).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import pytest

from addin.core.model import (
    Bye,
    ByeKind,
    ColorPolicy,
    Game,
    HandicapPolicy,
    PairRequest,
    Player,
    RequestKind,
    Result,
    Round,
    Settings,
    Status,
)
from addin.core.pairing import PairingError, PairingInput, PairingResult, pair_round

EVEN = Settings(handicap_policy=HandicapPolicy.NONE, color_policy=ColorPolicy.UNRESTRICTED)
"""Even games and free colours: isolates the criterion a test is about."""


def roster(n: int, **attributes: Sequence[str]) -> tuple[Player, ...]:
    """Players 1..n rated from 6.9 down in steps of 0.1 (player 1 strongest)."""
    out = []
    for k in range(1, n + 1):
        extra = {name: values[k - 1] for name, values in attributes.items()}
        out.append(Player(k, f"P{k}", rating=round(7.0 - 0.1 * k, 1), **extra))
    return tuple(out)


def games(*pairs: tuple[int, int], result: Result | None = None) -> tuple[Game, ...]:
    """Games of an earlier round. Without a result both players earned the same points,
    so the round floated nobody (criterion 3 stays out of the way)."""
    return tuple(Game(w, b, result=result) for w, b in pairs)


def pairing(
    players: Sequence[Player],
    scores: dict[int, float] | float = 0.0,
    *,
    round: int = 1,
    total: int = 6,
    history: Iterable[Round] = (),
    requests: Iterable[PairRequest] = (),
    settings: Settings = EVEN,
) -> PairingResult:
    if not isinstance(scores, dict):
        scores = {p.aga_id: float(scores) for p in players}
    inp = PairingInput(
        round=round,
        total_rounds=total,
        players=tuple(players),
        scores=scores,
        history=tuple(history),
        requests=tuple(requests),
        settings=settings,
    )
    result = pair_round(inp)
    assert pair_round(inp, "networkx").stats.tier_totals == result.stats.tier_totals
    return result


def pairs(result: PairingResult) -> set[tuple[int, int]]:
    return {(min(g.players), max(g.players)) for g in result.games}


def forced_bye(result: PairingResult) -> int | None:
    return next((b.player for b in result.byes if b.kind is ByeKind.FORCED), None)


# --- Basic Pairing: split and shift -------------------------------------------------------


def test_split_and_shift_pairs_top_half_against_bottom_half() -> None:
    """Basic Pairing: a score group of eight is paired 1-5, 2-6, 3-7, 4-8."""
    result = pairing(roster(8))
    assert pairs(result) == {(1, 5), (2, 6), (3, 7), (4, 8)}


def test_boards_are_numbered_from_the_top_of_the_field() -> None:
    result = pairing(roster(8))
    assert [min(g.players) for g in result.games] == [1, 2, 3, 4]
    assert [g.board for g in result.games] == [1, 2, 3, 4]


def test_transposition_affects_the_lowest_ranked_players() -> None:
    """Alternate pairings: 3-7 is a rematch; of the transpositions that avoid it (7<->8,
    6<->7, 5<->7, 3<->4, ...) the one affecting the lowest-ranked players is 7<->8."""
    history = [Round(1, games((3, 7)))]
    result = pairing(roster(8), round=2, history=history)
    assert pairs(result) == {(1, 5), (2, 6), (3, 8), (4, 7)}


def test_transpositions_come_before_switches() -> None:
    """1-5 is a rematch. A transposition avoids it, so no switch is used: every game
    still pairs a player of the top half with one of the bottom half."""
    result = pairing(roster(8), round=2, history=[Round(1, games((1, 5)))])
    assert (1, 5) not in pairs(result)
    assert all(min(p) <= 4 < max(p) for p in pairs(result))


def test_switch_when_no_transposition_works() -> None:
    """Player 1 has met the whole bottom half (5-8): no transposition helps, so a switch
    exchanges players across the halves; exactly one game is within each half."""
    history = [Round(r, games((1, 4 + r))) for r in range(1, 5)]
    result = pairing(roster(8), round=5, total=8, history=history)
    top_top = [p for p in pairs(result) if max(p) <= 4]
    bottom_bottom = [p for p in pairs(result) if min(p) > 4]
    assert len(top_top) == len(bottom_bottom) == 1
    assert not pairs(result) & {(1, k) for k in range(5, 9)}


# --- merging score groups ----------------------------------------------------------------

LETTERS = "ABCDEFGHIJ"


def test_merged_groups_example_a_to_j() -> None:
    """Basic Pairing, Example: A-F score 1, G-J score 0, A-D have all played each other.
    The merged group pairs A-E, B-F, C-G, D-H, I-J."""
    ids = {c: k for k, c in enumerate(LETTERS, start=1)}
    scores = {ids[c]: 1.0 if c in "ABCDEF" else 0.0 for c in LETTERS}
    history = [
        Round(1, games((1, 2), (3, 4))),  # A-B, C-D
        Round(2, games((1, 3), (2, 4))),  # A-C, B-D
        Round(3, games((1, 4), (2, 3))),  # A-D, B-C
    ]
    result = pairing(roster(10), scores, round=4, history=history)
    expected = {("A", "E"), ("B", "F"), ("C", "G"), ("D", "H"), ("I", "J")}
    assert pairs(result) == {(ids[a], ids[b]) for a, b in expected}
    assert result.stats.cross_group_games == 2


def test_merging_minimises_the_total_score_difference() -> None:
    """1 and 2 (score 2) have met: their group merges with the next one (score 1), whose
    two players float up; the score-0 group is not disturbed (a two-point float would
    cost more than two one-point floats)."""
    scores = {1: 2.0, 2: 2.0, 3: 1.0, 4: 1.0, 5: 0.0, 6: 0.0}
    result = pairing(roster(6), scores, round=2, history=[Round(1, games((1, 2)))])
    assert pairs(result) == {(1, 3), (2, 4), (5, 6)}
    assert result.stats.mms_squared_difference == 2.0


# --- odd-numbered groups: floaters -------------------------------------------------------

FLOAT_SCORES = {k: 1.0 if k <= 5 else 0.0 for k in range(1, 11)}
"""Players 1-5 score 1 (odd group), 6-10 score 0."""


def up_floater(result: PairingResult) -> int:
    (game,) = [g for g in result.games if FLOAT_SCORES[g.white] != FLOAT_SCORES[g.black]]
    return max(game.players)


def test_floater_is_the_strongest_of_the_next_lower_group() -> None:
    """Odd-Numbered Groups: a player from the next lower group floats up, the strongest;
    the floater joins the bottom of the group, so it meets the middle player (1-4, 2-5,
    3-6), and the lower group pairs the rest by split and shift (7-9, 8-10)."""
    result = pairing(roster(10), FLOAT_SCORES)
    assert up_floater(result) == 6
    assert pairs(result) == {(1, 4), (2, 5), (3, 6), (7, 9), (8, 10)}
    (note,) = [g.notes for g in result.games if 6 in g.players]
    assert "Float" in note and "up" in note


def test_floater_must_permit_a_valid_pairing() -> None:
    """Player 6 has met all of 1-5: the floater is the strongest who permits a pairing."""
    history = [Round(r, games((r, 6))) for r in range(1, 6)]
    result = pairing(roster(10), FLOAT_SCORES, round=6, total=8, history=history)
    assert up_floater(result) == 7


def _floated_up_last_round(number: int, player: int = 6) -> list[Round]:
    """``player`` floated up in round ``number``: he beat player 11 (a dropped player whose
    score was higher then; the engine reads earlier scores back from the results)."""
    return [Round(number, (Game(11, player, result=Result.BLACK_WINS),))]


@pytest.mark.parametrize(("round", "total"), [(3, 6), (4, 5), (4, 6)])
def test_criterion_3_no_float_twice_in_the_same_direction(round: int, total: int) -> None:
    """Criterion 3: player 6 floated up last round, so the next strongest floats up."""
    field = (*roster(10), Player(11, "P11", rating=7.0, status=Status.DROPPED))
    scores = {**FLOAT_SCORES, 11: 2.0}
    result = pairing(
        field, scores, round=round, total=total, history=_floated_up_last_round(round - 1)
    )
    assert up_floater(result) == 7
    assert result.stats.float_breaks == 0


@pytest.mark.parametrize(("round", "total"), [(5, 5), (5, 6), (6, 6), (9, 10)])
def test_criterion_3_is_lifted_at_the_end(round: int, total: int) -> None:
    """Criterion 3 does not apply in the final round of a tournament of fewer than six
    rounds, nor in the last two rounds of a longer one: the strongest floats again."""
    field = (*roster(10), Player(11, "P11", rating=7.0, status=Status.DROPPED))
    scores = {**FLOAT_SCORES, 11: 2.0}
    result = pairing(
        field, scores, round=round, total=total, history=_floated_up_last_round(round - 1)
    )
    assert up_floater(result) == 6


def test_criterion_3_relaxed_when_nothing_else_works() -> None:
    """Criteria 3 and 4 are desirable, not mandatory: player 1 has met 3 and 4, so he
    must meet 2, who floated up last round; the break is made and noted."""
    field = (*roster(4), Player(11, "P11", rating=7.0, status=Status.DROPPED))
    scores = {1: 1.0, 2: 0.0, 3: 0.0, 4: 0.0, 11: 2.0}
    history = [Round(1, games((1, 3))), Round(2, games((1, 4))), *_floated_up_last_round(3, 2)]
    result = pairing(field, scores, round=4, total=6, history=history)
    assert pairs(result) == {(1, 2), (3, 4)}
    assert result.stats.float_breaks == 1
    assert any("Criterion 3 relaxed" in g.notes for g in result.games)
    assert result.warnings


# --- byes ---------------------------------------------------------------------------------

BYE_SCORES = {1: 1.0, 2: 1.0, 3: 1.0, 4: 0.0, 5: 0.0}


def test_forced_bye_goes_to_the_lowest_rated_of_the_lowest_group() -> None:
    result = pairing(roster(5), BYE_SCORES)
    assert forced_bye(result) == 5
    assert len(result.games) == 2


def test_no_second_forced_bye() -> None:
    """Criterion 2: player 5 had a forced bye, so the next lowest-rated player gets it."""
    history = [Round(1, games((1, 2), (3, 4)), byes=(Bye(5, ByeKind.FORCED),))]
    result = pairing(roster(5), BYE_SCORES, round=2, history=history)
    assert forced_bye(result) == 4


def test_voluntary_byes_do_not_count_as_forced_byes() -> None:
    history = [Round(1, games((1, 2), (3, 4)), byes=(Bye(5, ByeKind.VOLUNTARY),))]
    result = pairing(roster(5), BYE_SCORES, round=2, history=history)
    assert forced_bye(result) == 5


def test_bye_volunteer_first() -> None:
    """A bye volunteer designated by the TD takes the forced bye, even from the top group
    and even after an earlier forced bye (criterion 2 allows volunteers any number)."""
    field = list(roster(5))
    field[1] = Player(2, "P2", rating=6.8, bye_volunteer=True)
    history = [Round(1, games((1, 3), (4, 5)), byes=(Bye(2, ByeKind.FORCED),))]
    result = pairing(field, BYE_SCORES, round=2, history=history)
    assert forced_bye(result) == 2


def test_bye_volunteer_for_one_round() -> None:
    """A player may volunteer for the bye of a given round only."""
    field = list(roster(5))
    field[0] = Player(1, "P1", rating=6.9, volunteer_rounds=frozenset({2}))
    assert forced_bye(pairing(field, BYE_SCORES, round=2)) == 1
    assert forced_bye(pairing(field, BYE_SCORES, round=3)) == 5


def test_bye_recipient_must_leave_a_valid_pairing() -> None:
    """The lowest-rated player (3) would leave 1 and 2, who have met: 2 takes the bye."""
    scores = {1: 1.0, 2: 0.0, 3: 0.0}
    result = pairing(roster(3), scores, round=2, history=[Round(1, games((1, 2)))])
    assert forced_bye(result) == 2
    assert pairs(result) == {(1, 3)}


def test_bye_moves_up_when_the_lowest_group_cannot_take_it() -> None:
    """Everyone of the lowest group had a forced bye: the pairings above are undone until
    a recipient is found - the lowest-rated player of the next group."""
    scores = {1: 1.0, 2: 1.0, 3: 1.0, 4: 0.0, 5: 0.0}
    history = [
        Round(1, games((1, 5)), byes=(Bye(4, ByeKind.FORCED),)),
        Round(2, games((1, 4)), byes=(Bye(5, ByeKind.FORCED),)),
    ]
    result = pairing(roster(5), scores, round=3, history=history)
    assert forced_bye(result) == 3
    assert pairs(result) == {(1, 2), (4, 5)}


def test_no_one_may_take_the_bye() -> None:
    history = [Round(r, (), byes=(Bye(r, ByeKind.FORCED),)) for r in (1, 2, 3)]
    with pytest.raises(PairingError, match="forced bye"):
        pairing(roster(3), round=4, history=history)


def test_voluntary_byes_and_dropped_players_are_not_paired() -> None:
    """Remove Players Receiving Byes: a voluntary bye (requested for this round) and a
    dropped player are left out; the request comes back as a voluntary bye."""
    field = list(roster(6))
    field[0] = Player(1, "P1", rating=6.9, bye_requests=frozenset({1}))
    field[5] = Player(6, "P6", rating=6.4, status=Status.DROPPED)
    result = pairing(field)
    assert result.byes == (Bye(1, ByeKind.VOLUNTARY),)
    assert pairs(result) == {(2, 4), (3, 5)}


# --- criterion 4: colours -------------------------------------------------------------

RESTRICTED = Settings(handicap_policy=HandicapPolicy.NONE, color_policy=ColorPolicy.RESTRICTED)


def _colour_history(whites: Sequence[int], blacks: Sequence[int], rounds: int) -> list[Round]:
    """``whites`` took White and ``blacks`` Black in each of ``rounds`` rounds, against
    outsiders 101, 102, ... (players no longer in the field)."""
    out = []
    for r in range(1, rounds + 1):
        played = [Game(p, 100 + 10 * r + k) for k, p in enumerate(whites)]
        played += [Game(100 + 10 * r + 5 + k, p) for k, p in enumerate(blacks)]
        out.append(Round(r, tuple(played)))
    return out


def test_criterion_4_no_colour_four_times_running() -> None:
    """Players 1 and 3 had White three times running, 2 and 4 Black: the ideal 1-3, 2-4
    would give one of them a fourth; the transposition 1-4, 2-3 keeps criterion 4."""
    history = _colour_history([1, 3], [2, 4], 3)
    result = pairing(roster(4), round=4, total=8, history=history, settings=RESTRICTED)
    assert pairs(result) == {(1, 4), (2, 3)}
    assert {(g.white, g.black) for g in result.games} == {(4, 1), (2, 3)}
    assert result.stats.color_breaks == 0


def test_criterion_4_not_applied_with_unrestricted_colours() -> None:
    history = _colour_history([1, 3], [2, 4], 3)
    result = pairing(roster(4), round=4, total=8, history=history, settings=EVEN)
    assert pairs(result) == {(1, 3), (2, 4)}


def test_criterion_4_no_colour_in_more_than_half_the_rounds() -> None:
    """Four rounds: after White twice (not running: W, B, W) a third White would exceed
    half of the rounds."""
    history = [
        Round(1, (Game(1, 101), Game(2, 102), Game(103, 3), Game(104, 4))),
        Round(2, (Game(111, 1), Game(112, 2), Game(3, 113), Game(4, 114))),
        Round(3, (Game(1, 121), Game(2, 122), Game(123, 3), Game(124, 4))),
    ]
    result = pairing(roster(4), round=4, total=4, history=history, settings=RESTRICTED)
    assert {g.black for g in result.games} == {1, 2}
    assert result.stats.color_breaks == 0


def test_criterion_4_relaxed_when_unavoidable() -> None:
    history = _colour_history([1, 2], [], 3)
    result = pairing(roster(2), round=4, total=8, history=history, settings=RESTRICTED)
    assert result.stats.color_breaks == 1
    assert "Colour rule relaxed" in result.games[0].notes


def test_even_game_colours_balance_history() -> None:
    """Whoever has had White more often takes Black."""
    history = [Round(1, (Game(1, 101), Game(102, 2)))]
    result = pairing(roster(2), round=2, history=history)
    assert (result.games[0].white, result.games[0].black) == (2, 1)


def test_handicap_game_weaker_player_takes_black() -> None:
    """5.5 against -3.5 is a 7-stone difference across the gap; minus one: 6 stones."""
    field = (Player(1, "Strong", rating=5.5), Player(2, "Weak", rating=-3.5))
    result = pairing(field, settings=Settings(handicap_policy=HandicapPolicy.MINUS_1))
    (game,) = result.games
    assert (game.white, game.black, game.handicap, game.komi) == (1, 2, 6, 0.5)
    assert "Handicap 6" in game.notes


def test_top_band_games_are_even_when_asked() -> None:
    field = (Player(1, "Top", rating=5.5, band=1), Player(2, "Low", rating=-3.5, band=2))
    settings = Settings(handicap_policy=HandicapPolicy.MINUS_1, top_band_even=True)
    (game,) = pairing(field, settings=settings).games
    assert (game.handicap, game.komi) == (0, settings.komi)


def test_manual_colours_leave_the_choice_to_the_td() -> None:
    settings = Settings(color_policy=ColorPolicy.MANUAL, handicap_policy=HandicapPolicy.NONE)
    history = [Round(1, (Game(1, 101), Game(2, 102)))]
    (game,) = pairing(roster(2), round=2, history=history, settings=settings).games
    assert (game.white, game.black) == (1, 2)
    assert "TD enters" in game.notes


def test_colour_coin_is_seeded_and_reproducible() -> None:
    """Equal histories: a coin seeded by the tournament seed and the round decides."""
    whites = set()
    for seed in range(16):
        settings = Settings(handicap_policy=HandicapPolicy.NONE, seed=seed)
        first = pairing(roster(2), settings=settings).games[0]
        assert pairing(roster(2), settings=settings).games[0] == first
        whites.add(first.white)
    assert whites == {1, 2}


# --- additional considerations ------------------------------------------------------------


@pytest.mark.parametrize(
    ("switch", "attribute"),
    [
        ("avoid_same_family", "family_group"),
        ("avoid_same_club", "chapter"),
        ("avoid_same_city", "city"),
        ("avoid_same_state", "state"),
        ("avoid_same_country", "country"),
    ],
)
def test_avoidance_by_transposition_in_the_first_half(switch: str, attribute: str) -> None:
    """Players 1 and 3 share a family/club/city/state/country: with the switch on, the
    first half of the tournament transposes (1-4, 2-3); off, or in the second half, the
    ideal 1-3, 2-4 stands."""
    field = roster(4, **{attribute: ["X", "", "x ", ""]})
    on = Settings(handicap_policy=HandicapPolicy.NONE, **{switch: True})
    assert pairs(pairing(field, round=3, total=6, settings=on)) == {(1, 4), (2, 3)}
    assert pairs(pairing(field, round=3, total=6, settings=EVEN)) == {(1, 3), (2, 4)}
    kept = pairing(field, round=4, total=6, settings=on)
    assert pairs(kept) == {(1, 3), (2, 4)}
    assert kept.stats.avoidance_kept == 0


def test_avoidance_never_moves_a_player_to_another_score_group() -> None:
    """Only by switching or transposing within a score group: 1 and 2, alone at score 1,
    stay paired although they share a club (and the game says why)."""
    field = roster(4, chapter=["NYGC", "NYGC", "", ""])
    settings = Settings(handicap_policy=HandicapPolicy.NONE, avoid_same_club=True)
    result = pairing(field, {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}, settings=settings)
    assert pairs(result) == {(1, 2), (3, 4)}
    assert result.stats.avoidance_kept == 1
    assert "Same club kept" in result.games[0].notes


@pytest.mark.parametrize(
    ("points", "score", "avoided"),
    [(1, 1, False), (2, 1, True), (2, 2, False), (3, 2, True), (3, 3, False), (5, 3, True)],
)
def test_egf_style_avoidance_may_cost_what_opengotha_reads_its_points_as(
    points: int, score: int, avoided: bool
) -> None:
    """EGF style, "Avoidance may cost (points)" N: 1 and 2, alone at a score, share a club;
    3 and 4 are at 0. Avoiding the club game takes two games ``score`` points apart, a total
    score difference 2 x ``score`` higher. OpenGotha's preferMMSDiffRatherThanSameClub N
    trades up to 1.2 N + 0.5 points of it (its Tournament.costValue), so N = 3 pays 4 (its
    trade in bosp2024 round 2: floats of 3 and 1) and not 6; N = 1 pays 1.7, not 2."""
    field = roster(4, chapter=["NYGC", "NYGC", "", ""])
    egf = Settings(
        handicap_policy=HandicapPolicy.NONE, avoid_same_club=True, avoidance_points=points
    )
    result = pairing(field, {1: float(score), 2: float(score), 3: 0.0, 4: 0.0}, settings=egf)
    assert ((1, 2) not in pairs(result)) is avoided
    assert result.stats.mms_squared_difference == (2 * score * score if avoided else 0)


def test_egf_style_spreads_an_equal_total_score_difference() -> None:
    """EGF style weighs the total score difference first, as OpenGotha does; pairings of
    the same total are still told apart by the squared difference: two games a point apart
    (2-1, 1-0) rather than one two points apart and one even (2-0, 1-1)."""
    field = roster(4, chapter=["A", "B", "C", "D"])
    egf = Settings(handicap_policy=HandicapPolicy.NONE, avoid_same_club=True, avoidance_points=3)
    result = pairing(field, {1: 2.0, 2: 1.0, 3: 1.0, 4: 0.0}, settings=egf)
    assert (1, 4) not in pairs(result) and result.stats.mms_squared_difference == 2


def test_egf_style_points_beyond_any_possible_total_avoid_at_any_cost() -> None:
    """ "Avoidance may cost (points)" 100 is worth more than any pairing can total (its price
    is capped just above that): two games across a span of 1 or of 3 are both preferred
    to the same-club game."""
    field = roster(4, chapter=["NYGC", "NYGC", "", ""])
    egf = Settings(handicap_policy=HandicapPolicy.NONE, avoid_same_club=True, avoidance_points=100)
    for score in (1.0, 3.0):
        result = pairing(field, {1: score, 2: score, 3: 0.0, 4: 0.0}, settings=egf)
        assert (1, 2) not in pairs(result), score


def test_avoid_handicap_games_in_the_first_half() -> None:
    """Within one score group the ideal 1-3, 2-4 are handicap games; avoiding handicap
    games switches to the even games 1-2, 3-4 - in the first half only."""
    field = (
        Player(1, "A", rating=5.5),
        Player(2, "B", rating=5.4),
        Player(3, "C", rating=1.5),
        Player(4, "D", rating=1.4),
    )
    settings = Settings(avoid_handicap_games=True, color_policy=ColorPolicy.UNRESTRICTED)
    assert pairs(pairing(field, settings=settings)) == {(1, 2), (3, 4)}
    assert pairs(pairing(field, round=4, total=6, settings=settings)) == {(1, 3), (2, 4)}


# --- manual pairing -----------------------------------------------------------------------


def test_forced_pair_is_kept_and_the_rest_paired_around_it() -> None:
    force = PairRequest(RequestKind.FORCE, 1, 2, round=1)
    result = pairing(roster(8), requests=[force])
    assert (1, 2) in pairs(result)
    assert len(result.games) == 4
    assert "Forced pair" in next(g.notes for g in result.games if 1 in g.players)


def test_requests_for_other_rounds_are_ignored() -> None:
    force = PairRequest(RequestKind.FORCE, 1, 2, round=2)
    assert pairs(pairing(roster(8), requests=[force])) == {(1, 5), (2, 6), (3, 7), (4, 8)}


def test_forced_rematch_is_allowed_with_a_warning() -> None:
    force = PairRequest(RequestKind.FORCE, 1, 5)
    result = pairing(roster(8), round=2, history=[Round(1, games((1, 5)))], requests=[force])
    assert (1, 5) in pairs(result)
    assert any("rematch" in w for w in result.warnings)


def test_prohibited_pair_is_never_paired() -> None:
    prohibit = PairRequest(RequestKind.PROHIBIT, 1, 5)
    result = pairing(roster(8), requests=[prohibit])
    assert (1, 5) not in pairs(result)
    assert all(min(p) <= 4 < max(p) for p in pairs(result))


def test_prohibitions_making_pairing_impossible_name_the_conflict() -> None:
    requests = [PairRequest(RequestKind.PROHIBIT, 1, k) for k in (2, 3)]
    history = [Round(1, games((1, 4)))]
    with pytest.raises(PairingError, match=r"prohibited pair\(s\) 1-2, 1-3"):
        pairing(roster(4), round=2, history=history, requests=requests)


def test_forced_pair_making_pairing_impossible_names_it() -> None:
    """Forcing 1-2 leaves 3 and 4, who have met: the error names the forced pair."""
    force = PairRequest(RequestKind.FORCE, 1, 2)
    with pytest.raises(PairingError, match=r"forced pair.* 1-2"):
        pairing(roster(4), round=2, history=[Round(1, games((3, 4)))], requests=[force])


def test_rematches_making_pairing_impossible_name_the_players() -> None:
    with pytest.raises(PairingError, match=re.escape("P1 (1), P2 (2)")):
        pairing(roster(2), round=2, history=[Round(1, games((1, 2)))])


@pytest.mark.parametrize(
    ("requests", "message"),
    [
        ([PairRequest(RequestKind.FORCE, 1, 9)], "player 9 is not in the field"),
        ([PairRequest(RequestKind.FORCE, 1, 1)], "with himself"),
        (
            [PairRequest(RequestKind.FORCE, 1, 2), PairRequest(RequestKind.FORCE, 1, 3)],
            "both claim player 1",
        ),
        (
            [PairRequest(RequestKind.FORCE, 1, 2), PairRequest(RequestKind.PROHIBIT, 2, 1)],
            "both forced and prohibited",
        ),
    ],
)
def test_contradictory_requests_are_refused(requests: list[PairRequest], message: str) -> None:
    with pytest.raises(PairingError, match=message):
        pairing(roster(4), requests=requests)


def test_colour_histories_count_handicap_games_for_balance_only() -> None:
    """Criterion 4 constrains the colours the program chooses: in a handicap game colours
    follow the handicap, so such a game is never a colour-rule break."""
    field = (Player(1, "Strong", rating=5.5), Player(2, "Weak", rating=-3.5))
    history = _colour_history([1], [2], 3)
    settings = Settings(color_policy=ColorPolicy.RESTRICTED)
    result = pairing(field, round=4, total=8, history=history, settings=settings)
    (game,) = result.games
    assert (game.white, game.black) == (1, 2)
    assert game.handicap > 0
    assert result.stats.color_breaks == 0
