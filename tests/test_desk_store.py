"""A write that leaves the TDListA alone copies its sheet as the file stores it (no
compressing megabytes again), and the file stays a whole, valid package."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
from workbook_fixtures import simple_tournament, write_workbook

from addin.workbook.layout import TDLISTA
from addin.workbook.package import sheet_part
from tests.helpers import DATA, run, sheet_rows

SNAPSHOT = DATA / "tdlista" / "tdlista-snapshot.txt"


def _part(path: Path) -> zipfile.ZipInfo:
    with zipfile.ZipFile(path) as package:
        part = sheet_part(package, TDLISTA.sheet)
        assert part is not None
        return package.getinfo(part)


def test_a_drop_copies_the_tdlista_as_stored_and_the_package_stays_whole(tmp_path: Path) -> None:
    t = simple_tournament(12, 1, seed=12)
    book = write_workbook(tmp_path / "desk.xlsx", t, 3)
    assert run("import-tdlista", book, SNAPSHOT, "--yes").returncode == 0
    before = _part(book)
    dropped = run("drop", book, "--player", min(t.players), "--yes")
    assert dropped.returncode == 0, dropped.stderr
    after = _part(book)
    assert (after.CRC, after.compress_size, after.file_size) == (
        before.CRC,
        before.compress_size,
        before.file_size,
    )
    with zipfile.ZipFile(book) as package:
        assert package.testzip() is None
    assert openpyxl.load_workbook(book)[TDLISTA.sheet].max_row == 22411
    assert len(sheet_rows(book, TDLISTA.sheet)) == 22410


def test_a_new_list_is_written_compressed_anew(tmp_path: Path) -> None:
    t = simple_tournament(6, 1, seed=6)
    book = write_workbook(tmp_path / "desk.xlsx", t, 3)
    assert (
        run("import-tdlista", book, DATA / "tdlista" / "tdlista-short.txt", "--yes").returncode == 0
    )
    first = _part(book)
    assert run("import-tdlista", book, SNAPSHOT, "--yes").returncode == 0
    second = _part(book)
    assert second.CRC != first.CRC and len(sheet_rows(book, TDLISTA.sheet)) == 22410
    with zipfile.ZipFile(book) as package:
        assert package.testzip() is None
