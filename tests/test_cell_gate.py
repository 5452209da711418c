"""Every value passes one gate into a cell: no formula injection, nothing a cell cannot hold.

Through the real command line on real workbooks; the TD's own formulas, typed with
openpyxl as a TD types them, survive every rewrite.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest

from addin.core.text_input import formula_like
from addin.excel.entry import dispatch
from addin.excel.remote_json import book_json
from addin.workbook.book import read_book
from addin.workbook.cells import Formula, RefusedValue, Text, gate
from addin.workbook.layout import players_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from addin.workbook.xlwings_gateway import _as_typed
from tests.helpers import digest, licensed_remote_engine, run
from tests.workbook_fixtures import simple_tournament, write_workbook


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return write_workbook(tmp_path / "t.xlsx", simple_tournament(players=8, rounds=1), rounds=1)


def players_cells(path: Path) -> list[list[openpyxl.cell.cell.Cell]]:
    ws = openpyxl.load_workbook(path)["Players"]
    return [list(row) for row in ws.iter_rows(min_row=2) if row[0].value is not None]


INJECTIONS = [
    '=HYPERLINK("http://x";"click")',
    "=1+2",
    "+1+2",
    "-2+3",
    "@SUM(1)",
    "=cmd|' /C calc'!A0",
]


@pytest.mark.parametrize("family", INJECTIONS)
def test_a_formula_like_name_from_the_command_line_is_stored_as_text(
    book: Path, family: str
) -> None:
    done = run("register", book, "--name", f"{family}, Pat", "--rank", "5k", "--yes")
    assert done.returncode == 0, done.stderr
    cell = players_cells(book)[-1][1]
    assert (cell.value, cell.data_type) == (family, "s")


def test_a_formula_like_name_from_a_preregistration_csv_is_stored_as_text(
    book: Path, tmp_path: Path
) -> None:
    csv = tmp_path / "prereg.csv"
    csv.write_text(
        'Name,AGA #,Rank,Club,Email,Bye requests\n"=HYPERLINK(""http://x""), Ann",,3k,,,\n',
        encoding="utf-8",
    )
    done = run("preregister", book, csv, "--yes")
    assert done.returncode == 0, done.stderr
    families = {c[1].value: c[1].data_type for c in players_cells(book)}
    assert families['=HYPERLINK("http://x")'] == "s"


def test_negative_numbers_stay_numbers(book: Path) -> None:
    assert run("register", book, "--name", "Minus, Pat", "--rank", "-3.5", "--yes").returncode == 0
    row = players_cells(book)[-1]
    ws_headers = [c.value for c in openpyxl.load_workbook(book)["Players"][1]]
    rating = row[ws_headers.index("Entry rating")]
    assert rating.value == -3.5 and rating.data_type == "n"


def test_the_tds_own_formulas_survive_a_rewrite(book: Path) -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    headers = [c.value for c in ws[1]]
    extra = len([h for h in headers if h is not None]) + 1
    ws.cell(row=1, column=extra, value="Double rating")
    rating = openpyxl.utils.get_column_letter(headers.index("Entry rating") + 1)
    for r in range(2, ws.max_row + 1):
        if ws.cell(row=r, column=1).value is not None:
            ws.cell(row=r, column=extra, value=f"={rating}{r}*2")
    ws.cell(row=2, column=extra + 1, value="=text typed as text")
    ws.cell(row=2, column=extra + 1).data_type = "s"
    wb.save(book)

    assert run("register", book, "--name", "Late, Pat", "--rank", "5k", "--yes").returncode == 0
    ws = openpyxl.load_workbook(book)["Players"]
    formulas = [
        ws.cell(row=r, column=extra)
        for r in range(2, ws.max_row + 1)
        if ws.cell(row=r, column=extra).value
    ]
    assert len(formulas) == 8
    assert all(c.data_type == "f" and str(c.value).endswith("*2") for c in formulas)


@pytest.mark.parametrize(
    ("family", "message"),
    [
        (
            "Bad\x07Name",
            "Players!B10 (Family name): text holds the control character U+0007, "
            "which .xlsx files cannot store: 'Bad\\x07Name'; nothing was written",
        ),
        (
            "Tab\x0bName",
            "Players!B10 (Family name): text holds the control character U+000B, "
            "which .xlsx files cannot store: 'Tab\\x0bName'; nothing was written",
        ),
        (
            "L" * 40_000,
            "Players!B10 (Family name): text of 40,000 characters is longer than a cell "
            f"holds (32,767): {'L' * 200!r}... (40,000 characters); nothing was written",
        ),
    ],
)
def test_text_no_cell_can_hold_is_refused_naming_the_cell(
    book: Path, family: str, message: str
) -> None:
    """The gate itself, below every reader (each of which refuses such text first)."""
    gw = OpenpyxlGateway.open(book)
    table = players_table(read_book(gw).tournament.settings.rounds)
    rows = [*gw.read_table(table).rows, {"aga_id": 90001, "family_name": family, "rank": "5k"}]
    with pytest.raises(RefusedValue) as refused:
        gw.write_table(table, rows)
    assert str(refused.value) == message


@pytest.mark.parametrize("name", ["Bad\x07Name, Pat", "L" * 40_000 + ", Pat"])
def test_a_name_no_cell_can_hold_is_refused_naming_the_cell(book: Path, name: str) -> None:
    before = digest(book)
    done = run("register", book, "--name", name, "--rank", "5k", "--yes")
    assert done.returncode == 1
    assert done.stderr.startswith("error: Players!B10 (Family name): text ")
    assert len(done.stderr) < 400 and done.stdout == ""
    assert digest(book) == before


def test_the_gate_rules() -> None:
    assert gate("-3.5", "X!A1") == "-3.5", "a number as text is no formula"
    assert gate("+7", "X!A1") == "+7"
    assert gate("Smith", "X!A1") == "Smith"
    assert gate(-3.5, "X!A1") == -3.5
    assert gate("\tx", "X!A1") == Text("\tx")
    assert gate("\rx", "X!A1") == Text("\rx")
    assert gate("line\nbreak", "X!A1") == "line\nbreak"
    assert gate(Formula("=A1*2"), "X!A1") == "=A1*2"
    assert formula_like("=A1") and not formula_like("1e5") and not formula_like("-.5")
    with pytest.raises(RefusedValue, match=r"^X!A1: text holds the control character U\+0000"):
        gate("a\x00b", "X!A1")


def test_excel_gets_formula_like_text_with_its_text_prefix() -> None:
    """The Excel gateway writes an apostrophe, Excel's mark for text (not part of the value)."""
    assert _as_typed(Text("=1+2")) == "'=1+2"
    assert _as_typed("=read back as text") == "'=read back as text"
    assert _as_typed("-3.5") == "-3.5"
    assert _as_typed(-3.5) == -3.5
    assert _as_typed("Smith") == "Smith"


def test_a_page_opened_in_excel_keeps_formula_like_names_as_text(book: Path) -> None:
    assert run("register", book, "--name", "=1+2, Pat", "--rank", "5k", "--yes").returncode == 0
    page = book.parent / "registration.html"
    assert run("report", book, "registration", "--out", page).returncode == 0
    html = page.read_text(encoding="utf-8")
    assert '<td class="name" style="mso-number-format:\'\\@\'">=1+2, Pat</td>' in html
    assert html.count("mso-number-format") == 1, "ordinary cells are left alone"


# --- the Excel front door, on xlwings' remote engine ---------------------------------------


@pytest.fixture
def remote_engine() -> Iterator[None]:
    with licensed_remote_engine():
        yield


def test_excel_stores_a_formula_like_name_as_text(book: Path, remote_engine: None) -> None:
    import xlwings as xw

    remote = xw.Book(json=book_json(book))
    outcome = dispatch("register", remote, {"name": "=1+2, Pat", "rank": "5k"}, yes=True)
    assert outcome.status == "done", outcome.messages
    blocks = [a for a in remote.json()["actions"] if a["func"] == "setValues"]
    players = next(b for b in blocks if b["values"][0][:2] == ["AGA #", "Family name"])
    assert players["values"][-1][1] == "'=1+2"


def test_excel_refuses_a_control_character_naming_the_cell(book: Path, remote_engine: None) -> None:
    import xlwings as xw

    remote = xw.Book(json=book_json(book))
    outcome = dispatch("register", remote, {"name": "Bad\x07Name, Pat", "rank": "5k"}, yes=True)
    assert outcome.status == "error"
    assert outcome.messages == [
        "Players!B10 (Family name): text holds the control character U+0007, which .xlsx "
        "files cannot store: 'Bad\\x07Name'; nothing was written"
    ]
