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

import openpyxl
import pytest

from addin.calc.dialogs import AcceptAll
from addin.calc.entry import dispatch
from addin.calc.office import Office
from addin.calc.uno_gateway import UnoGateway
from addin.workbook import book
from addin.workbook.layout import games_table
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
