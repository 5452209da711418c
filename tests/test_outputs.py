"""Outputs never clobber: not the workbook itself, not another tournament, not a read-only file.

Through the real command line; each refusal asserts its one-line message and that every
file concerned is byte-identical afterwards.
"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from addin.workbook.saving import backup_path
from addin.workbook.template import content
from tests.helpers import digest, run
from tests.workbook_fixtures import ready_for_aga, simple_tournament, write_workbook


@pytest.fixture
def book(tmp_path: Path) -> Path:
    t = ready_for_aga(simple_tournament(players=8, rounds=1))
    return write_workbook(tmp_path / "t.xlsx", t, rounds=1)


@pytest.fixture
def other(tmp_path: Path) -> Path:
    return write_workbook(tmp_path / "other.xlsx", simple_tournament(players=6, rounds=1), rounds=1)


def test_template_over_a_tournament_is_refused(book: Path) -> None:
    before = digest(book)
    done = run("template", book)
    assert done.returncode == 1
    assert done.stderr == (
        "error: t.xlsx is an existing tournament workbook; choose another name, "
        "or pass --force to replace it (a backup is kept)\n"
    )
    assert done.stdout == ""
    assert digest(book) == before


def test_template_over_a_tournament_with_force_keeps_a_backup(book: Path, tmp_path: Path) -> None:
    before = digest(book)
    assert run("template", book, "--force").returncode == 0
    assert digest(backup_path(book, 1)) == before
    blank = tmp_path / "blank.xlsx"
    assert run("template", blank).returncode == 0
    assert content(book) == content(blank)


def test_template_over_a_blank_template_needs_no_force(tmp_path: Path) -> None:
    blank = tmp_path / "blank.xlsx"
    assert run("template", blank).returncode == 0
    assert run("template", blank).returncode == 0
    assert not backup_path(blank, 1).exists()


@pytest.mark.parametrize("force", [(), ("--force",)])
def test_an_export_over_the_workbook_itself_is_refused_even_with_force(
    book: Path, force: tuple[str, ...]
) -> None:
    before = digest(book)
    done = run("export-aga", book, "--text", book, "--yes", *force)
    assert done.returncode == 1
    assert done.stderr == (
        "error: t.xlsx is the tournament workbook itself; write the output to another file\n"
        "t.xlsx is unchanged.\n"
    )
    assert digest(book) == before


def test_an_export_over_another_tournament_is_refused_unless_forced(
    book: Path, other: Path
) -> None:
    before, theirs = digest(book), digest(other)
    done = run("export-aga", book, "--xml", other, "--yes")
    assert done.returncode == 1
    assert done.stderr == (
        "error: other.xlsx is an existing tournament workbook; choose another name, "
        "or pass --force to replace it (a backup is kept)\nt.xlsx is unchanged.\n"
    )
    assert (digest(book), digest(other)) == (before, theirs)

    forced = run("export-aga", book, "--xml", other, "--yes", "--force")
    assert forced.returncode == 0, forced.stderr
    assert digest(backup_path(other, 1)) == theirs
    assert other.read_bytes().startswith(b"<?xml")


def test_a_report_over_the_workbook_through_a_link_is_refused(book: Path) -> None:
    link = book.parent / "page.html"
    link.symlink_to(book)
    before = digest(book)
    done = run("report", book, "registration", "--out", link)
    assert done.returncode == 1
    assert done.stderr.startswith("error: page.html is the tournament workbook itself")
    assert digest(book) == before and link.is_symlink()


def test_a_report_through_a_link_writes_the_target_and_keeps_the_link(book: Path) -> None:
    target = book.parent / "site" / "registration.html"
    target.parent.mkdir()
    target.write_text("old page")
    link = book.parent / "current.html"
    link.symlink_to(target)
    assert run("report", book, "registration", "--out", link).returncode == 0
    assert link.is_symlink() and link.resolve() == target
    assert "<table" in target.read_text(encoding="utf-8")


def test_a_read_only_output_file_is_refused(book: Path) -> None:
    text = book.parent / "aga.txt"
    text.write_text("kept")
    text.chmod(0o444)
    before = digest(book)
    done = run("export-aga", book, "--text", text, "--yes")
    assert done.returncode == 1
    assert done.stderr == (
        "error: aga.txt is read-only; make it writable (file properties) or save under another "
        "name\nt.xlsx is unchanged.\n"
    )
    assert text.read_text() == "kept" and stat.S_IMODE(text.stat().st_mode) == 0o444
    assert digest(book) == before


def test_an_output_in_a_missing_folder_is_a_message(book: Path) -> None:
    out = book.parent / "nowhere" / "aga.txt"
    before = digest(book)
    done = run("export-aga", book, "--text", out, "--yes")
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: cannot write {out}: ")
    assert str(out.parent) in done.stderr and len(done.stderr.splitlines()) <= 2
    assert digest(book) == before
    assert run("template", out.with_suffix(".xlsx")).stderr.startswith(
        f"error: cannot write {out.with_suffix('.xlsx')}: "
    )


def test_new_with_force_over_a_tournament_keeps_it_as_a_backup(book: Path) -> None:
    before = digest(book)
    assert run("new", book).returncode == 1
    assert digest(book) == before
    assert run("new", book, "--force").returncode == 0
    assert digest(backup_path(book, 1)) == before
