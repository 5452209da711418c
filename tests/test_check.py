"""`check` names every problem with its cell, tolerates what a TD types, and writes nothing."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from addin.workbook.layout import games_table
from tests.helpers import digest, run
from tests.workbook_fixtures import simple_tournament, write_workbook


@pytest.fixture
def players_book(tmp_path: Path) -> Path:
    return write_workbook(tmp_path / "t.xlsx", simple_tournament(players=10, rounds=1), rounds=1)


def column_of(ws, header: str) -> int:
    return [c.value for c in ws[1]].index(header) + 1


def test_a_clean_workbook_has_no_problems(players_book: Path) -> None:
    result = run("check", players_book)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 problem(s)" in result.stdout


def test_bad_input_is_named_by_cell_and_nothing_is_written(players_book: Path) -> None:
    wb = openpyxl.load_workbook(players_book)
    ws = wb["Players"]
    rating, aga = column_of(ws, "Entry rating"), column_of(ws, "AGA #")
    ws.cell(row=3, column=rating, value="abc")  # a rating that is not a number
    ws.cell(row=4, column=column_of(ws, "Rank or rating"), value="strong")  # not a rank
    ws.cell(row=5, column=aga, value=ws.cell(row=4, column=aga).value)  # a duplicate AGA #
    ws.insert_rows(7)  # a blank row in the middle
    ws.cell(row=9, column=rating, value="-12.5")  # a number stored as text: accepted, noted
    wb.save(players_book)
    before = digest(players_book)

    result = run("check", players_book)

    rating_letter = openpyxl.utils.get_column_letter(rating)
    aga_letter = openpyxl.utils.get_column_letter(aga)
    assert result.returncode == 1
    out = result.stdout
    assert f"problem: Players!{rating_letter}3 (Entry rating): 'abc' is not a number" in out
    rank_letter = openpyxl.utils.get_column_letter(column_of(ws, "Rank or rating"))
    assert (
        f"problem: Players!{rank_letter}4 (Rank or rating): 'strong' is not a rank or rating" in out
    )
    assert f"problem: Players!{aga_letter}5 (AGA #): duplicate AGA # " in out
    assert "(also in row 4)" in out
    assert "note: Players!7:7: blank row skipped" in out
    assert f"note: Players!{rating_letter}9 (Entry rating): number stored as text: '-12.5'" in out
    assert digest(players_book) == before


def test_a_deleted_required_column_is_named(players_book: Path) -> None:
    wb = openpyxl.load_workbook(players_book)
    ws = wb["Players"]
    ws.delete_cols(column_of(ws, "Family name"))
    wb.save(players_book)
    before = digest(players_book)

    result = run("check", players_book)

    assert result.returncode == 1
    assert "problem: Players!1:1: required column 'Family name' is missing" in result.stdout
    assert digest(players_book) == before


def test_a_round_naming_an_unknown_player_is_named(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "t.xlsx", simple_tournament(players=6, rounds=1), rounds=1)
    wb = openpyxl.load_workbook(path)
    white = 1 + [c.key for c in games_table(1).columns].index("white")
    cell = wb["Round 1"].cell(row=2, column=white, value=55555).coordinate
    wb.save(path)

    result = run("check", path)

    assert result.returncode == 1
    assert (
        f"problem: Round 1!{cell} (White AGA #): AGA # 55555 is not in the Players sheet"
        in result.stdout
    )
