"""Bands, separations and initial McMahon scores (AGA protocol, Initialization)."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from addin.core.bands import (
    BandError,
    BarStyle,
    assign_initial_scores,
    band_for_rating,
    build_bands,
    initial_scores,
    max_separation,
    min_band_size,
    rebuild_bands,
    separation,
    suggest_bar,
)
from addin.core.model import Band, Player, ScoreOrigin, Settings, Tournament
from addin.core.ratings import parse_rating, rank_floor


def field(*groups: tuple[str | float, int], first_id: int = 1) -> list[Player]:
    """Players in groups of (rank or rating, how many), numbered from ``first_id``."""
    players = []
    for value, count in groups:
        for _ in range(count):
            number = first_id + len(players)
            players.append(Player(number, f"Player{number}", rating=parse_rating(value)))
    return players


# --- the protocol's sample band calculation ----------------------------------------------------

SAMPLE_SIZES = [19, 17, 10, 11, 24]
SAMPLE_ROWS = [
    Band(1, "", 5.0),
    Band(2, "", 3.0),
    Band(3, "", 1.0),
    Band(4, "", rank_floor("3k")),
    Band(5, "", rank_floor("10k")),
]
SAMPLE_FIELD = field(("5.5", 19), ("3.5", 17), ("1.5", 10), ("-2.5", 11), ("-8.5", 24))


def test_protocol_sample_band_calculation() -> None:
    """Six rounds, D = 0.75, no forced one-point top separation: 19, 17, 10, 11, 24 players."""
    gaps = [separation(p, 6, 0.75) for p in SAMPLE_SIZES[1:]]
    assert gaps == [2, 1, 1, 2]  # 2.125 -> 2, 1.25 -> 1, 1.375 -> 1, 3 capped at 6/3 = 2
    assert initial_scores([0, *gaps], ScoreOrigin.TOP, 0) == [0, -2, -3, -4, -6]
    assert initial_scores([0, *gaps], ScoreOrigin.BOTTOM, 0) == [6, 4, 3, 2, 0]


@pytest.mark.parametrize(
    ("origin", "scores"),
    [(ScoreOrigin.TOP, [0, -2, -3, -4, -6]), (ScoreOrigin.BOTTOM, [6, 4, 3, 2, 0])],
)
def test_protocol_sample_band_calculation_from_players(
    origin: ScoreOrigin, scores: list[float]
) -> None:
    settings = Settings(rounds=6, band_d=0.75, score_origin=origin)
    banding = rebuild_bands(SAMPLE_ROWS, SAMPLE_FIELD, settings)
    assert [banding.counts[b.number] for b in banding.bands] == SAMPLE_SIZES
    assert [b.separation for b in banding.bands] == [None, 2, 1, 1, 2]
    assert [b.initial_score for b in banding.bands] == scores
    for player in SAMPLE_FIELD:
        band = banding.band_of[player.aga_id]
        assert banding.initial_scores[player.aga_id] == scores[band - 1]


def test_the_bands_are_told_in_words_with_their_sizes() -> None:
    settings = Settings(rounds=6, band_d=0.75)
    banding = rebuild_bands(SAMPLE_ROWS, SAMPLE_FIELD, settings)
    sizes = ", ".join(str(n) for n in SAMPLE_SIZES[:-1])
    assert banding.sizes() == f"5 bands of {sizes} and {SAMPLE_SIZES[-1]} players"
    one = rebuild_bands(SAMPLE_ROWS[:1], SAMPLE_FIELD[:1], settings)
    assert one.sizes() == "1 band of 1 player"


def test_forcing_one_point_below_the_top_band() -> None:
    settings = Settings(rounds=6, band_d=0.75, top_band_separation_one=True)
    banding = rebuild_bands(SAMPLE_ROWS, SAMPLE_FIELD, settings)
    assert [b.separation for b in banding.bands] == [None, 1, 1, 1, 2]
    assert [b.initial_score for b in banding.bands] == [0, -1, -2, -3, -5]


def test_the_lowest_band_can_start_above_zero() -> None:
    settings = Settings(rounds=6, score_origin=ScoreOrigin.BOTTOM, bottom_score_offset=2)
    banding = rebuild_bands(SAMPLE_ROWS, SAMPLE_FIELD, settings)
    assert [b.initial_score for b in banding.bands] == [8, 6, 5, 4, 2]


# --- separation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("rounds", "cap"), [(1, 1), (2, 1), (3, 1), (4, 2), (6, 2), (7, 3)])
def test_the_largest_separation_is_a_third_of_the_rounds_rounded_up(rounds: int, cap: int) -> None:
    assert max_separation(rounds) == cap
    assert separation(1000, rounds, 0.75) == cap


@pytest.mark.parametrize("players", [0, 1, 7])
def test_the_smallest_separation_is_one(players: int) -> None:
    assert separation(players, 6, 0.75) == 1


def test_separation_takes_the_integer_part() -> None:
    assert separation(16, 6, 0.75) == 2  # exactly 2.0
    assert separation(15, 6, 0.75) == 1  # 1.875
    assert separation(20, 7, 1.5) == 3  # 4.29 capped at 3


@pytest.mark.parametrize("d", [0, -0.75, float("nan"), float("inf")])
def test_d_must_be_positive(d: float) -> None:
    with pytest.raises(BandError) as caught:
        separation(10, 6, d)
    assert caught.value.setting == "band_d"


@pytest.mark.parametrize("rounds", [0, -1])
def test_rounds_must_be_positive(rounds: int) -> None:
    with pytest.raises(BandError) as caught:
        separation(10, rounds, 0.75)
    assert caught.value.setting == "rounds"


@given(st.integers(0, 2000), st.integers(1, 20), st.floats(0.05, 5))
def test_separation_stays_within_its_limits(p: int, rounds: int, d: float) -> None:
    assert 1 <= separation(p, rounds, d) <= -(-rounds // 3)


@given(st.integers(0, 500), st.integers(0, 500), st.integers(1, 20), st.floats(0.05, 5))
def test_a_bigger_band_is_never_closer_to_the_band_above(
    p: int, q: int, rounds: int, d: float
) -> None:
    small, big = sorted((p, q))
    assert separation(small, rounds, d) <= separation(big, rounds, d)


# --- automatic banding --------------------------------------------------------------------------


def test_players_at_or_above_the_bar_and_above_bar_players_form_the_top_band() -> None:
    players = field(("7d", 4), ("6.0", 2), ("5.9", 5), ("3d", 5))
    promoted = replace(players[-1], above_bar=True)
    banding = build_bands([*players[:-1], promoted], Settings(rounds=4, bar=6.0))
    assert banding.bands[0].min_rating == 6.0
    assert banding.counts[1] == 7  # four 7d, two at exactly 6.0, the promoted 3d
    assert banding.band_of[promoted.aga_id] == 1
    assert all(banding.band_of[p.aga_id] == 1 for p in players[:6])


def test_below_the_bar_each_rank_is_a_band_when_big_enough() -> None:
    players = field(("6d", 6), ("2k", 5), ("3k", 5), ("5k", 4))
    banding = build_bands(players, Settings(rounds=4, bar=6.0))
    assert [b.label for b in banding.bands] == ["6d", "2k", "3k", "5k"]
    assert [b.min_rating for b in banding.bands] == [
        6.0,
        *(rank_floor(r) for r in ["2k", "3k", "5k"]),
    ]
    assert [banding.counts[b.number] for b in banding.bands] == [6, 5, 5, 4]


def test_a_band_starts_at_its_rank_boundary() -> None:
    banding = build_bands(field(("2d", 5), ("3k", 5)), Settings(rounds=4))
    assert [b.min_rating for b in banding.bands] == [2.0, pytest.approx(-3.99999)]


def test_the_minimum_band_size_is_four_or_the_number_of_rounds() -> None:
    assert min_band_size(3) == 4
    assert min_band_size(5) == 5
    assert min_band_size(6) == 6


def test_a_small_band_merges_into_its_smaller_neighbour() -> None:
    players = field(("4k", 6), ("5k", 3), ("6k", 8))
    banding = build_bands(players, Settings(rounds=5))
    assert [b.label for b in banding.bands] == ["5k-4k", "6k"]
    assert [banding.counts[b.number] for b in banding.bands] == [9, 8]


def test_a_small_band_between_equal_neighbours_merges_upwards() -> None:
    players = field(("4k", 6), ("5k", 3), ("6k", 6))
    banding = build_bands(players, Settings(rounds=5))
    assert [b.label for b in banding.bands] == ["5k-4k", "6k"]


def test_small_bands_merge_until_big_enough() -> None:
    players = field(("1d", 1), ("1k", 1), ("2k", 1), ("3k", 1), ("4k", 1), ("9k", 7))
    banding = build_bands(players, Settings(rounds=4))
    assert [b.label for b in banding.bands] == ["4k-1d", "9k"]
    assert [banding.counts[b.number] for b in banding.bands] == [5, 7]


def test_a_weak_small_band_at_the_bottom_merges_upwards() -> None:
    players = field(("10k", 6), ("25k", 2))
    banding = build_bands(players, Settings(rounds=4))
    assert [b.label for b in banding.bands] == ["25k-10k"]


def test_the_top_band_set_by_the_bar_never_merges() -> None:
    players = field(("7d", 2), ("1k", 4), ("2k", 4))
    banding = build_bands(players, Settings(rounds=4, bar=7.0))
    assert [b.label for b in banding.bands] == ["7d", "1k", "2k"]
    assert [b.initial_score for b in banding.bands] == [0, -1, -2]


def test_a_field_smaller_than_a_band_is_one_band() -> None:
    banding = build_bands(field(("2d", 1), ("3k", 1), ("9k", 1)), Settings(rounds=4))
    assert [b.label for b in banding.bands] == ["9k-2d"]
    assert set(banding.initial_scores.values()) == {0}


def test_without_a_bar_above_bar_players_join_the_top_band() -> None:
    players = field(("5d", 4), ("1k", 5))
    promoted = replace(players[-1], above_bar=True)
    banding = build_bands([*players[:-1], promoted], Settings(rounds=4, bar=None))
    assert banding.band_of[promoted.aga_id] == 1
    assert banding.counts == {1: 5, 2: 4}


def test_a_fresh_build_lists_the_band_overrides_it_clears() -> None:
    players = field(("2d", 4), ("3k", 4))
    moved = replace(players[0], band_override=2)
    banding = build_bands([moved, *players[1:]], Settings(rounds=4))
    assert banding.cleared_overrides == (moved.aga_id,)
    assert banding.band_overrides == {}


def test_no_players_no_bands() -> None:
    assert build_bands([], Settings()).bands == ()


def test_a_player_without_rating_or_rank_is_named() -> None:
    with pytest.raises(BandError) as caught:
        build_bands([Player(42, "Doe", "Jane")], Settings())
    assert caught.value.player == 42


# --- rebuilding respects the TD's edits ---------------------------------------------------------


def test_a_separation_override_is_kept_and_used() -> None:
    rows = list(SAMPLE_ROWS)
    rows[4] = replace(rows[4], separation_override=1)
    banding = rebuild_bands(rows, SAMPLE_FIELD, Settings(rounds=6))
    assert banding.bands[4].separation == 2
    assert banding.bands[4].separation_override == 1
    assert [b.initial_score for b in banding.bands] == [0, -2, -3, -4, -5]


def test_a_separation_override_wins_over_the_forced_top_separation() -> None:
    rows = list(SAMPLE_ROWS)
    rows[1] = replace(rows[1], separation_override=2)
    settings = Settings(rounds=6, top_band_separation_one=True)
    banding = rebuild_bands(rows, SAMPLE_FIELD, settings)
    assert banding.bands[1].separation == 1
    assert banding.bands[1].initial_score == -2


def test_a_zero_separation_override_gives_two_bands_one_score() -> None:
    rows = list(SAMPLE_ROWS)
    rows[2] = replace(rows[2], separation_override=0)
    banding = rebuild_bands(rows, SAMPLE_FIELD, Settings(rounds=6))
    assert banding.bands[1].initial_score == banding.bands[2].initial_score == -2


def test_a_player_band_override_moves_the_player_and_the_counts() -> None:
    moved = replace(SAMPLE_FIELD[0], band_override=2)
    players = [moved, *SAMPLE_FIELD[1:]]
    banding = rebuild_bands(SAMPLE_ROWS, players, Settings(rounds=6))
    assert banding.band_of[moved.aga_id] == 1
    assert banding.effective_band(moved.aga_id) == 2
    assert banding.counts[1] == 18 and banding.counts[2] == 18
    assert banding.initial_scores[moved.aga_id] == banding.bands[1].initial_score


def test_deleting_a_band_row_merges_its_players_into_the_band_below() -> None:
    rows = [row for row in SAMPLE_ROWS if row.number != 3]
    banding = rebuild_bands(rows, SAMPLE_FIELD, Settings(rounds=6))
    assert [banding.counts[b.number] for b in banding.bands] == [19, 17, 21, 24]
    assert [b.number for b in banding.bands] == [1, 2, 3, 4]
    assert banding.renumbered == {1: 1, 2: 2, 4: 3, 5: 4}


def test_band_overrides_follow_their_band_when_rows_are_renumbered() -> None:
    rows = [row for row in SAMPLE_ROWS if row.number != 3]
    moved = replace(SAMPLE_FIELD[0], band_override=5)
    banding = rebuild_bands(rows, [moved, *SAMPLE_FIELD[1:]], Settings(rounds=6))
    assert banding.band_overrides == {moved.aga_id: 4}


def test_a_band_override_naming_no_band_is_an_error_on_that_player() -> None:
    moved = replace(SAMPLE_FIELD[0], band_override=9)
    with pytest.raises(BandError, match="band override 9 names no band") as caught:
        rebuild_bands(SAMPLE_ROWS, [moved, *SAMPLE_FIELD[1:]], Settings(rounds=6))
    assert caught.value.player == moved.aga_id


def test_rows_are_taken_in_order_of_min_rating() -> None:
    shuffled = [SAMPLE_ROWS[i] for i in (3, 0, 4, 2, 1)]
    banding = rebuild_bands(shuffled, SAMPLE_FIELD, Settings(rounds=6))
    assert [b.min_rating for b in banding.bands] == [b.min_rating for b in SAMPLE_ROWS]


def test_labels_are_recomputed_from_the_players_ratings() -> None:
    banding = rebuild_bands(SAMPLE_ROWS, SAMPLE_FIELD, Settings(rounds=6))
    assert [b.label for b in banding.bands] == ["5d", "3d", "1d", "2k", "8k"]


@pytest.mark.parametrize(
    ("rows", "band"),
    [
        ([Band(1, "", 5.0), Band(1, "", 1.0)], 1),  # two bands numbered 1
        ([Band(1, "", 5.0), Band(2, "", 5.0)], 2),  # same min rating
        ([Band(1, "", 5.0, separation_override=1), Band(2, "", 1.0)], 1),  # top band override
        ([Band(1, "", 5.0), Band(2, "", 1.0, separation_override=-1)], 2),
        ([Band(1, "", 5.0), Band(2, "", float("nan"))], 2),
        ([Band(1, "", 5.0), Band(2, "", 1.0, separation_override=10**15)], 2),
        # each override allowed, their sum not: band 3 would start at -1,200,000
        (
            [
                Band(1, "", 5.0),
                Band(2, "", 1.0, separation_override=600_000),
                Band(3, "", -3.0, separation_override=600_000),
            ],
            3,
        ),
    ],
)
def test_band_rows_the_td_must_fix(rows: list[Band], band: int) -> None:
    with pytest.raises(BandError) as caught:
        rebuild_bands(rows, field(("3d", 2)), Settings())
    assert caught.value.band == band


def test_players_without_bands_are_an_error() -> None:
    with pytest.raises(BandError):
        rebuild_bands([], field(("3d", 2)), Settings())


# --- late arrivals -----------------------------------------------------------------------------


def test_a_late_arrival_of_a_band_rank_joins_that_band() -> None:
    banding = build_bands(field(("2k", 5), ("5k", 5)), Settings(rounds=4))
    late = Player(99, "Late", rating=-2.999)  # 2k, weaker than every 2k already in
    rebuilt = rebuild_bands(banding.bands, [*field(("2k", 5), ("5k", 5)), late], Settings(rounds=4))
    assert rebuilt.band_of[99] == 1
    assert rebuilt.below_floor == ()


def test_a_late_arrival_below_the_lowest_band_joins_it_and_is_reported() -> None:
    settings = Settings(rounds=6, score_origin=ScoreOrigin.BOTTOM, bottom_score_offset=2)
    before = rebuild_bands(SAMPLE_ROWS, SAMPLE_FIELD, settings)
    late = Player(999, "Late", rank="25k")
    after = rebuild_bands(before.bands, [*SAMPLE_FIELD, late], settings)
    assert after.below_floor == (999,)
    assert after.band_of[999] == 5
    assert after.initial_scores[999] == 2
    assert all(
        after.initial_scores[p.aga_id] == before.initial_scores[p.aga_id] for p in SAMPLE_FIELD
    )


def test_band_for_rating() -> None:
    assert band_for_rating(SAMPLE_ROWS, 9.0) == 1
    assert band_for_rating(SAMPLE_ROWS, 3.0) == 2
    assert band_for_rating(SAMPLE_ROWS, -3.5) == 4
    assert band_for_rating(SAMPLE_ROWS, -40.0) == 5


# --- the tournament as a whole ------------------------------------------------------------------


def test_assign_initial_scores_uses_the_band_rows() -> None:
    tournament = Tournament(
        settings=Settings(rounds=6),
        players={p.aga_id: p for p in SAMPLE_FIELD},
        bands=list(SAMPLE_ROWS),
    )
    scores = assign_initial_scores(tournament)
    assert sorted(set(scores.values())) == [-6, -4, -3, -2, 0]


def test_assign_initial_scores_builds_bands_when_there_are_none() -> None:
    players = field(("6d", 6), ("2k", 5), ("3k", 5))
    tournament = Tournament(
        settings=Settings(rounds=4, bar=6.0), players={p.aga_id: p for p in players}
    )
    scores = assign_initial_scores(tournament)
    assert [scores[p.aga_id] for p in players] == [0] * 6 + [-1] * 5 + [-2] * 5


# --- European option: the bar population tables -----------------------------------------------


def test_bga_bar_lowered_while_the_population_stays_within_the_table() -> None:
    ratings = [p.rating for p in field(("7d", 3), ("6d", 4), ("5d", 4), ("4d", 5))]
    suggestion = suggest_bar(ratings, 5, BarStyle.BGA)  # 5 rounds: 6-12 players
    assert (suggestion.rank, suggestion.bar, suggestion.population) == ("5d", 5.0, 11)
    assert suggestion.within_range


def test_bga_bar_never_splits_the_strongest_rank() -> None:
    ratings = [p.rating for p in field(("6d", 20), ("5d", 4))]
    suggestion = suggest_bar(ratings, 3, BarStyle.BGA)  # 3 rounds: 4-8 players
    assert (suggestion.rank, suggestion.population) == ("6d", 20)
    assert not suggestion.within_range


def test_egf_bar_is_four_dan_when_the_population_fits() -> None:
    ratings = [p.rating for p in field(("6d", 6), ("4d", 10), ("2d", 10))]
    suggestion = suggest_bar(ratings, 5, BarStyle.EGF)  # 5 rounds: 10-16 players
    assert (suggestion.rank, suggestion.population) == ("4d", 16)


def test_egf_bar_rises_when_too_many_are_above_four_dan() -> None:
    ratings = [p.rating for p in field(("7d", 5), ("6d", 5), ("5d", 5), ("4d", 5))]
    assert suggest_bar(ratings, 5, BarStyle.EGF).rank == "5d"


def test_egf_bar_falls_when_too_few_are_above_four_dan() -> None:
    ratings = [p.rating for p in field(("5d", 6), ("3d", 3), ("2d", 5), ("1d", 9))]
    suggestion = suggest_bar(ratings, 5, BarStyle.EGF)
    assert (suggestion.rank, suggestion.population) == ("2d", 14)


@pytest.mark.parametrize(
    ("style", "rounds"), [(BarStyle.BGA, 2), (BarStyle.BGA, 13), (BarStyle.EGF, 4)]
)
def test_bar_tables_cover_only_their_rounds(style: BarStyle, rounds: int) -> None:
    with pytest.raises(BandError):
        suggest_bar([4.5, 3.5], rounds, style)


# --- properties over random fields --------------------------------------------------------------

ranks = st.one_of(
    st.integers(1, 30).map(lambda n: f"{n}k"), st.integers(1, 9).map(lambda n: f"{n}d")
)
fields = st.lists(st.tuples(ranks, st.integers(1, 12)), min_size=1, max_size=12)
tournament_settings = st.builds(
    Settings,
    rounds=st.integers(1, 10),
    band_d=st.sampled_from([0.5, 0.75, 1.0, 1.5]),
    bar=st.one_of(st.none(), st.sampled_from([3.0, 5.0, 7.0])),
    top_band_separation_one=st.booleans(),
    score_origin=st.sampled_from(list(ScoreOrigin)),
    bottom_score_offset=st.sampled_from([0.0, 1.0, 2.0]),
)


@hypothesis_settings(max_examples=200, deadline=None)
@given(fields, tournament_settings)
def test_built_bands_are_consistent(groups: list[tuple[str, int]], settings: Settings) -> None:
    players = field(*groups)
    banding = build_bands(players, settings)
    bands = banding.bands
    assert [b.number for b in bands] == list(range(1, len(bands) + 1))
    assert sum(banding.counts.values()) == len(players)
    assert all(count > 0 for count in banding.counts.values())
    assert all(a.min_rating > b.min_rating for a, b in pairwise(bands))
    assert all(1 <= b.separation <= max_separation(settings.rounds) for b in bands[1:])
    scores = [b.initial_score for b in bands]
    assert all(a > b for a, b in pairwise(scores))
    if settings.score_origin is ScoreOrigin.TOP:
        assert scores[0] == 0
    else:
        assert scores[-1] == settings.bottom_score_offset
    for player in players:
        number = banding.band_of[player.aga_id]
        assert number == band_for_rating(bands, player.rating)
        assert banding.initial_scores[player.aga_id] == bands[number - 1].initial_score
    fixed_top = settings.bar is not None and any(p.rating >= settings.bar for p in players)
    mergeable = bands[1:] if fixed_top else bands
    if len(mergeable) > 1:
        assert all(banding.counts[b.number] >= min_band_size(settings.rounds) for b in mergeable)


@hypothesis_settings(max_examples=100, deadline=None)
@given(fields, tournament_settings)
def test_rebuilding_untouched_rows_changes_nothing(
    groups: list[tuple[str, int]], settings: Settings
) -> None:
    players = field(*groups)
    built = build_bands(players, settings)
    rebuilt = rebuild_bands(built.bands, players, settings)
    assert rebuilt.bands == built.bands
    assert rebuilt.initial_scores == built.initial_scores


@hypothesis_settings(max_examples=100, deadline=None)
@given(fields, st.integers(2, 10))
def test_higher_rated_players_never_start_lower(groups: list[tuple[str, int]], rounds: int) -> None:
    players = field(*groups)
    scores = build_bands(players, Settings(rounds=rounds)).initial_scores
    ordered = sorted(players, key=lambda p: p.rating)
    assert all(scores[a.aga_id] <= scores[b.aga_id] for a, b in pairwise(ordered))
