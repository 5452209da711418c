"""The same rules through Excel's entry points, on xlwings' real remote engine.

A typed row completed, a late arrival placed, the bar proposed: the button's result equals
the command line's, table by table (``same_as_command_line`` replays Excel's writes).
"""

from __future__ import annotations

from pathlib import Path

import openpyxl

from addin.excel.entry import dispatch
from tests.helpers import sheet_rows
from tests.test_excel_remote import (  # noqa: F401  (remote_engine: the module's fixture)
    alerts,
    cli,
    open_remote,
    prepared_file,
    remote_engine,
    same_as_command_line,
    writes,
)


def typed(path: Path, values: dict[str, object]) -> Path:
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    header = [c.value for c in ws[1]]
    row = ws.max_row + 1
    for title, value in values.items():
        ws.cell(row=row, column=header.index(title) + 1, value=value)
    wb.save(path)
    return path


def test_a_row_typed_with_only_an_aga_number_is_completed_by_the_next_button(
    tmp_path: Path,
) -> None:
    path = typed(prepared_file(tmp_path, 20), {"AGA #": 20003})
    same_as_command_line(tmp_path, path, "register", {"aga": 20004})
    row = next(r for r in sheet_rows(tmp_path / "by-excel.xlsx", "Players") if r["AGA #"] == 20003)
    assert (row["Family name"], row["Given name"], row["Membership"]) == ("Member3", "Pat", "Full")


def test_a_typed_lapsed_member_is_asked_about_in_a_dialog(tmp_path: Path) -> None:
    path = typed(prepared_file(tmp_path, 20), {"AGA #": 29999, "Rank or rating": "2d"})
    remote = open_remote(path)
    outcome = dispatch("register", remote, {"aga": 20004})
    assert outcome.status == "cancelled"
    asked = alerts(remote)[0]
    assert asked[2] == "ok_cancel" and "lapsed on 2019-01-31" in asked[0] and "2d" in asked[0]
    assert not writes(remote)


def test_a_late_arrival_registered_from_excel_joins_the_bands_and_the_td_is_told(
    tmp_path: Path,
) -> None:
    path = prepared_file(tmp_path, 20)
    assert cli(path, "bands", {}) == 0
    remote, _ = same_as_command_line(
        tmp_path, path, "register", {"name": "Late, Lou", "rank": "20k"}
    )
    told = [a[0] for a in alerts(remote) if "registered after the bands were made" in a[0]]
    assert told and "placed in band" in told[0]
    late = next(
        r for r in sheet_rows(tmp_path / "by-excel.xlsx", "Players") if r["Family name"] == "Late"
    )
    assert late["Band"] is not None and late["Initial score"] is not None


def test_the_pair_button_without_bands_says_to_run_bands_and_writes_nothing(
    tmp_path: Path,
) -> None:
    path = prepared_file(tmp_path, 20)
    remote = open_remote(path)
    outcome = dispatch("pair", remote, {}, yes=True)
    assert outcome.status == "error"
    assert "run bands first" in alerts(remote)[-1][0]
    assert not writes(remote)


def test_an_error_value_in_an_aga_number_is_named_in_excel_not_read_as_a_blank(
    tmp_path: Path,
) -> None:
    """xlwings reads an error cell as a blank unless asked: the gateway asks, so the rule of
    the command line (a problem naming the cell, never a row to fill in by name) holds."""
    from addin.workbook import book
    from addin.workbook.cells import ErrorValue
    from addin.workbook.layout import players_table
    from addin.workbook.xlwings_gateway import XlwingsGateway

    path = prepared_file(tmp_path, 20)
    wb = openpyxl.load_workbook(path)
    wb["Players"]["A3"].value = "#N/A"
    wb["Players"]["A3"].data_type = "e"
    wb["Players"]["E4"].value = True
    wb.save(path)
    gw = XlwingsGateway(open_remote(path))
    rows = gw.read_table(players_table(3)).rows
    assert rows[1].unread["aga_id"] == ErrorValue("#N/A")
    problems = [str(p) for p in book.read_book(gw).problems]
    assert "Players!A3 (AGA #): the error value #N/A is not an AGA number" in problems[0]
    assert "Players!E4 (Entry rating): TRUE (a true/false value) is not a number" in problems
    remote = open_remote(path)
    outcome = dispatch("register", remote, {"aga": 20004})
    assert outcome.status == "error"
    assert "Players!A3 (AGA #): the error value #N/A" in alerts(remote)[-1][0]
    assert not writes(remote)
