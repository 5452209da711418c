"""The command line's file store writes what the openpyxl gateway writes.

A desk action (a result, a registration, a withdrawal...) is read with python-calamine and
written as XML edits of the sheets it changes (``addin.workbook.file_store``). The openpyxl
gateway is the reference: each action runs once through each, on copies of one demo
tournament, and the two files must hold the same values, number formats, Excel Tables, print
areas and page headers. Where the fast path cannot be exact (merged cells, a table to create,
a workbook LibreOffice saved in its own way) the store hands over to openpyxl, and the TD
sees the same answer.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

from addin.actions.registry import load_one
from addin.workbook.file_store import FileStore
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from addin.workbook.package import sheet_part
from tests.helpers import DATA, digest, libreoffice_convert, run, run_held

ROUNDS = 3


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = tmp_path_factory.mktemp("store") / "event.xlsx"
    done = run("demo", book, "--players", 23, "--rounds", ROUNDS)  # byes each round
    assert done.returncode == 0, done.stderr
    return book


def _board_one(book: Path) -> tuple[str, str]:
    ws = openpyxl.load_workbook(book)[f"Round {ROUNDS}"]
    result = str(ws["F2"].value)
    return str(ws["A2"].value), "B" if result == "White wins" else "W"


def _members(book: Path) -> tuple[int, int]:
    """A member of the TDListA not registered, and a registered player."""
    wb = openpyxl.load_workbook(book)
    registered = {r[0] for r in wb["Players"].iter_rows(min_row=2, values_only=True) if r[0]}
    listed = [r[1] for r in wb["TDListA"].iter_rows(min_row=2, values_only=True) if r[1]]
    return next(m for m in listed if m not in registered), min(registered)


def _cells(book: Path) -> dict[str, object]:
    """What a TD sees: every sheet's cells (value, number format, wrapping), row heights,
    Tables, print area and page header; the Log's times left out (the runs are seconds
    apart)."""
    wb = openpyxl.load_workbook(book)
    seen: dict[str, object] = {"sheets": wb.sheetnames}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is None:
                    continue
                value = cell.value
                if ws.title == "Log" and isinstance(value, datetime):
                    value = "a time"
                seen[f"{ws.title}!{cell.coordinate}"] = (
                    value,
                    cell.number_format,
                    cell.alignment.wrap_text,
                )
        seen[f"{ws.title} heights"] = {
            r: d.height for r, d in ws.row_dimensions.items() if d.customHeight
        }
        seen[f"{ws.title} tables"] = dict(ws.tables.items())
        seen[f"{ws.title} print area"] = ws.print_area
        seen[f"{ws.title} header"] = ws.oddHeader.left.text
    return seen


def _run(gateway: OpenpyxlGateway | FileStore, action: str, params: Mapping[str, object]) -> None:
    done = run_held(gateway, action, {k: v for k, v in params.items() if k != "yes"})
    assert done.status == "done", done.messages
    gateway.save()


def _desk_actions(book: Path) -> Iterator[tuple[str, dict[str, object]]]:
    board, turned = _board_one(book)
    member, player = _members(book)
    yield "result", {"round": ROUNDS, "board": int(board), "result": turned}
    yield "result", {"round": 1, "board": 2, "result": ""}
    yield "drop", {"player": player, "yes": True}
    yield "register", {"aga": member, "yes": True}
    yield "set-rating", {"player": player, "rating": "3d", "yes": True}


@pytest.mark.parametrize("index", range(5))
def test_each_desk_action_writes_what_openpyxl_writes_without_openpyxl(
    event: Path, tmp_path: Path, index: int
) -> None:
    action, params = list(_desk_actions(event))[index]
    fast, reference = tmp_path / "fast.xlsx", tmp_path / "reference.xlsx"
    shutil.copyfile(event, fast)
    shutil.copyfile(event, reference)
    store = FileStore.open(fast)
    _run(store, action, _with_defaults(action, params))
    _run(
        OpenpyxlGateway.open(reference),
        action,
        _with_defaults(action, params),
    )
    assert store._full is None, "the action fell back to openpyxl"
    assert digest(fast) != digest(event)
    assert _cells(fast) == _cells(reference)


def _with_defaults(action: str, given: Mapping[str, object]) -> dict[str, object]:
    """Every parameter of ``action``: the given ones, the others blank (as the CLI leaves them)."""
    return {p.name: given.get(p.name) for p in load_one(action).params} | {
        k: v for k, v in given.items() if k == "yes"
    }


def test_a_result_through_the_command_line_leaves_every_other_part_as_stored(
    event: Path, tmp_path: Path
) -> None:
    book = tmp_path / "event.xlsx"
    shutil.copyfile(event, book)
    board, turned = _board_one(book)
    done = run("result", book, "--round", ROUNDS, "--board", board, "--result", turned, "--yes")
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(event) as before, zipfile.ZipFile(book) as after:
        assert after.testzip() is None
        assert after.namelist() == before.namelist()
        changed = {i.filename for i in after.infolist() if i.CRC != before.getinfo(i.filename).CRC}
        round_part, log_part = (sheet_part(after, s) for s in (f"Round {ROUNDS}", "Log"))
    tables = {n for n in changed if n.startswith("xl/tables/")}
    assert changed - tables == {round_part, log_part}
    assert len(tables) <= 1  # the Log's Table grows by the line


def test_a_formula_the_td_typed_in_a_table_survives_a_desk_write(
    event: Path, tmp_path: Path
) -> None:
    book = tmp_path / "event.xlsx"
    wb = openpyxl.load_workbook(event)
    ws = wb["Players"]
    notes = next(c.column for c in ws[1] if c.value == "Notes")
    ws.cell(row=3, column=notes, value='=HYPERLINK("https://example.org","club")')
    wb.save(book)
    _, player = _members(book)
    done = run("drop", book, "--player", player, "--yes")
    assert done.returncode == 0, done.stderr
    after = openpyxl.load_workbook(book)["Players"]
    assert after.cell(row=3, column=notes).value == '=HYPERLINK("https://example.org","club")'


def test_merged_cells_in_a_written_table_are_named_and_nothing_is_written(
    event: Path, tmp_path: Path
) -> None:
    book = tmp_path / "event.xlsx"
    wb = openpyxl.load_workbook(event)
    wb[f"Round {ROUNDS}"].merge_cells("F3:F4")
    wb.save(book)
    before = digest(book)
    board, turned = _board_one(book)
    done = run("result", book, "--round", ROUNDS, "--board", board, "--result", turned, "--yes")
    assert done.returncode == 1
    assert "F3:F4" in done.stderr and "merged" in done.stderr
    assert digest(book) == before


def test_a_workbook_libreoffice_saved_takes_a_result(event: Path, tmp_path: Path) -> None:
    """LibreOffice writes shared strings and styles of its own: the result lands, every
    other cell reads as before."""
    saved = libreoffice_convert(event, "xlsx:Calc MS Excel 2007 XML", tmp_path / "lo")
    book = tmp_path / "event.xlsx"
    shutil.copyfile(saved, book)
    board, turned = _board_one(book)
    before = _cells(book)
    done = run("result", book, "--round", ROUNDS, "--board", board, "--result", turned, "--yes")
    assert done.returncode == 0, done.stderr
    after = _cells(book)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    result_cell = f"Round {ROUNDS}!F2"
    assert result_cell in changed
    assert all(k == result_cell or k.startswith("Log") for k in changed), sorted(changed)


def _with_part(book: Path, out: Path, part: str, edit: Callable[[bytes], bytes]) -> None:
    """A copy of ``book`` with one part edited as bytes, as another program would write it."""
    with zipfile.ZipFile(book) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
        for item in source.infolist():
            data = source.read(item)
            copy.writestr(item, edit(data) if item.filename == part else data)


def test_a_formula_excel_shares_between_cells_of_a_written_table_stays_whole(
    event: Path, tmp_path: Path
) -> None:
    """Excel writes a formula filled across as one shared formula (the first cell holds it,
    the others point at it): a write that rewrote the first cell (a Notes cell of the games)
    alone would orphan the one beside the table."""
    with zipfile.ZipFile(event) as package:
        part = sheet_part(package, f"Round {ROUNDS}")
    assert part is not None
    book = tmp_path / "event.xlsx"

    def share(xml: bytes) -> bytes:
        notes = re.compile(rb'<c r="K2"[^>]*?(?:/>|>.*?</c>)', re.S)
        first = b'<c r="K2"><f t="shared" ref="K2:L2" si="0">A2*2</f><v>2</v></c>'
        return notes.sub(first + b'<c r="L2"><f t="shared" si="0"/><v>4</v></c>', xml, count=1)

    _with_part(event, book, part, share)
    board, turned = _board_one(book)
    done = run("result", book, "--round", ROUNDS, "--board", board, "--result", turned, "--yes")
    assert done.returncode == 0, done.stderr
    ws = openpyxl.load_workbook(book)[f"Round {ROUNDS}"]
    assert (ws["K2"].value, ws["L2"].value) == ("=A2*2", "=B2*2")
    assert ws["F2"].value == ("Black wins" if turned == "B" else "White wins")


def test_the_first_registration_in_a_new_workbook_adds_its_formats_as_openpyxl_does(
    tmp_path: Path,
) -> None:
    """A new workbook has no cell format for ratings yet: the edit adds one (and the store
    stays on its fast path), and the file reads as openpyxl's own would."""
    new = tmp_path / "new.xlsx"
    assert run("new", new, "--name", "Club & Co").returncode == 0
    short = DATA / "tdlista" / "tdlista-short.txt"
    assert run("import-tdlista", new, short, "--yes").returncode == 0
    fast, reference = tmp_path / "fast.xlsx", tmp_path / "reference.xlsx"
    shutil.copyfile(new, fast)
    shutil.copyfile(new, reference)
    params = _with_defaults("register", {"aga": 1310, "yes": True})
    store = FileStore.open(fast)
    _run(store, "register", params)
    _run(OpenpyxlGateway.open(reference), "register", params)
    assert store._full is None, "the action fell back to openpyxl"
    assert _cells(fast) == _cells(reference)


@pytest.mark.parametrize("through", ["store", "openpyxl"])
def test_a_log_made_before_messages_wrapped_gets_no_tall_rows(
    event: Path, tmp_path: Path, through: str
) -> None:
    """A workbook whose Log column has no wrapping (made by an earlier version) keeps one
    line per message: a tall row around text that does not wrap would only waste paper."""
    with zipfile.ZipFile(event) as package:
        part = sheet_part(package, "Log")
    assert part is not None
    old = tmp_path / "old.xlsx"
    _with_part(
        event, old, part, lambda xml: re.sub(rb' (?:style|ht|customHeight)="[\d.]+"', b"", xml)
    )
    member, _ = _members(old)
    params = _with_defaults("register", {"aga": member, "yes": True})
    if through == "store":
        store = FileStore.open(old)
        _run(store, "register", params)
        assert store._full is None, "the action fell back to openpyxl"
    else:
        _run(OpenpyxlGateway.open(old), "register", params)
    ws = openpyxl.load_workbook(old)["Log"]
    assert max(len(str(c.value)) for c in ws["D"]) > 130, "a message that would wrap"
    assert not any(d.customHeight for d in ws.row_dimensions.values())
