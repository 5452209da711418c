"""One bad cell stops only what it affects, through the real CLI on a real workbook.

The demo tournament (20 players, rounds 1-3 played, Number of rounds raised to 5 as a TD
types it) gets one bad cell typed with openpyxl. Reports, printing, lookup and the AGA
export of the rounds played go on after a warning naming the cell (exit 3 without
``--yes``, workbook byte-identical); ``pair`` and ``standings`` stop, naming the cell, only
when it is an input of theirs. A cell the reader could not understand is written back as
typed when an action rewrites its sheet.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.workbook import Workbook

from tests.helpers import digest, libreoffice_convert, log_messages, run, sheet_rows
from tests.test_round_sheets_whole import SOFFICE, column, edit, refused, setting_cell


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = tmp_path_factory.mktemp("demo") / "demo.xlsx"
    result = run("demo", book, "--players", 20, "--rounds", 3)
    assert result.returncode == 0, result.stderr
    edit(book, lambda wb: setattr(setting_cell(wb, "Number of rounds"), "value", 5))
    return book


@pytest.fixture
def book(played: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(played, tmp_path / "t.xlsx"))


PLAYER_ROW = 3
"""The Players row given a bad cell: an active player, paired in every round so far."""


def player_id(book: Path, row: int = PLAYER_ROW) -> int:
    ws = openpyxl.load_workbook(book)["Players"]
    return int(ws[f"{column(ws, 'AGA #')}{row}"].value)


def type_into(book: Path, sheet: str, header: str, row: int, value: object) -> str:
    """Type ``value`` under ``header``; return the cell's name as messages give it."""
    wb = openpyxl.load_workbook(book)
    ws = wb[sheet]
    cell = f"{column(ws, header)}{row}"
    ws[cell] = value
    wb.save(book)
    return f"{sheet}!{cell} ({header})"


def goes_on_after_warning(book: Path, *args: object, naming: str, aside: str = "") -> str:
    """Without ``--yes``: exit 3 naming the cell (and saying ``aside``), nothing written;
    with it: done."""
    before = digest(book)
    asked = run(*args)
    assert asked.returncode == 3, (args, asked.stdout, asked.stderr)
    assert naming in asked.stderr and "warning:" in asked.stderr
    assert aside in asked.stderr
    assert digest(book) == before
    done = run(*args, "--yes")
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


def test_a_bad_rank_blocks_only_pairing_the_player(book: Path, tmp_path: Path) -> None:
    cell = type_into(book, "Players", "Rank or rating", PLAYER_ROW, "strong-ish")
    listed = run("check", book)
    assert listed.returncode == 1 and f"problem: {cell}: 'strong-ish'" in listed.stdout

    pairings = tmp_path / "pairings.txt"
    goes_on_after_warning(
        book, "report", book, "pairings", "--round", 3, "--out", pairings, naming=cell
    )
    assert "Round 3" in pairings.read_text()
    text, xml = tmp_path / "aga.txt", tmp_path / "aga.xml"
    goes_on_after_warning(
        book, "export-aga", book, "--text", text, "--xml", xml, "--force", naming=cell
    )
    assert text.read_text().strip() and xml.read_bytes().startswith(b"<?xml")
    assert run("lookup", book, "Fan").returncode == 0
    # The rank is no input of the scores: the standings go on too.
    out = goes_on_after_warning(book, "standings", book, naming=cell)
    assert "Standings of" in out
    assert any(level == "Warning" and cell in message for level, _, message in log_messages(book))
    # The director's operations read entry ratings, never ranks: recording a result goes on.
    board = sheet_rows(book, "Round 3")[0]["Board"]
    goes_on_after_warning(
        book, "result", book, "--round", 3, "--board", board, "--result", "Jigo", naming=cell
    )

    # It is an input of pairing this player: refused, naming the cell.
    refused(book, "pair", naming=cell)


def test_a_bad_rank_of_a_player_not_paired_lets_the_round_be_paired(book: Path) -> None:
    pid = player_id(book)
    bye = run("bye", book, "--round", 4, "--player", pid, "--yes")
    assert bye.returncode == 0, bye.stderr
    cell = type_into(book, "Players", "Rank or rating", PLAYER_ROW, "strong-ish")
    out = goes_on_after_warning(book, "pair", book, naming=cell)
    assert "Paired round 4" in out
    byes = {r["Bye AGA #"] for r in sheet_rows(book, "Round 4") if r.get("Bye AGA #")}
    assert pid in byes
    games = sheet_rows(book, "Round 4")
    assert all(pid not in (g.get("White AGA #"), g.get("Black AGA #")) for g in games)


def test_a_bad_result_stops_scoring_not_printing(book: Path, tmp_path: Path) -> None:
    cell = type_into(book, "Round 2", "Result", 3, "maybe")
    assert cell in run("check", book).stdout
    refused(book, "standings", naming=cell)
    refused(book, "pair", naming=cell)
    slips = tmp_path / "round2.txt"
    goes_on_after_warning(
        book,
        "report",
        book,
        "pairings",
        "--round",
        2,
        "--out",
        slips,
        naming=f"{cell}: 'maybe' is not one of",
        aside="report goes on as if the cell were blank",
    )
    assert slips.exists()
    # The director's operations stamp every round's results in the Log: they stop too.
    board = sheet_rows(book, "Round 3")[0]["Board"]
    refused(book, "result", "--round", 3, "--board", board, "--result", "Jigo", naming=cell)


def test_a_row_that_is_no_player_stops_pairing_not_printing(book: Path, tmp_path: Path) -> None:
    """A rank typed on a new row, with no name and no AGA #: nobody the program can complete
    (a registered row with its name blanked is filled again from the TDListA)."""
    new_row = len(sheet_rows(book, "Players")) + 2
    type_into(book, "Players", "Rank or rating", new_row, "5k")
    cell = f"Players!{column(openpyxl.load_workbook(book)['Players'], 'AGA #')}{new_row} (AGA #)"
    refused(book, "pair", naming=cell)
    out = tmp_path / "registration.txt"
    goes_on_after_warning(book, "report", book, "registration", "--out", out, naming=cell)
    assert out.exists()


def test_an_unreadable_cell_is_written_back_as_typed(book: Path) -> None:
    pid = player_id(book, 5)
    cell = type_into(book, "Players", "Birth date", 5, "yesterday")
    goes_on_after_warning(book, "drop", book, "--player", pid, naming=cell)
    row = next(r for r in sheet_rows(book, "Players") if r["AGA #"] == pid)
    assert row["Status"] == "Dropped"
    assert row["Birth date"] == "yesterday"


def test_a_structural_problem_still_stops_everything(book: Path, tmp_path: Path) -> None:
    def no_family_name_header(wb: Workbook) -> None:
        ws = wb["Players"]
        ws[f"{column(ws, 'Family name')}1"] = "Surname?"

    edit(book, no_family_name_header)
    refused(book, "export-aga", "--text", tmp_path / "aga.txt", naming="Family name")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_a_bad_rank_in_a_workbook_resaved_by_libreoffice(book: Path, tmp_path: Path) -> None:
    cell = type_into(book, "Players", "Rank or rating", PLAYER_ROW, "strong-ish")
    resaved = libreoffice_convert(book, "xlsx", tmp_path / "libreoffice")
    refused(resaved, "pair", naming=cell)
    out = tmp_path / "pairings.html"
    goes_on_after_warning(resaved, "report", resaved, "pairings", "--out", out, naming=cell)
    assert out.exists()
