"""A new TDListA is indexed when it arrives: ``import-tdlista`` keeps the index of the list
it saved, under the keys ``lookup`` looks it up by, so the desk's first look-up in a new list
costs what every later one costs; a list changed since is never answered from that index."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

from addin.workbook import read_cache
from addin.workbook.layout import TDLISTA
from addin.workbook.package import sheet_part
from tests.helpers import DATA, TDLISTA_SNAPSHOT, digest, run, run_process

SHORT = DATA / "tdlista" / "tdlista-short.txt"


def kept() -> dict[str, int]:
    """Each kept entry and its file's inode (an entry written again is a new file)."""
    return {p.name: p.stat().st_ino for p in read_cache.folder().glob("*.pickle")}


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    """A new event whose list was just imported, as a TD does it (whole processes)."""
    book = tmp_path / "desk.xlsx"
    assert run_process("new", book).returncode == 0
    done = run_process("import-tdlista", book, SHORT, "--yes")
    assert done.returncode == 0, done.stderr
    assert "Imported" in done.stdout and not done.stderr
    return book


def test_the_first_lookup_after_an_import_answers_from_the_index_the_import_kept(
    imported: Path,
) -> None:
    entries = kept()
    assert entries, "the import keeps the new list's index"
    before = digest(imported)
    first = run_process("lookup", imported, "cornell")
    assert first.returncode == 0 and "AGA 1310 Cornell, Dewey G." in first.stdout
    assert kept() == entries, "the look-up wrote nothing: it found the index, not built one"
    assert digest(imported) == before
    for entry in read_cache.folder().glob("*.pickle"):
        entry.unlink()
    assert run_process("lookup", imported, "cornell").stdout == first.stdout  # read afresh


def _retype(book: Path, old: str, new: str) -> None:
    """Change a name in the TDListA as a spreadsheet does: typed, the file saved again."""
    wb = openpyxl.load_workbook(book)
    ws = wb[TDLISTA.sheet]
    cell = next(c for row in ws.iter_rows() for c in row if c.value == old)
    cell.value = new
    wb.save(book)


def _edit_in_place(book: Path, old: bytes, new: bytes) -> None:
    """Change a name in the TDListA's own XML, every other byte as it was (our plain rows
    stay plain rows: the cheaper of the two keys is made again, and must differ)."""
    source = zipfile.ZipFile(io.BytesIO(book.read_bytes()))
    part = sheet_part(source, TDLISTA.sheet)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == part:
                assert data.count(old) == 1
                data = data.replace(old, new)
            target.writestr(item, data)
    book.write_bytes(out.getvalue())


@pytest.mark.parametrize("edit", [_retype, _edit_in_place], ids=["typed", "in its XML"])
def test_a_list_edited_after_the_import_is_not_answered_from_the_old_index(
    imported: Path, edit: object
) -> None:
    if edit is _retype:
        _retype(imported, "Cornell, Dewey G.", "Cornell, Dewey Junior")
    else:
        _edit_in_place(imported, b"Cornell, Dewey G.", b"Cornell, Dewey Junior")
    done = run("lookup", imported, "cornell")
    assert done.returncode == 0, done.stderr
    assert "AGA 1310 Cornell, Dewey Junior" in done.stdout
    assert "Dewey G." not in done.stdout


def test_an_import_whose_index_cannot_be_kept_is_done_all_the_same(tmp_path: Path) -> None:
    """A cache folder others may write to is never used: the import says what it always
    says, and the first look-up indexes the list itself."""
    book = tmp_path / "desk.xlsx"
    assert run("new", book).returncode == 0
    read_cache.folder().mkdir(parents=True)
    read_cache.folder().chmod(0o777)
    done = run("import-tdlista", book, SHORT, "--yes")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Imported")
    assert not kept()
    assert "AGA 1310 Cornell, Dewey G." in run("lookup", book, "cornell").stdout


def test_a_lookup_piped_into_head_ends_quietly(tmp_path: Path) -> None:
    """``lookup BOOK smith | head -1``: the reader closing the pipe is no error."""
    book = tmp_path / "t.xlsx"
    assert run("new", book).returncode == 0
    assert run("import-tdlista", book, TDLISTA_SNAPSHOT, "--yes").returncode == 0
    done = subprocess.run(
        f'"{sys.executable}" -m addin lookup "{book}" smith | head -1',
        shell=True,
        capture_output=True,
        text=True,
    )
    assert done.stdout.startswith("AGA ")
    assert done.stderr == ""


def test_the_desk_s_writes_leave_the_kept_index_under_its_first_key(imported: Path) -> None:
    """A registration writes the Players and the Log (whose Excel Table grows), never the
    TDListA: the next look-up finds the index under its cheapest key, as it was. (The first
    registration in a new workbook may add a cell format, which a date's reading depends
    on: it is made first.)"""
    assert run_process("register", imported, "--aga", 1310, "--yes").returncode == 0
    assert run_process("lookup", imported, "cornell").returncode == 0
    entries = kept()
    done = run_process("register", imported, "--aga", 8217, "--yes")
    assert done.returncode == 0, done.stderr
    assert kept() == entries
    assert run_process("lookup", imported, "cornell").returncode == 0
    assert kept() == entries, "found under the key the look-up tries first"


def test_the_egd_list_is_indexed_when_it_arrives_as_the_tdlista_is(tmp_path: Path) -> None:
    book = tmp_path / "euro.xlsx"
    assert run_process("new", book).returncode == 0
    egd = DATA / "egd" / "allworld_lp-2018-12-27-excerpt.html"
    done = run_process("import-egd-list", book, egd)
    assert done.returncode == 0, done.stderr
    entries = kept()
    assert entries, "the import keeps the new list's index"
    first = run_process("lookup", book, "bexfield")
    assert first.returncode == 0 and "EGD 10201081 Bexfield, Alison" in first.stdout
    assert kept() == entries, "the look-up wrote nothing: it found the index, not built one"
