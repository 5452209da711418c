"""A reading action reads only the sheets it declares, with python-calamine: the same typed
rows as the openpyxl gateway, and on anything but a plain table that gateway's own words."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from addin.workbook.calamine_reader import CalamineReader, ReadOnly
from addin.workbook.gateway import TableData
from addin.workbook.layout import SETTINGS_TABLE, TDLISTA
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.helpers import DATA, run

ROOT = Path(__file__).resolve().parents[1]
SHORT = DATA / "tdlista" / "tdlista-short.txt"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "desk.xlsx"
    assert run("new", path).returncode == 0
    imported = run("import-tdlista", path, SHORT, "--yes")
    assert imported.returncode == 0, imported.stderr
    return path


def _same(fast: TableData, slow: TableData) -> None:
    assert [r.values for r in fast.rows] == [r.values for r in slow.rows]
    assert [(r.number, r.cells, r.extra) for r in fast.rows] == [
        (r.number, r.cells, r.extra) for r in slow.rows
    ]
    assert [str(p) for p in fast.problems] == [str(p) for p in slow.problems]


def test_the_tdlista_reads_as_the_openpyxl_gateway_reads_it(book: Path) -> None:
    fast = CalamineReader.open(book, [TDLISTA.sheet]).read_table(TDLISTA)
    slow = OpenpyxlGateway.open(book).read_table(TDLISTA)
    assert len(fast.rows) == len(SHORT.read_text().splitlines())
    _same(fast, slow)


def _type_into(book: Path, sheet: str, cell: str, value: object) -> None:
    wb = openpyxl.load_workbook(book)
    wb[sheet][cell] = value
    wb.save(book)


@pytest.mark.parametrize(
    ("cell", "value"),
    [("B3", "not a number"), ("B4", 1310), ("B30000", 12345)],
    ids=["a bad AGA number", "a repeated AGA number", "a stray far below"],
)
def test_a_table_that_is_not_plain_is_read_by_the_openpyxl_gateway(
    book: Path, cell: str, value: object
) -> None:
    _type_into(book, TDLISTA.sheet, cell, value)
    fast = CalamineReader.open(book, [TDLISTA.sheet]).read_table(TDLISTA)
    slow = OpenpyxlGateway.open(book).read_table(TDLISTA)
    assert slow.problems or cell == "B30000"
    _same(fast, slow)


def test_a_sheet_not_declared_is_never_read(book: Path) -> None:
    reader = CalamineReader.open(book, [TDLISTA.sheet])
    with pytest.raises(ReadOnly):
        reader.read_table(SETTINGS_TABLE)
    with pytest.raises(ReadOnly):
        reader.write_table(TDLISTA, [])


def test_lookup_reads_without_openpyxl_and_leaves_the_file_as_it_was(book: Path) -> None:
    before = book.read_bytes()
    probe = (
        "import sys\nfrom addin.cli import main\n"
        f"code = main(['lookup', {str(book)!r}, 'cornell'])\n"
        "print(code, 'openpyxl' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert "AGA 1310 Cornell, Dewey G." in done.stdout
    assert done.stdout.splitlines()[-1] == "0 False"
    assert book.read_bytes() == before


def test_lookup_on_a_file_that_is_no_workbook_is_one_line(tmp_path: Path) -> None:
    fake = tmp_path / "fake.xlsx"
    fake.write_text("not a workbook")
    done = run("lookup", fake, "x")
    assert done.returncode == 1 and "not an Excel .xlsx workbook" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_lookup_keeps_the_index_until_the_list_changes(book: Path) -> None:
    from addin.workbook import read_cache

    for entry in read_cache.folder().glob("*.pickle"):
        entry.unlink()  # as if the list came from elsewhere (see tests/test_kept_index.py)
    first = run("lookup", book, "cornell")
    kept = list(read_cache.folder().glob("*.pickle"))
    assert first.returncode == 0 and kept
    assert run("lookup", book, "cornell").stdout == first.stdout
    row = next(
        r for r in OpenpyxlGateway.open(book).read_table(TDLISTA).rows if r["aga_id"] == 1310
    )
    _type_into(book, TDLISTA.sheet, f"A{row.number}", "Cornell, Dewey Junior")
    changed = run("lookup", book, "cornell")
    assert "AGA 1310 Cornell, Dewey Junior" in changed.stdout
    assert "Dewey G." not in changed.stdout


def test_a_kept_index_others_could_have_written_is_not_read(book: Path) -> None:
    from addin.workbook import read_cache

    assert run("lookup", book, "cornell").returncode == 0
    entries = list(read_cache.folder().glob("*.pickle"))
    key = entries[0].stem
    assert read_cache.load(key) is not None
    read_cache.folder().chmod(0o777)
    assert read_cache.load(key) is None
    read_cache.folder().chmod(0o700)
    for entry in entries:
        entry.write_bytes(b"damaged")
    assert read_cache.load(key) is None
    assert "Cornell, Dewey G." in run("lookup", book, "cornell").stdout


@pytest.mark.parametrize("cell", ["AD1048576", "XFD5"], ids=["far below", "far right"])
def test_a_stray_far_away_costs_no_more_than_the_openpyxl_gateway_pays(
    book: Path, cell: str
) -> None:
    """calamine makes the whole rectangle up to the farthest cell: such a sheet is not
    handed to it (it took 1.3 GB and 6 s for a stray in AD1048576)."""
    _type_into(book, TDLISTA.sheet, cell, "stray")
    probe = (
        "import resource, sys\nfrom addin.cli import main\n"
        "resource.setrlimit(resource.RLIMIT_AS, (600 * 2**20, 600 * 2**20))\n"
        f"sys.exit(main(['lookup', {str(book)!r}, 'cornell']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "AGA 1310 Cornell, Dewey G." in done.stdout


def test_the_kept_index_outlives_a_registration_but_not_a_new_list(
    book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The desk: look up, register, look up again; the list itself did not change."""
    from addin.core.lookup import MemberIndex

    made: list[int] = []
    index_list = MemberIndex.__init__

    def counted(self: MemberIndex, members: Any) -> None:
        made.append(1)
        index_list(self, members)

    monkeypatch.setattr(MemberIndex, "__init__", counted)
    first = run("lookup", book, "adam")
    assert first.returncode == 0 and "AGA 8217 Adam, Kurt" in first.stdout
    assert run("register", book, "--aga", 8217, "--yes").returncode == 0
    assert run("lookup", book, "adam").stdout == first.stdout
    assert not made  # the list was indexed once, by its import (the fixture)
    snapshot = DATA / "tdlista" / "tdlista-snapshot.txt"
    assert run("import-tdlista", book, snapshot, "--yes").returncode == 0
    assert len(made) == 1  # a new list is indexed anew, as it arrives
    assert run("lookup", book, "adam").stdout != first.stdout
    assert len(made) == 1


def test_register_with_the_kept_index_writes_what_it_writes_without(
    book: Path, tmp_path: Path
) -> None:
    from addin.workbook import read_cache
    from tests.helpers import sheet_rows

    for entry in read_cache.folder().glob("*.pickle"):
        entry.unlink()
    twin = tmp_path / "twin.xlsx"
    twin.write_bytes(book.read_bytes())
    assert run("register", twin, "--aga", 1310, "--yes").returncode == 0  # nothing kept yet
    assert run("lookup", book, "cornell").returncode == 0  # keeps the index
    assert run("register", book, "--aga", 1310, "--yes").returncode == 0
    assert sheet_rows(book, "Players") == sheet_rows(twin, "Players")


def test_a_member_comes_back_from_the_kept_index_whole() -> None:
    import dataclasses
    import pickle
    from datetime import date

    from addin.core.member import Member

    member = Member("Gómez, David", "Gómez", "David", 123, "Full", -3.5, date(2027, 1, 2))
    member = dataclasses.replace(member, chapter="NYGC", state="NY", sigma=0.4)
    member = dataclasses.replace(member, rating_date=date(2026, 5, 1))
    assert pickle.loads(pickle.dumps(member)) == member
    assert len(dataclasses.fields(Member)) == 11  # __reduce__ names each field
