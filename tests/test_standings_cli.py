"""Results, standings and the cross table through the command line on a real workbook."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from addin.core.model import Bye, ByeKind, Game, Player, Result, Round, Tournament
from tests.helpers import digest, log_messages, run, set_cell, sheet_rows
from tests.workbook_fixtures import write_workbook


def four_player_book(tmp_path: Path) -> Path:
    """A, B, C, D: two rounds. A and B end tied on 1 win each; C has a forced bye."""
    t = Tournament()
    for pid, name, rating in [
        (1, "Ayers", 3.5),
        (2, "Baker", 3.2),
        (3, "Cole", 2.5),
        (4, "Dunn", 2.2),
        (5, "Eng", 1.5),
    ]:
        t.players[pid] = Player(pid, name, "Pat", rating=rating)
    t.rounds = [
        Round(
            1,
            (
                Game(1, 2, result=Result.WHITE_WINS, board=1),
                Game(4, 5, result=Result.BLACK_WINS, board=2),
            ),
            (Bye(3, ByeKind.FORCED),),
        ),
        Round(
            2,
            (
                Game(2, 3, result=Result.WHITE_WINS, board=1),
                Game(1, 5, result=Result.BLACK_WINS, board=2),
            ),
            (Bye(4, ByeKind.FORCED),),
        ),
    ]
    return write_workbook(tmp_path / "t.xlsx", t, rounds=2)


def test_standings_follow_mcmahon_score_then_the_configured_tiebreaks(tmp_path: Path) -> None:
    book = four_player_book(tmp_path)
    result = run("standings", book)
    assert result.returncode == 0, result.stderr
    rows = sheet_rows(book, "Standings")
    scores = {r["AGA #"]: r["McMahon score"] for r in rows}
    # Derived by hand: Eng won twice; Ayers, Baker, Cole, Dunn won once (byes count).
    assert scores == {5: 2, 1: 1, 2: 1, 3: 1, 4: 1}
    assert rows[0]["AGA #"] == 5 and rows[0]["Place"] == 1
    assert all(isinstance(r["Place"], int) for r in rows)
    assert all(r["Rank"][-1] in "kdp" for r in rows)  # ranks (3k), not raw ratings
    sos = {r["AGA #"]: r["SOS"] for r in rows}
    # Ayers met Baker (1) and Eng (2): SOS 3. Baker met Ayers (1) and Cole (1): SOS 2.
    assert sos[1] == 3 and sos[2] == 2
    order = [r["AGA #"] for r in rows]
    assert order.index(1) < order.index(2), "SOS breaks the tie between Ayers and Baker"
    cross = sheet_rows(book, "Cross Table")
    assert cross[0]["Name"].startswith("Eng") and cross[0]["R1"].endswith("+")
    assert "results digest" in log_messages(book)[-1][2]


def test_reordering_the_tiebreaks_reorders_the_standings(tmp_path: Path) -> None:
    book = four_player_book(tmp_path)
    wb = openpyxl.load_workbook(book)
    for row in wb["Tournament"].iter_rows(min_row=2):
        if row[0].value == "Tiebreak order":
            row[1].value = "Random, SOS"
    wb.save(book)
    assert run("standings", book).returncode == 0
    header = list(sheet_rows(book, "Standings")[0])
    assert header[-2:] == ["Random", "SOS"]


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [("white", "White wins"), ("1-0", "White wins"), ("b+", "Black wins"), ("JIGO", "Jigo")],
)
def test_typed_results_are_normalised(tmp_path: Path, typed: str, canonical: str) -> None:
    book = four_player_book(tmp_path)
    set_cell(book, "Round 1", "Result", 2, typed)
    assert run("standings", book).returncode == 0
    scores = {r["AGA #"]: r["McMahon score"] for r in sheet_rows(book, "Standings")}
    ayers_round_1 = {"White wins": 1, "Black wins": 0, "Jigo": 0.5}[canonical]
    assert scores[1] == ayers_round_1 + 0  # Ayers lost round 2 to Eng


@pytest.mark.parametrize(
    ("sheet", "header", "value", "message"),
    [
        ("Round 1", "Result", "??", "'??' is not one of White wins"),
        ("Round 1", "Bye type", "White wins", "'White wins' is not one of Voluntary, Forced"),
    ],
)
def test_bad_results_name_the_cell_and_nothing_is_written(
    tmp_path: Path, sheet: str, header: str, value: str, message: str
) -> None:
    book = four_player_book(tmp_path)
    cell = set_cell(book, sheet, header, 2, value)
    before = digest(book)
    result = run("standings", book)
    assert result.returncode == 1
    assert f"{sheet}!{cell} ({header}): {message}" in result.stderr
    assert digest(book) == before


def test_correcting_an_earlier_round_is_an_active_warning_and_recomputes(tmp_path: Path) -> None:
    book = four_player_book(tmp_path)
    assert run("standings", book).returncode == 0
    set_cell(book, "Round 1", "Result", 2, "Black wins")  # Ayers-Baker was recorded backwards
    refused = run("standings", book)
    assert refused.returncode == 3
    assert "results of round 1 changed" in refused.stderr
    assert run("standings", book, "--yes").returncode == 0
    scores = {r["AGA #"]: r["McMahon score"] for r in sheet_rows(book, "Standings")}
    assert scores[1] == 0 and scores[2] == 2
    assert any(level == "Warning" for level, _, _ in log_messages(book))
