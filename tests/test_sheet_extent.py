"""Reading costs what the data costs: a far-away stray value is named, never walked;
merged cells in a table are named by range, never a traceback.

The workbooks are edited with openpyxl as a TD edits them in a spreadsheet.
"""

from __future__ import annotations

import time
from pathlib import Path

import openpyxl
import pytest

from tests.helpers import digest, run
from tests.test_cell_gate import remote_engine  # noqa: F401 - a fixture
from tests.workbook_fixtures import simple_tournament, write_workbook


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return write_workbook(tmp_path / "t.xlsx", simple_tournament(players=8, rounds=1), rounds=1)


def edit(book: Path, sheet: str, change: str, value: object = "x") -> None:
    wb = openpyxl.load_workbook(book)
    if ":" in change:
        wb[sheet].merge_cells(change)
    else:
        wb[sheet][change] = value
    wb.save(book)


def test_a_stray_value_in_the_last_row_is_a_problem_found_quickly(book: Path) -> None:
    edit(book, "Players", "AD1048576", "stray")
    before = digest(book)
    started = time.perf_counter()
    check = run("check", book)
    seconds = time.perf_counter() - started
    assert check.returncode == 1
    assert (
        "problem: Players!AD1048576: a value far outside the sheet's data ('stray'), which "
        "would make every reader walk to it; delete it or move it next to the data"
    ) in check.stdout.splitlines()
    assert seconds < 20, f"check took {seconds:.1f} s"
    register = run("register", book, "--name", "Late, Pat", "--rank", "5k", "--yes")
    assert register.returncode == 1
    assert "Players!AD1048576: a value far outside the sheet's data" in register.stderr
    assert digest(book) == before


def test_the_log_goes_on_below_its_entries_not_below_a_stray_value(book: Path) -> None:
    entries = openpyxl.load_workbook(book)["Log"].max_row
    edit(book, "Log", "A1048000", "stray")
    started = time.perf_counter()
    done = run("register", book, "--name", "Late, Pat", "--rank", "5k", "--yes")
    assert done.returncode == 0, done.stderr
    assert time.perf_counter() - started < 20
    ws = openpyxl.load_workbook(book)["Log"]
    added = [str(ws.cell(row=r, column=4).value) for r in range(entries + 1, entries + 6)]
    assert any(m.startswith("Registered Late, Pat") for m in added), added
    assert ws["A1048000"].value == "stray"


def test_blank_rows_inside_a_table_are_still_read(book: Path) -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    last = max(r for r in range(1, ws.max_row + 1) if ws.cell(row=r, column=1).value)
    for c in range(1, 6):
        ws.cell(row=last + 300, column=c, value=ws.cell(row=last, column=c).value)
    ws.cell(row=last + 300, column=1, value=77777)
    wb.save(book)
    check = run("check", book)
    assert "A77777" not in check.stdout
    assert f"note: Players!{last + 1}:{last + 1}: blank row skipped" in check.stdout.splitlines()


@pytest.mark.parametrize(
    ("sheet", "cells", "reader"),
    [
        ("Players", "B3:C3", ("register", "--name", "Late, Pat", "--rank", "5k", "--yes")),
        ("Round 1", "A2:A3", ("standings", "--yes")),
    ],
)
def test_merged_cells_in_a_table_are_a_problem_named_by_range(
    book: Path, sheet: str, cells: str, reader: tuple[str, ...]
) -> None:
    """``check`` names the range; an action that reads that table stops on it."""
    edit(book, sheet, cells)
    before = digest(book)
    check = run("check", book)
    assert check.returncode == 1, check.stdout + check.stderr
    assert (
        f"problem: {sheet}!{cells}: merged cells in a table; unmerge them so that each value "
        "has a cell of its own"
    ) in check.stdout.splitlines()
    action = run(reader[0], book, *reader[1:])
    assert action.returncode == 1
    assert "Traceback" not in action.stderr
    assert f"{sheet}!{cells}: merged cells in a table" in action.stderr
    assert digest(book) == before


def test_excel_names_a_stray_value_and_reads_only_to_the_data(
    book: Path,
    remote_engine: None,  # noqa: F811 - the fixture
) -> None:
    import xlwings as xw

    from addin.excel.entry import dispatch
    from addin.excel.remote_json import book_json

    edit(book, "Players", "AD3000", "stray")
    remote = xw.Book(json=book_json(book))
    outcome = dispatch("check", remote, {}, yes=True)
    assert outcome.status == "done", outcome.messages
    assert (
        "problem: Players!AD3000: a value far outside the sheet's data ('stray'), which "
        "would make every reader walk to it; delete it or move it next to the data"
    ) in outcome.messages


def test_excel_stops_reading_a_long_used_range_where_the_data_ends(
    book: Path,
    remote_engine: None,  # noqa: F811 - the fixture
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import xlwings as xw

    from addin.excel.entry import dispatch
    from addin.excel.remote_json import book_json
    from addin.workbook import window_storage

    monkeypatch.setattr(window_storage, "CELLS_PER_READ", 1000)  # blocks of 1000 rows
    edit(book, "Players", "AD3000", "stray")
    remote = xw.Book(json=book_json(book))
    outcome = dispatch("check", remote, {}, yes=True)
    assert outcome.status == "done", outcome.messages
    assert (  # the header and 8 players: the data ends in row 9
        "problem: Players!AD3000: the sheet's used range reaches AD3000, far beyond its data "
        "(row 9); delete the rows and columns past the data"
    ) in outcome.messages


def test_a_stray_on_a_round_sheet_is_named_once_though_the_sheet_holds_two_tables(
    book: Path,
) -> None:
    edit(book, "Round 1", "Z3000", "stray")
    done = run("standings", str(book))
    assert done.returncode != 0
    assert done.stderr.count("Round 1!Z3000: a value far outside the sheet's data") == 1
