"""A row's values come out as their column's type: the reader typed each cell by its column's
kind (text typed into a number column included), so the accessors state the type, and a value
of another type (put there by code, never by the TD) stops as a bug instead of flowing on."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from addin.core.model import Result
from addin.workbook import template
from addin.workbook.book import settings_from_values
from addin.workbook.cells import Formula
from addin.workbook.gateway import Row, WrongType
from addin.workbook.layout import games_table, players_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway


def _typed_as_text(path: Path) -> Path:
    """A Players row and a game whose every cell the TD typed as text."""
    wb = template.build({"rounds": 1})
    players = players_table(1)
    typed = {
        "aga_id": "12345",
        "family_name": "Lee",
        "rating": "4,5",
        "above_bar": "yes",
        "band_override": " 2 ",
        "membership_expiry": "3/1/2027",
        "aga_fee": "$30.00",
    }
    ws = wb[players.sheet]
    for i, column in enumerate(players.columns, start=1):
        ws.cell(row=1, column=i, value=column.header)
        ws.cell(row=2, column=i, value=typed.get(column.key))
    games = games_table(1)
    rnd = wb.create_sheet(games.sheet)
    cells = {"board": "1", "white": "12345", "black": "23456", "handicap": "0", "result": "W+"}
    for i, column in enumerate(games.columns, start=1):
        rnd.cell(row=1, column=i, value=column.header)
        rnd.cell(row=2, column=i, value=cells.get(column.key))
    wb.save(path)
    return path


def test_text_typed_into_a_cell_comes_out_as_its_columns_type(tmp_path: Path) -> None:
    gw = OpenpyxlGateway.open(_typed_as_text(tmp_path / "typed.xlsx"))
    [row] = gw.read_table(players_table(1)).rows
    assert row.whole("aga_id") == 12345
    assert row.numeric("rating") == 4.5
    assert row.flag("above_bar") is True
    assert row.whole("band_override") == 2
    assert row.day("membership_expiry") == date(2027, 3, 1)
    assert row.numeric("aga_fee") == 30.0
    assert row.text("family_name") == "Lee"
    [game] = gw.read_table(games_table(1)).rows
    assert (game.whole("board"), game.whole("white"), game.whole("black")) == (1, 12345, 23456)
    assert game.typed("result", Result) is Result.WHITE_WINS


def test_a_blank_cell_is_none_empty_text_or_no(tmp_path: Path) -> None:
    gw = OpenpyxlGateway.open(_typed_as_text(tmp_path / "typed.xlsx"))
    [row] = gw.read_table(players_table(1)).rows
    assert row.whole("band") is None
    assert row.numeric("initial_score") is None
    assert row.day("birth_date") is None
    assert row.text("given_name") == ""
    assert row.flag("bye_volunteer") is False


def test_a_formula_in_a_text_column_is_read_as_plain_text() -> None:
    """The model holds the formula's text; only the row itself writes it back as a formula."""
    read = Row({"notes": Formula("=A1&B1")}).text("notes")
    assert read == "=A1&B1" and type(read) is str


def test_a_whole_number_is_a_number_too() -> None:
    assert Row({"komi": 7}).numeric("komi") == 7.0
    assert isinstance(Row({"komi": 7}).numeric("komi"), float)


READERS: dict[str, Callable[[Row], object]] = {
    "whole": lambda row: row.whole("cell"),
    "numeric": lambda row: row.numeric("cell"),
    "day": lambda row: row.day("cell"),
    "text": lambda row: row.text("cell"),
    "flag": lambda row: row.flag("cell"),
    "Result": lambda row: row.typed("cell", Result),
}


@pytest.mark.parametrize(
    ("reader", "value", "said"),
    [
        ("whole", "12345", "'cell' holds str '12345', not a whole number"),
        ("whole", 12345.0, "'cell' holds float 12345.0, not a whole number"),
        ("whole", True, "'cell' holds bool True, not a whole number"),
        ("numeric", "4d", "'cell' holds str '4d', not a number"),
        ("numeric", False, "'cell' holds bool False, not a number"),
        ("day", "2027-03-01", "'cell' holds str '2027-03-01', not a date"),
        ("text", 12, "'cell' holds int 12, not text"),
        ("flag", "Yes", "'cell' holds str 'Yes', not Yes or No"),
        ("Result", "W+", "'cell' holds str 'W+', not Result"),
    ],
)
def test_a_value_of_another_type_is_a_bug_named_by_its_key(
    reader: str, value: object, said: str
) -> None:
    with pytest.raises(WrongType) as caught:
        READERS[reader](Row({"cell": value}))
    assert str(caught.value) == said
    assert isinstance(caught.value, TypeError)


def test_the_settings_are_read_by_the_same_accessors() -> None:
    with pytest.raises(WrongType, match="'name' holds int 5, not text"):
        settings_from_values({"name": 5})
    # A number setting's value is checked against its bounds first, naming the setting
    # (an import or ``new`` may bring one): text there is no number.
    with pytest.raises(ValueError, match="Number of rounds: '5' is not a number from 1 to 30"):
        settings_from_values({"rounds": "5"})
    assert settings_from_values({"rounds": 4, "komi": 6}).komi == 6.0
