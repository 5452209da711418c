"""The Calc door on a real, live LibreOffice: every action through UNO, checked cell by cell.

A headless ``soffice`` with its own profile opens the workbook; the actions run through
``addin.calc.entry.dispatch`` and the ``UnoGateway`` on the live document, exactly as the
extension's toolbar runs them; the same actions run through the command line's openpyxl
gateway on a copy. After each step every sheet is read back through UNO and compared,
cell by cell, with the file the command line saved.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from addin.actions.member_list import read_members
from addin.calc.dialogs import AcceptAll
from addin.calc.entry import CalcWindow, dispatch
from addin.calc.office import Office
from addin.calc.uno_gateway import DATE_TYPE, UnoGateway
from addin.workbook import book
from addin.workbook.gateway import Selection
from addin.workbook.layout import TDLISTA, games_table, players_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.calc_support import cli, file_cells, live_cells, office_or_skip, without_clock
from tests.helpers import DATA, TDLISTA_SNAPSHOT
from tests.workbook_fixtures import simple_tournament, write_workbook

ROUNDS = 5
FIELD = 60
SHORT_TDLISTA = DATA / "tdlista" / "tdlista-short.txt"
REGISTERED_AT_DESK: tuple[tuple[int, str | None], ...] = ((8217, None), (1310, None), (20388, "3k"))
"""Members of a real TDListA excerpt registered at the desk (the rest pre-registered)."""
RESULTS = ("W", "B", "W", "B", "Jigo")
BY_ACTION = 4
"""Boards per round whose result goes in through the ``result`` action; the TD types the
rest into the Round sheet (as most TDs do)."""
TYPED = ("White wins", "Black wins", "W", "b", "Jigo")


@pytest.fixture(scope="module")
def office() -> Iterator[Office]:
    yield from office_or_skip()


class Both:
    """One workbook twice: live in LibreOffice and as a file the command line edits."""

    def __init__(self, office: Office, source: Path, tmp: Path) -> None:
        self.file = Path(shutil.copy(source, tmp / "by-cli.xlsx"))
        self.live = Path(shutil.copy(source, tmp / "by-calc.xlsx"))
        self.office = office
        self.doc = office.open(self.live)

    def run(self, action: str, **params: object) -> None:
        """``action`` on both; a parameter ``out`` is a file per side (``cli.out``...)."""
        assert cli(self.file, action, params | self._out("cli", params)) == 0, action
        live = params | self._out("calc", params)
        outcome = dispatch(action, self.doc, self.office.ctx, live, dialogs=AcceptAll(), yes=True)
        assert outcome.status == "done", outcome

    def _out(self, side: str, params: dict[str, object]) -> dict[str, object]:
        out = params.get("out")
        return {"out": Path(str(out)).with_stem(f"{Path(str(out)).stem}-{side}")} if out else {}

    def assert_same(self) -> None:
        live, saved = without_clock(live_cells(self.doc)), without_clock(file_cells(self.file))
        assert list(live) == list(saved)
        for sheet in saved:
            assert live[sheet] == saved[sheet], sheet

    def type_results(self, number: int, results: dict[int, str]) -> None:
        """The TD types results into the Round sheet, in Calc and in the file alike."""
        rows = OpenpyxlGateway.open(self.file).read_table(games_table(number)).rows
        cells = {int(r["board"]): r.cells["result"] for r in rows}  # type: ignore[arg-type]
        wb = openpyxl.load_workbook(self.file)
        sheet = self.doc.Sheets.getByName(games_table(number).sheet)
        for board, result in results.items():
            wb[games_table(number).sheet][cells[board]] = result
            sheet.getCellRangeByName(cells[board]).setString(result)
        wb.save(self.file)


def boards(path: Path, number: int) -> list[int]:
    rows = OpenpyxlGateway.open(path).read_table(games_table(number)).rows
    return [int(r["board"]) for r in rows if r["board"] is not None]  # type: ignore[arg-type]


def test_a_60_player_5_round_tournament_is_the_same_in_calc_and_on_the_command_line(
    office: Office, tmp_path: Path
) -> None:
    start = simple_tournament(FIELD - len(REGISTERED_AT_DESK), 0, seed=FIELD)
    both = Both(office, write_workbook(tmp_path / "open.xlsx", start, ROUNDS), tmp_path)
    both.assert_same()
    both.run("import-tdlista", tdlista=SHORT_TDLISTA)
    for aga, rank in REGISTERED_AT_DESK:
        both.run("register", aga=aga, rank=rank)
    both.run("register", name="Walk-In, Wanda", rank="5k")
    both.assert_same()
    both.run("bands")
    both.assert_same()
    rng = random.Random(FIELD)
    for number in range(1, ROUNDS + 1):
        both.run("pair")
        both.assert_same()
        played = boards(both.file, number)
        for board in played[:BY_ACTION]:
            both.run("result", round=number, board=board, result=rng.choice(RESULTS))
        both.type_results(number, {b: rng.choice(TYPED) for b in played[BY_ACTION:]})
        both.assert_same()
    both.run("standings")
    both.run("report", kind="pairings", sheet=True, out=tmp_path / "pairings.html")
    both.assert_same()
    players = book.read_book(UnoGateway(both.doc)).tournament.players
    assert len(players) == FIELD + 1


def test_the_full_tdlista_goes_in_as_one_block_and_reads_back_the_same(
    office: Office, tmp_path: Path
) -> None:
    """The AGA's whole list (22,410 members) through UNO, then a registration from it."""
    start = simple_tournament(20, 0, seed=20)
    both = Both(office, write_workbook(tmp_path / "club.xlsx", start, 3), tmp_path)
    both.run("import-tdlista", tdlista=TDLISTA_SNAPSHOT)
    both.run("register", aga=15648)
    both.assert_same()


def test_selected_rows_drive_the_buttons_as_in_excel(office: Office, tmp_path: Path) -> None:
    """Members' rows selected in TDListA (two areas), then Register; player rows selected in
    Players, then Drop: the same as the command line given those AGA numbers."""
    start = simple_tournament(20, 0, seed=21)
    both = Both(office, write_workbook(tmp_path / "club.xlsx", start, 3), tmp_path)
    both.run("import-tdlista", tdlista=SHORT_TDLISTA)
    members = OpenpyxlGateway.open(both.file).read_table(TDLISTA).rows
    chosen = [members[0], members[1], members[4]]  # rows 2-3 and 6 of the sheet
    for row in chosen:
        assert cli(both.file, "register", {"aga": row["aga_id"]}) == 0

    select(both.doc, "TDListA", ["A2:C3", "B6"])
    assert CalcWindow(office.ctx, both.doc, AcceptAll()).selection() == Selection(
        "TDListA", (2, 3, 6)
    )
    outcome = dispatch("register", both.doc, office.ctx, dialogs=AcceptAll(), yes=True)
    assert outcome.status == "done", outcome
    players = OpenpyxlGateway.open(both.file).read_table(players_table(3)).rows
    dropped = [r["aga_id"] for r in players[2:4]]
    for aga in dropped:
        assert cli(both.file, "drop", {"player": aga}) == 0
    select(both.doc, "Players", ["A4:D5"])
    outcome = dispatch("drop", both.doc, office.ctx, dialogs=AcceptAll(), yes=True)
    assert outcome.status == "done", outcome
    both.assert_same()


def test_lookup_selects_the_matches_in_the_tdlista_sheet(office: Office, tmp_path: Path) -> None:
    """A look-up from the toolbar selects its matches' rows, ready for Register (as the
    ribbon does in Excel), and says so; the rows are the members the command line lists."""
    start = simple_tournament(12, 0, seed=22)
    both = Both(office, write_workbook(tmp_path / "club.xlsx", start, 3), tmp_path)
    both.run("import-tdlista", tdlista=SHORT_TDLISTA)
    members = OpenpyxlGateway.open(both.file).read_table(TDLISTA).rows
    family = str(members[3]["name"]).split(",")[0]
    found = {m.aga_id for m in read_members(OpenpyxlGateway.open(both.file)).search(family)}
    expected = {row.number for row in members if row["aga_id"] in found}
    assert expected
    select(both.doc, "Players", ["A2"])  # the TD's cursor is elsewhere
    outcome = dispatch("lookup", both.doc, office.ctx, {"query": family}, dialogs=AcceptAll())
    assert outcome.status == "done", outcome
    assert outcome.messages[-1].startswith("The matches are selected on the TDListA sheet")
    now = CalcWindow(office.ctx, both.doc, AcceptAll()).selection()
    assert now is not None and now.sheet == "TDListA" and set(now.rows) == expected
    chosen = both.doc.CurrentController.getSelection()
    spans = (
        list(chosen.RangeAddresses) if hasattr(chosen, "RangeAddresses") else [chosen.RangeAddress]
    )
    assert {(a.StartColumn, a.EndColumn) for a in spans} == {(0, len(TDLISTA.columns) - 1)}


def select(doc: Any, sheet: str, areas: list[str]) -> None:
    """Select ``areas`` of ``sheet`` in the document's window, as the TD's mouse does."""
    ws = doc.Sheets.getByName(sheet)
    doc.CurrentController.setActiveSheet(ws)
    ranges = doc.createInstance("com.sun.star.sheet.SheetCellRanges")
    for area in areas:
        ranges.addRangeAddress(ws.getCellRangeByName(area).RangeAddress, False)
    doc.CurrentController.select(ranges)


def test_a_refused_action_names_the_cell_and_leaves_the_document_as_it_was(
    office: Office, tmp_path: Path
) -> None:
    source = write_workbook(tmp_path / "club.xlsx", simple_tournament(20, 2, seed=22), 3)
    doc = office.open(Path(shutil.copy(source, tmp_path / "by-calc.xlsx")))
    cell = OpenpyxlGateway.open(source).read_table(games_table(1)).rows[0].cells["result"]
    doc.Sheets.getByName("Round 1").getCellRangeByName(cell).setString("banana")
    before = live_cells(doc)
    dialogs = AcceptAll()
    outcome = dispatch("standings", doc, office.ctx, {}, dialogs=dialogs, yes=True)
    assert outcome.status == "error", outcome
    assert f"Round 1!{cell}" in outcome.messages[0] and "banana" in outcome.messages[0]
    assert dialogs.shown[-1][2], "an error dialog"
    assert live_cells(doc) == before


def test_the_tds_own_formulas_and_dates_survive_a_rewrite(office: Office, tmp_path: Path) -> None:
    """Columns the TD added to Players: a date and a formula, kept through ``register``."""
    source = write_workbook(tmp_path / "club.xlsx", simple_tournament(10, 0, seed=23), 3)
    doc = office.open(Path(shutil.copy(source, tmp_path / "by-calc.xlsx")))
    ws = doc.Sheets.getByName("Players")
    width = UnoGateway(doc)._used_corner("Players")[1]
    paid, fee = ws.getCellByPosition(width, 0), ws.getCellByPosition(width + 1, 0)
    paid.setString("Paid on")
    fee.setString("Fee")
    date_cell = ws.getCellByPosition(width, 1)
    date_cell.setFormula("2025-11-01")
    date_cell.NumberFormat = doc.NumberFormats.getStandardFormat(DATE_TYPE, date_cell.CharLocale)
    ws.getCellByPosition(width + 1, 1).setFormula("=10*2")
    typed_date = date_cell.getValue()
    dialogs = AcceptAll()
    params = {"name": "Doe, Jane", "rank": "3k"}
    outcome = dispatch("register", doc, office.ctx, params, dialogs=dialogs, yes=True)
    assert outcome.status == "done", outcome
    rows = UnoGateway(doc).read_table(players_table(3)).rows
    first = next(r for r in rows if r.number == 2)
    assert first.extra["Paid on"].date().isoformat() == "2025-11-01"  # type: ignore[attr-defined]
    assert first.extra["Fee"] == "=10*2"
    formula = ws.getCellByPosition(width + 1, 1)
    assert formula.getType().value == "FORMULA" and formula.getValue() == 20
    assert ws.getCellByPosition(width, 1).getValue() == typed_date


def test_identity_cells_of_the_wrong_kind_are_named_as_on_the_command_line(
    office: Office, tmp_path: Path
) -> None:
    """TRUE, a date, an error value and a formula in AGA # or a number cell: Calc loads TRUE
    and #N/A from a .xlsx as the formulas =TRUE() and =#N/A; each is named as the TD typed
    it, the same line the command line prints, and the document is left as it was."""
    source = write_workbook(tmp_path / "club.xlsx", simple_tournament(10, 0, seed=24), 3)
    wb = openpyxl.load_workbook(source)
    ws = wb["Players"]
    ws["A3"].value = True
    ws["A4"].value = "#N/A"
    ws["A4"].data_type = "e"
    ws["A5"].value = "=A2+1"
    ws["E6"].value = "#REF!"
    ws["E6"].data_type = "e"
    wb.save(source)
    expected = [str(p) for p in book.read_book(OpenpyxlGateway.open(source)).problems]
    assert expected == [
        "Players!A3 (AGA #): TRUE (a true/false value) is not an AGA number (a whole number "
        "from 1 to 99999)",
        "Players!A4 (AGA #): the error value #N/A is not an AGA number (a whole number from 1 "
        "to 99999)",
        "Players!A5 (AGA #): the formula '=A2+1' is not an AGA number (a whole number from 1 "
        "to 99999)",
        "Players!E6 (Entry rating): the error value #REF! is not a number",
    ]
    doc = office.open(Path(shutil.copy(source, tmp_path / "by-calc.xlsx")))
    assert [str(p) for p in book.read_book(UnoGateway(doc)).problems] == expected
    before = live_cells(doc)
    outcome = dispatch("bands", doc, office.ctx, {}, dialogs=AcceptAll(), yes=True)
    assert outcome.status == "error", outcome
    assert "Players!A4 (AGA #): the error value #N/A" in outcome.messages[0]
    assert live_cells(doc) == before


def test_a_long_log_message_wraps_in_calc_and_its_row_grows(office: Office, tmp_path: Path) -> None:
    """The Log's Message column wraps in every door: in Calc a new row takes the column's
    wrapping, and Calc itself makes the row as tall as the message."""
    source = write_workbook(tmp_path / "club.xlsx", simple_tournament(20, 0, seed=5), 3)
    doc = office.open(Path(shutil.copy(source, tmp_path / "by-calc.xlsx")))
    outcome = dispatch("bands", doc, office.ctx, {}, dialogs=AcceptAll(), yes=True)
    assert outcome.status == "done", outcome
    log = doc.Sheets.getByName("Log")
    rows = [(i, log.getCellByPosition(3, i).getString()) for i in range(1, 60)]
    rows = [(i, text) for i, text in rows if text]
    longest, text = max(rows, key=lambda row: len(row[1]))
    shortest, _ = min(rows, key=lambda row: len(row[1]))
    assert len(text) > 250, text
    assert log.getCellByPosition(3, longest).IsTextWrapped
    tall, one_line = (log.Rows.getByIndex(i).Height for i in (longest, shortest))
    assert tall >= 2.5 * one_line, (tall, one_line)


def test_the_download_button_and_egd_rows_registered_in_calc_as_on_the_command_line(
    office: Office, tmp_path: Path
) -> None:
    """An EGF event: **Download rating list** fetches the EGD list from a real web server
    (127.0.0.1) into the live document; EGD list rows selected, then **Register player**:
    the same as ``download-list`` and ``register --pin`` on the command line."""
    from addin.formats.egd_list import parse_egd_list
    from tests.list_server import serving

    egd = DATA / "egd" / "allworld_lp-2018-12-27-excerpt.html"
    pins = [p.pin for p in parse_egd_list(egd.read_bytes()).players]
    start = simple_tournament(0, 0, seed=22)
    both = Both(office, write_workbook(tmp_path / "euro.xlsx", start, 3), tmp_path)
    both.run("rules", preset="EGF")
    with serving() as server:
        server.files = {"allworld_lp.html": egd.read_bytes()}
        both.run("download-list", url=server.url("allworld_lp.html"))
    for pin in (pins[1], pins[2], pins[8]):  # rows 3, 4 and 10 of the sheet
        assert cli(both.file, "register", {"pin": pin}) == 0
    select(both.doc, "EGD list", ["A3:B4", "C10"])
    outcome = dispatch("register", both.doc, office.ctx, dialogs=AcceptAll(), yes=True)
    assert outcome.status == "done", outcome
    both.assert_same()
