"""A result as the TD types it: the dropdown's words, shorthands, and a game record's own result."""

from __future__ import annotations

import pytest

from addin.core.model import Result
from addin.core.results import parse_result


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("White wins", Result.WHITE_WINS),
        ("  black WINS ", Result.BLACK_WINS),
        ("w", Result.WHITE_WINS),
        ("b+", Result.BLACK_WINS),
        ("1-0", Result.WHITE_WINS),
        ("0-1", Result.BLACK_WINS),
        ("WF", Result.WHITE_WINS_BY_FORFEIT),
        ("jigo", Result.JIGO),
        ("Double forfeit", Result.DOUBLE_FORFEIT),
    ],
)
def test_the_dropdown_words_and_shorthands(typed: str, expected: Result) -> None:
    assert parse_result(typed) is expected


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("B+R", Result.BLACK_WINS),
        ("W+Resign", Result.WHITE_WINS),
        ("w+t", Result.WHITE_WINS),
        ("B+Time", Result.BLACK_WINS),
        ("B+3.5", Result.BLACK_WINS),
        ("W+0.5", Result.WHITE_WINS),
        ("W + 12", Result.WHITE_WINS),
        ("B+F", Result.BLACK_WINS_BY_FORFEIT),
        ("Void", Result.NO_RESULT),
    ],
)
def test_a_game_records_result_is_understood(typed: str, expected: Result) -> None:
    """SGF's RE property, as a kifu or a server writes it, copied into the Result cell."""
    assert parse_result(typed) is expected


@pytest.mark.parametrize("typed", ["", "   ", "\t\n"])
def test_blank_is_not_played_yet(typed: str) -> None:
    assert parse_result(typed) is None


@pytest.mark.parametrize(
    "typed",
    ["X+R", "B+R+", "B+-3", "W+3.5.5", "B+Q", '=HYPERLINK("x")', "black white", "½"],
)
def test_anything_ambiguous_is_refused_with_the_accepted_forms(typed: str) -> None:
    with pytest.raises(ValueError, match="B\\+R"):
        parse_result(typed)
