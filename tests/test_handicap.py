"""Handicaps and komi (AGA interface document, Handicap Specification and the text report)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from addin.core.handicap import (
    HANDICAP_KOMI,
    MAX_HANDICAP,
    GameConditions,
    aga_text_komi,
    game_conditions,
    handicap_from_mms,
    handicap_stones,
    round_half_up,
)
from addin.core.model import HandicapPolicy, Rules, Settings
from addin.core.ratings import RATING_MAX, RATING_MIN, rating_gap

FULL, MINUS_1, MINUS_2, NONE = (
    HandicapPolicy.FULL,
    HandicapPolicy.MINUS_1,
    HandicapPolicy.MINUS_2,
    HandicapPolicy.NONE,
)
REDUCING = (FULL, MINUS_1, MINUS_2)

# "Some sample handicap calculations": player 1, player 2, full, handicap-1, handicap-2.
SAMPLE_TABLE = [
    (3.5, 3.5, 0, 0, 0),
    (1.5, -1.5, 1, 0, 0),
    (-2.3, -6.5, 4, 3, 2),
    (-7.3, -5.5, 2, 1, 0),
    (-7.3, -5.9, 1, 0, 0),
    (-11.0, -1.0, 9, 9, 8),
    (-28.0, -10.0, 9, 9, 9),
]

valid_ratings = st.one_of(
    st.floats(min_value=RATING_MIN, max_value=-1.0, exclude_min=True),
    st.floats(min_value=1.0, max_value=RATING_MAX, exclude_max=True),
)


@pytest.mark.parametrize(("policy", "column"), [(FULL, 2), (MINUS_1, 3), (MINUS_2, 4)])
@pytest.mark.parametrize("row", SAMPLE_TABLE, ids=lambda row: f"{row[0]}_vs_{row[1]}")
def test_interface_document_sample_handicap_table(
    row: tuple[float, float, int, int, int], policy: HandicapPolicy, column: int
) -> None:
    first, second, expected = row[0], row[1], row[column]
    assert handicap_stones(first, second, policy) == expected
    assert handicap_stones(second, first, policy) == expected


@pytest.mark.parametrize("row", SAMPLE_TABLE, ids=lambda row: f"{row[0]}_vs_{row[1]}")
def test_no_handicap_policy_makes_every_game_even(row: tuple[float, ...]) -> None:
    assert handicap_stones(row[0], row[1], NONE) == 0


def test_the_default_policy_is_handicap_minus_one() -> None:
    assert Settings().handicap_policy is MINUS_1


@pytest.mark.parametrize(
    ("value", "rounded"),
    [(2.5, 3), (2.4999999999999996, 3), (2.49, 2), (0.5, 1), (0.4, 0), (4.2, 4), (1.8, 2)],
)
def test_halves_round_up(value: float, rounded: int) -> None:
    assert round_half_up(value) == rounded


def test_a_half_stone_difference_rounds_up_even_through_float_noise() -> None:
    assert handicap_stones(4.3, 1.8, FULL) == 3  # closed gap 3.3 - 0.8 = 2.5
    assert handicap_stones(4.0, 1.5, FULL) == 3


def test_a_dan_kyu_pair_closes_the_gap() -> None:
    assert handicap_stones(4.5, -3.5, FULL) == 6  # 4d vs 3k: 6 stones, not 8


# --- game conditions for the round sheet ------------------------------------------------------


def test_an_even_game_gets_the_tournament_komi() -> None:
    settings = Settings(komi=6.5)
    assert game_conditions(3.5, 3.5, settings) == GameConditions(0, 6.5)


def test_a_one_stone_game_is_black_first_with_half_a_point_komi() -> None:
    settings = Settings(handicap_policy=FULL)
    assert game_conditions(1.5, -1.5, settings) == GameConditions(1, HANDICAP_KOMI)
    assert HANDICAP_KOMI == 0.5


def test_a_handicap_game_has_half_a_point_komi() -> None:
    settings = Settings(handicap_policy=MINUS_1)
    assert game_conditions(-2.3, -6.5, settings) == GameConditions(3, 0.5)


def test_handicap_minus_one_makes_a_one_stone_difference_even() -> None:
    assert game_conditions(1.5, -1.5, Settings(komi=7.5)) == GameConditions(0, 7.5)


def test_top_band_games_are_even_when_the_option_is_on() -> None:
    on = Settings(handicap_policy=FULL, top_band_even=True, komi=7.5)
    off = Settings(handicap_policy=FULL, top_band_even=False)
    assert game_conditions(6.5, 2.5, on, top_band_game=True) == GameConditions(0, 7.5)
    assert game_conditions(6.5, 2.5, on, top_band_game=False).handicap == 4
    assert game_conditions(6.5, 2.5, off, top_band_game=True).handicap == 4


def test_the_none_policy_gives_even_games_with_komi() -> None:
    settings = Settings(handicap_policy=NONE, komi=7.5)
    assert game_conditions(-2.3, -6.5, settings) == GameConditions(0, 7.5)


def test_the_weaker_player_cannot_be_white_in_a_handicap_game() -> None:
    with pytest.raises(ValueError, match="stronger player as White"):
        game_conditions(-6.5, -2.3, Settings(handicap_policy=FULL))


def test_colours_do_not_matter_in_an_even_game() -> None:
    assert game_conditions(-5.9, -5.5, Settings()).handicap == 0


# --- the AGA text report's integers -----------------------------------------------------------

AGA_LIKE = (Rules.AGA, Rules.JAPANESE, Rules.CHINESE)


@pytest.mark.parametrize("rules", AGA_LIKE)
@pytest.mark.parametrize(
    ("condition", "handicap", "komi", "expected"),
    [
        ("even game", 0, 7.5, (0, 7)),
        ("no komi", 0, 0.0, (0, 0)),
        ("one stone: no komi", 1, 0.5, (0, 0)),
        ("7 point reverse komi", 0, -7.5, (0, -7)),
        ("2 stone handicap", 2, 0.5, (2, 0)),
        ("9 stone handicap", 9, 0.5, (9, 0)),
    ],
)
def test_text_report_table_aga_japanese_chinese(
    rules: Rules, condition: str, handicap: int, komi: float, expected: tuple[int, int]
) -> None:
    assert aga_text_komi(handicap, komi, rules) == expected


@pytest.mark.parametrize(
    ("condition", "handicap", "komi", "expected"),
    [
        ("even game", 0, 7.5, (0, 7)),
        ("no komi", 0, 0.0, (0, -1)),
        ("no komi, half a point", 0, 0.5, (0, -1)),
        ("one stone: no komi", 1, 0.5, (0, -1)),
        ("2 stone handicap", 2, 0.5, (2, -2)),
    ],
)
def test_text_report_table_ing(
    condition: str, handicap: int, komi: float, expected: tuple[int, int]
) -> None:
    assert aga_text_komi(handicap, komi, Rules.ING) == expected


@pytest.mark.parametrize("stones", range(2, MAX_HANDICAP + 1))
def test_text_report_n_stone_handicap(stones: int) -> None:
    assert aga_text_komi(stones, HANDICAP_KOMI, Rules.AGA) == (stones, 0)
    assert aga_text_komi(stones, HANDICAP_KOMI, Rules.ING) == (stones, -stones)


def test_text_report_keeps_a_komi_the_td_changed() -> None:
    assert aga_text_komi(2, 5.5, Rules.AGA) == (2, 5)
    assert aga_text_komi(2, 5.5, Rules.ING) == (2, 3)
    assert aga_text_komi(0, 6.5, Rules.JAPANESE) == (0, 6)


@pytest.mark.parametrize("handicap", [-1, 10, 1.5, True])
def test_text_report_refuses_an_impossible_handicap(handicap: int) -> None:
    with pytest.raises(ValueError):
        aga_text_komi(handicap, 0.5, Rules.AGA)


def test_text_report_refuses_a_komi_that_is_not_a_number() -> None:
    with pytest.raises(ValueError):
        aga_text_komi(0, float("nan"), Rules.AGA)


@pytest.mark.parametrize("policy", [FULL, MINUS_1, MINUS_2, NONE])
@pytest.mark.parametrize("row", SAMPLE_TABLE, ids=lambda row: f"{row[0]}_vs_{row[1]}")
def test_every_computed_game_is_one_the_ratings_system_counts(
    row: tuple[float, ...], policy: HandicapPolicy
) -> None:
    """Handicap 0..9 and komi at most 7 (text report: other games are not rated)."""
    white, black = sorted(row[:2], reverse=True)
    conditions = game_conditions(white, black, Settings(handicap_policy=policy))
    for rules in Rules:
        handicap, komi = aga_text_komi(conditions.handicap, conditions.komi, rules)
        assert 0 <= handicap <= 9
        assert komi <= 7


# --- European option: handicap from the McMahon score difference -----------------------------


@pytest.mark.parametrize(
    ("policy", "stones"),
    [(FULL, 3), (MINUS_1, 2), (MINUS_2, 1), (NONE, 0)],
    ids=["Leamington", "UK", "European", "none"],
)
def test_handicap_from_mms_difference_styles(policy: HandicapPolicy, stones: int) -> None:
    assert handicap_from_mms(-2.0, -5.0, policy) == stones
    assert handicap_from_mms(-5.0, -2.0, policy) == stones


def test_handicap_from_mms_above_the_bar_is_even() -> None:
    assert handicap_from_mms(3.0, 0.0, FULL, above_bar_game=True) == 0


def test_handicap_from_mms_is_capped_after_the_reduction() -> None:
    assert handicap_from_mms(0.0, -10.0, MINUS_1) == 9
    assert handicap_from_mms(0.0, -10.0, MINUS_2) == 8
    assert handicap_from_mms(0.0, -30.0, MINUS_2) == 9


def test_handicap_from_mms_a_one_point_float_is_even_with_a_reduction() -> None:
    assert handicap_from_mms(1.0, 0.0, MINUS_1) == 0
    assert handicap_from_mms(1.5, 0.0, MINUS_1) == 1  # a jigo: halves round up


# --- properties -------------------------------------------------------------------------------


def _opened(x: float) -> float:
    """A point of the gap-free scale back on the AGA scale (0 -> 1.0, -0.5 -> -1.5)."""
    return x + 1.0 if x >= 0 else x - 1.0


@given(valid_ratings, valid_ratings, st.sampled_from(list(HandicapPolicy)))
def test_handicap_is_between_even_and_nine(a: float, b: float, policy: HandicapPolicy) -> None:
    assert 0 <= handicap_stones(a, b, policy) <= MAX_HANDICAP


@given(valid_ratings, valid_ratings, st.sampled_from(list(HandicapPolicy)))
def test_handicap_does_not_depend_on_the_order(a: float, b: float, policy: HandicapPolicy) -> None:
    assert handicap_stones(a, b, policy) == handicap_stones(b, a, policy)


@given(
    st.floats(min_value=-49.9, max_value=9.9),
    st.floats(min_value=0, max_value=1),
    st.floats(min_value=0, max_value=1),
    st.sampled_from(REDUCING),
)
def test_handicap_grows_with_the_rating_difference(
    x: float, f1: float, f2: float, policy: HandicapPolicy
) -> None:
    """Two stronger players above the same weaker one: the farther one gives at least as many."""
    room = 9.9 - x
    near, far = sorted((f1 * room, f2 * room))
    weaker = _opened(x)
    assert handicap_stones(_opened(x + near), weaker, policy) <= handicap_stones(
        _opened(x + far), weaker, policy
    )


@given(valid_ratings, valid_ratings)
def test_each_reduction_takes_off_at_most_one_more_stone(a: float, b: float) -> None:
    full, minus_1, minus_2 = (handicap_stones(a, b, p) for p in REDUCING)
    assert full >= minus_1 >= minus_2
    assert full - minus_1 <= 1 and minus_1 - minus_2 <= 1


@given(
    st.floats(min_value=-49.5, max_value=9.5),
    st.floats(min_value=-0.499, max_value=0.499),
)
def test_players_less_than_half_a_stone_apart_play_even(x: float, delta: float) -> None:
    a, b = _opened(x), _opened(x + delta)
    assert abs(rating_gap(a, b)) < 0.5
    assert handicap_stones(a, b, FULL) == 0


@given(valid_ratings, valid_ratings, st.sampled_from(list(HandicapPolicy)), st.booleans())
def test_game_conditions_agree_with_handicap_stones(
    a: float, b: float, policy: HandicapPolicy, top: bool
) -> None:
    white, black = (a, b) if rating_gap(a, b) >= 0 else (b, a)
    settings = Settings(handicap_policy=policy, top_band_even=True, komi=7.5)
    handicap, komi = game_conditions(white, black, settings, top_band_game=top)
    assert handicap == (0 if top else handicap_stones(white, black, policy))
    assert komi == (7.5 if handicap == 0 else 0.5)
