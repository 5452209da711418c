"""AGA ranks and ratings: the parser every reader uses, rank labels and the closed gap."""

from __future__ import annotations

import csv
import math
import re
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from addin.core.model import Player
from addin.core.ratings import (
    MAX_DAN,
    MAX_KYU,
    MAX_PRO,
    RATING_MAX,
    RATING_MIN,
    RatingError,
    entry_rating,
    is_valid_rating,
    parse_rating,
    rank_floor,
    rank_of,
    rating_gap,
)
from tests.helpers import DATA

ALL_RANKS = (
    [f"{n}k" for n in range(MAX_KYU, 0, -1)]
    + [f"{n}d" for n in range(1, MAX_DAN + 1)]
    + [f"{n}p" for n in range(1, MAX_PRO + 1)]
)

valid_ratings = st.one_of(
    st.floats(min_value=RATING_MIN, max_value=-1.0, exclude_min=True),
    st.floats(min_value=1.0, max_value=RATING_MAX, exclude_max=True),
)


# --- ranks enter at their midpoint (interface document, Registration) -------------------------


@pytest.mark.parametrize(
    ("text", "rating"),
    [
        ("4d", 4.5),  # the document's own example
        ("3k", -3.5),
        ("1k", -1.5),
        ("1d", 1.5),
        ("30k", -30.5),
        ("9d", 9.5),
        ("50k", -50.5),
    ],
)
def test_a_rank_enters_at_its_midpoint(text: str, rating: float) -> None:
    assert parse_rating(text) == rating


@pytest.mark.parametrize(
    "text", ["3k", "3K", "3 kyu", "3kyu", "3 Kyu", "3KYU", " 3k ", "3\tk", "03k"]
)
def test_every_kyu_spelling_is_the_same_rank(text: str) -> None:
    assert parse_rating(text) == -3.5


@pytest.mark.parametrize("text", ["4d", "4D", "4 dan", "4dan", "4 Dan", "  4 DAN"])
def test_every_dan_spelling_is_the_same_rank(text: str) -> None:
    assert parse_rating(text) == 4.5


@pytest.mark.parametrize(
    ("text", "rating"), [("1p", 10.1), ("1P", 10.1), ("5 pro", 10.5), ("9p", 10.9)]
)
def test_professional_ranks_lie_above_every_amateur_rank(text: str, rating: float) -> None:
    assert parse_rating(text) == pytest.approx(rating)
    assert parse_rating(text) > parse_rating("9d")


def test_professional_ranks_are_a_tenth_of_a_stone_apart() -> None:
    pros = [parse_rating(f"{n}p") for n in range(1, MAX_PRO + 1)]
    steps = [b - a for a, b in pairwise(pros)]
    assert steps == pytest.approx([0.1] * (MAX_PRO - 1))


# --- ratings typed as text or as numbers ------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "rating"),
    [
        ("-3.45", -3.45),  # the text report's example
        ("4.5", 4.5),
        ("+4.5", 4.5),
        ("1.53", 1.53),
        ("-4.96", -4.96),
        ("1", 1.0),
        ("-1", -1.0),
        ("-1.0", -1.0),
        (" 2. ", 2.0),
        ("-13.66602", -13.66602),  # as TDListA writes it
        ("10.32930", 10.3293),
        (4.5, 4.5),
        (-3.45, -3.45),
        (7, 7.0),
        (-20, -20.0),
        (1.0, 1.0),
        (-1.0, -1.0),
    ],
)
def test_a_rating_is_taken_as_it_is(value: str | float, rating: float) -> None:
    result = parse_rating(value)
    assert result == rating
    assert type(result) is float


@pytest.mark.parametrize(
    "value",
    [
        "",
        "   ",
        "abc",
        "k3",
        "3x",
        "3 k y u",
        "3k?",
        "3d4",
        "4,5",  # a decimal comma is ambiguous: ask for a point
        "1e3",
        "nan",
        "inf",
        "0k",
        "51k",
        "99K",  # OpenGotha's placeholder for an unknown rank
        "0d",
        "10d",
        "0p",
        "10p",
        "0",
        "0.5",
        "-0.99",
        "0.999",
        "-51",
        "11",
        "12.5",
        0,
        0.5,
        -0.5,
        11.0,
        -51.0,
        100,
        math.nan,
        math.inf,
        -math.inf,
        True,
        False,
        None,
    ],
)
def test_nonsense_is_refused(value: object) -> None:
    with pytest.raises(RatingError):
        parse_rating(value)  # type: ignore[arg-type]


def test_the_error_names_the_value_and_what_was_expected() -> None:
    with pytest.raises(RatingError) as caught:
        parse_rating("3q")
    message = str(caught.value)
    assert "'3q'" in message
    assert "3k" in message and "4d" in message
    assert caught.value.value == "3q"
    assert isinstance(caught.value, ValueError)


def test_the_error_says_why_a_value_between_minus_one_and_one_is_refused() -> None:
    with pytest.raises(RatingError, match="between -1 and 1"):
        parse_rating("0.5")


# --- rank labels ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "rank"),
    [
        (-3.5, "3k"),
        (4.2, "4d"),
        (-1.0, "1k"),
        (-1.99, "1k"),
        (-2.0, "2k"),
        (1.0, "1d"),
        (1.99, "1d"),
        (2.0, "2d"),
        (9.99, "9d"),
        (-50.9, "50k"),
        (10.0, "1p"),
        (10.1, "1p"),
        (10.33, "3p"),
        (10.99, "9p"),
    ],
)
def test_rank_of_a_rating(rating: float, rank: str) -> None:
    assert rank_of(rating) == rank


@pytest.mark.parametrize("rating", [0.0, 0.5, -0.5, 11.0, -51.0, math.nan])
def test_rank_of_refuses_a_value_off_the_scale(rating: float) -> None:
    with pytest.raises(RatingError):
        rank_of(rating)


@pytest.mark.parametrize("rank", ALL_RANKS)
def test_every_rank_round_trips_through_its_entry_rating(rank: str) -> None:
    assert rank_of(parse_rating(rank)) == rank


@pytest.mark.parametrize("rank", ALL_RANKS)
def test_rank_floor_is_the_lowest_rating_of_the_rank(rank: str) -> None:
    floor = rank_floor(rank)
    assert rank_of(floor) == rank
    assert floor <= parse_rating(rank)
    below = floor - 1e-5
    assert not is_valid_rating(below) or rank_of(below) != rank


@pytest.mark.parametrize(("rank", "floor"), [("4d", 4.0), ("1d", 1.0), ("3k", -3.99999)])
def test_rank_floor_examples(rank: str, floor: float) -> None:
    assert rank_floor(rank) == pytest.approx(floor, abs=1e-12)


def test_rank_floor_needs_a_rank() -> None:
    with pytest.raises(RatingError):
        rank_floor("4.5")


@given(valid_ratings)
def test_the_label_of_any_rating_is_a_rank_whose_midpoint_has_the_same_label(r: float) -> None:
    label = rank_of(r)
    assert rank_of(parse_rating(label)) == label
    if not label.endswith("p"):
        assert abs(r - parse_rating(label)) <= 0.5


@given(valid_ratings)
def test_a_rating_written_out_reads_back_unchanged(r: float) -> None:
    assert parse_rating(repr(r)) == r
    assert parse_rating(r) == r


@given(valid_ratings, valid_ratings)
def test_rank_labels_follow_the_order_of_ratings(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert parse_rating(rank_of(low)) <= parse_rating(rank_of(high))


# --- the closed gap ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "gap"),
    [
        (1.5, -1.5, 1.0),  # 1d vs 1k: one stone, not three
        (1.0, -1.0, 0.0),
        (3.5, 3.5, 0.0),
        (-2.3, -6.5, 4.2),
        (4.5, -3.5, 6.0),
        (-3.5, 4.5, -6.0),
    ],
)
def test_rating_gap_closes_the_minus_one_to_one_gap(a: float, b: float, gap: float) -> None:
    assert rating_gap(a, b) == pytest.approx(gap)


@given(valid_ratings, valid_ratings)
def test_rating_gap_is_antisymmetric(a: float, b: float) -> None:
    assert rating_gap(a, b) == -rating_gap(b, a)


@given(valid_ratings, valid_ratings)
def test_rating_gap_on_one_side_of_zero_is_the_plain_difference(a: float, b: float) -> None:
    if (a > 0) == (b > 0):
        assert rating_gap(a, b) == pytest.approx(a - b)
    else:
        assert abs(rating_gap(a, b)) == pytest.approx(abs(a - b) - 2)


def test_rating_gap_refuses_a_value_off_the_scale() -> None:
    with pytest.raises(RatingError):
        rating_gap(0.5, 2.0)


# --- entry ratings of players -----------------------------------------------------------------


def test_entry_rating_prefers_the_rating_to_the_rank() -> None:
    assert entry_rating(Player(1, "Doe", rank="4d", rating=3.21)) == 3.21


def test_entry_rating_falls_back_to_the_midpoint_of_the_rank() -> None:
    assert entry_rating(Player(1, "Doe", rank="4d")) == 4.5


def test_entry_rating_without_rank_or_rating_names_the_player() -> None:
    with pytest.raises(RatingError, match="player 17 Doe, Jane"):
        entry_rating(Player(17, "Doe", "Jane"))


# --- real files -------------------------------------------------------------------------------


def _tdlista_ratings() -> list[str]:
    files = sorted((DATA / "tdlista").glob("*.txt"))
    assert files, "tests/data/tdlista holds the TDListA samples"
    ratings = []
    for path in files:
        with path.open(encoding="utf-8", errors="replace", newline="") as handle:
            for row in csv.reader(handle, delimiter="\t"):
                if len(row) > 3 and row[3].strip():
                    ratings.append(row[3])
    return ratings


def test_every_rating_in_the_tdlista_samples_parses_to_its_number() -> None:
    ratings = _tdlista_ratings()
    assert ratings
    for text in ratings:
        assert parse_rating(text) == float(text)


def test_every_rank_in_the_aga_xml_samples_parses() -> None:
    files = sorted((DATA / "aga-xml").glob("*.xml"))
    assert files, "tests/data/aga-xml holds the AGA XML samples"
    ranks = {m for f in files for m in re.findall(r'Rating="([^"]*)"', f.read_text("utf-8"))}
    assert ranks
    for text in ranks:
        assert rank_of(parse_rating(text)) == text.lower()
