"""The Round sheets taken together: what a TD's sheet tabs can do, through the real CLI.

A real workbook (the demo: 20 players, 3 rounds played, then the Number of rounds raised to 5
in the Tournament sheet as a TD types it) is edited with openpyxl as a TD edits it (delete,
rename or empty a Round sheet, type over a cell), and once re-saved by LibreOffice. Every
edit must be listed by ``check`` and refused by ``standings`` and ``pair`` with the sheet
and cell named, leaving the workbook byte-identical.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from openpyxl.cell.cell import Cell
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from tests.helpers import SOFFICE, digest, libreoffice_convert, run


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament of 5 rounds with rounds 1-3 paired and played."""
    book = tmp_path_factory.mktemp("demo") / "demo.xlsx"
    result = run("demo", book, "--players", 20, "--rounds", 3)
    assert result.returncode == 0, result.stderr
    edit(book, lambda wb: setting_cell(wb, "Number of rounds").__setattr__("value", 5))
    return book


@pytest.fixture
def book(played: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(played, tmp_path / "t.xlsx"))


def edit(book: Path, change: Callable[[Workbook], object]) -> None:
    wb = openpyxl.load_workbook(book)
    change(wb)
    wb.save(book)


def setting_cell(wb: Workbook, label: str) -> Cell:
    ws = wb["Tournament"]
    for row in ws.iter_rows():
        for c in row:
            if c.value == label:
                return ws.cell(row=c.row, column=c.column + 1)
    raise AssertionError(label)


def column(ws: Worksheet, header: str) -> str:
    return next(c.column_letter for c in ws[1] if c.value == header)


def letter(book: Path, sheet: str, header: str) -> str:
    """Where the column stands in the workbook as written (the layout may move it)."""
    return column(openpyxl.load_workbook(book, read_only=False)[sheet], header)


def check_lists(book: Path, *fragments: str) -> str:
    before = digest(book)
    result = run("check", book)
    assert result.returncode == 1, result.stdout
    problems = [line for line in result.stdout.splitlines() if line.startswith("problem:")]
    for fragment in fragments:
        assert any(fragment in p for p in problems), (fragment, result.stdout)
    assert digest(book) == before
    return result.stdout


def refused(book: Path, *args: object, naming: str) -> str:
    """``args`` fails with exit 1, names ``naming``, and leaves the workbook byte-identical."""
    before = digest(book)
    result = run(*args, book, "--yes")
    assert result.returncode == 1, (args, result.stdout, result.stderr)
    assert naming in result.stderr, result.stderr
    assert "is unchanged" in result.stderr
    assert digest(book) == before
    return result.stderr


def standings_and_pair_refuse(book: Path, naming: str) -> None:
    refused(book, "standings", naming=naming)
    refused(book, "pair", naming=naming)


def test_the_untouched_workbook_has_no_problem(book: Path) -> None:
    result = run("check", book)
    assert result.returncode == 0, result.stdout
    assert run("standings", book, "--yes").returncode == 0


def test_a_deleted_round_sheet(book: Path) -> None:
    edit(book, lambda wb: wb.remove(wb["Round 2"]))
    check_lists(book, "Round 2: the sheet is missing (deleted or renamed) while round 3 is paired")
    standings_and_pair_refuse(book, "Round 2: the sheet is missing")


def test_a_renamed_round_sheet(book: Path) -> None:
    edit(book, lambda wb: setattr(wb["Round 2"], "title", "Round 2 old"))
    out = check_lists(book, "Round 2: the sheet is missing")
    assert "is 'Round 2 old' that sheet? rename it back" in out
    standings_and_pair_refuse(book, "Round 2: the sheet is missing")
    # Renaming it back is all the TD has to do.
    edit(book, lambda wb: setattr(wb["Round 2 old"], "title", "Round 2"))
    assert run("check", book).returncode == 0


def _empty(wb: Workbook) -> None:
    ws = wb["Round 2"]
    ws.delete_rows(2, ws.max_row)


def test_an_emptied_round_sheet(book: Path) -> None:
    edit(book, _empty)
    check_lists(book, "Round 2!A2: round 2 has no games and no byes while round 3 is paired")
    standings_and_pair_refuse(book, "Round 2!A2")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_an_emptied_round_sheet_resaved_by_libreoffice(book: Path, tmp_path: Path) -> None:
    edit(book, _empty)
    resaved = libreoffice_convert(book, "xlsx", tmp_path / "libreoffice")
    check_lists(resaved, "Round 2!A2: round 2 has no games and no byes")
    standings_and_pair_refuse(resaved, "Round 2!A2")


def test_a_round_beyond_the_number_of_rounds(book: Path) -> None:
    edit(book, lambda wb: setattr(setting_cell(wb, "Number of rounds"), "value", 2))
    check_lists(book, "Round 3: round 3 is beyond the tournament's 2 rounds (Tournament!B27")
    standings_and_pair_refuse(book, "Round 3: round 3 is beyond the tournament's 2 rounds")


def test_a_player_twice_in_a_round(book: Path) -> None:
    def twice(wb: Workbook) -> None:
        ws = wb["Round 2"]
        white = column(ws, "White AGA #")
        ws[f"{white}3"] = ws[f"{white}2"].value

    edit(book, twice)
    white = letter(book, "Round 2", "White AGA #")
    check_lists(
        book, f"Round 2!{white}3 (White AGA #): AGA #", f"appears twice in round 2 (also {white}2)"
    )
    standings_and_pair_refuse(book, f"Round 2!{white}3 (White AGA #)")


@pytest.mark.parametrize("stones", [12, -1])
def test_a_handicap_outside_0_to_9(book: Path, stones: int) -> None:
    def handicap(wb: Workbook) -> None:
        ws = wb["Round 1"]
        ws[f"{column(ws, 'Handicap')}4"] = stones

    edit(book, handicap)
    cell = f"Round 1!{letter(book, 'Round 1', 'Handicap')}4 (Handicap)"
    check_lists(book, f"{cell}: a handicap is 0 to 9 stones, not {stones}")
    standings_and_pair_refuse(book, cell)


def test_a_result_in_a_game_without_players(book: Path) -> None:
    def clear_players(wb: Workbook) -> None:
        ws = wb["Round 3"]
        for header in ("White AGA #", "Black AGA #"):
            ws[f"{column(ws, header)}5"] = None

    edit(book, clear_players)
    cell = f"Round 3!{letter(book, 'Round 3', 'Result')}5 (Result)"
    check_lists(book, f"{cell}: a result in a game that has no players")
    standings_and_pair_refuse(book, cell)


def test_an_earlier_round_is_repaired_by_unpairing_the_later_ones(book: Path) -> None:
    """What the README tells a TD who wants round 2 paired again while round 3 exists."""
    refused(book, "unpair", "--round", 2, naming="round 3 is paired after round 2")
    assert run("unpair", book, "--round", 3, "--yes").returncode == 0
    assert run("unpair", book, "--round", 2, "--yes").returncode == 0
    result = run("pair", book, "--round", 2, "--yes")
    assert result.returncode == 0, result.stderr
    assert "Paired round 2" in result.stdout
    assert run("check", book).returncode == 0


def test_a_deleted_round_is_not_paired_again_under_a_later_one(book: Path) -> None:
    """Deleting the sheet is no way round ``unpair``: pairing round 2 again under round 3
    would score round 3 on a history that never happened."""
    edit(book, lambda wb: wb.remove(wb["Round 2"]))
    refused(book, "pair", "--round", 2, naming="round 3 is paired after round 2")
    # Throwing the rounds away is ``unpair``, from the last one down: round 2, deleted by
    # hand, is then the last round the Log records as paired, and unpair records it gone.
    assert run("unpair", book, "--round", 3, "--yes").returncode == 0
    listed = run("check", book)
    assert listed.returncode == 1 and "Log records round 2 as paired" in listed.stdout
    assert run("unpair", book, "--round", 2, "--yes").returncode == 0
    assert run("check", book).returncode == 0
    assert run("pair", book, "--yes").returncode == 0


def test_a_name_typed_over_another_players_name(book: Path) -> None:
    """The wall sheet shows the names; the AGA # decides who played. Typing another
    player's name over White would post one pairing and score another: refused."""
    wb = openpyxl.load_workbook(book)
    ws = wb["Round 3"]
    other_name = ws[f"{column(ws, 'Black')}2"].value
    other_id = ws[f"{column(ws, 'Black AGA #')}2"].value
    own_id = ws[f"{column(ws, 'White AGA #')}4"].value

    edit(
        book, lambda wb: wb["Round 3"].__setitem__(f"{column(wb['Round 3'], 'White')}4", other_name)
    )
    cell = f"Round 3!{letter(book, 'Round 3', 'White')}4 (White)"
    check_lists(book, f"{cell}: {other_name!r} is AGA # {other_id}", f"this game is {own_id}")
    standings_and_pair_refuse(book, cell)


def test_a_players_own_name_retyped_in_other_case_and_spacing_is_fine(book: Path) -> None:
    def shout(wb: Workbook) -> None:
        ws = wb["Round 3"]
        cell = ws[f"{column(ws, 'Black')}3"]
        cell.value = "  " + str(cell.value).upper().replace(", ", " ,  ")

    edit(book, shout)
    assert run("check", book).returncode == 0
