"""Saving never loses data: atomic replace, rolling backups, and Excel's lock respected."""

from __future__ import annotations

from pathlib import Path

import pytest

from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from addin.workbook.saving import BACKUPS_KEPT, WorkbookLocked, backup_path, excel_lock_files
from tests.helpers import digest, run
from tests.workbook_fixtures import simple_tournament, write_workbook


@pytest.fixture
def book_path(tmp_path: Path) -> Path:
    return write_workbook(tmp_path / "t.xlsx", simple_tournament(players=8, rounds=1), rounds=1)


def test_a_failure_at_the_rename_leaves_the_original_byte_identical(book_path: Path) -> None:
    before = digest(book_path)
    gw = OpenpyxlGateway.open(book_path)
    gw.wb["Players"]["B2"] = "Changed"

    def failing_rename(src: Path, dst: Path) -> None:
        raise OSError("disk pulled out at the moment of the rename")

    with pytest.raises(OSError, match="disk pulled out"):
        gw.save(replace=failing_rename)

    assert digest(book_path) == before
    leftovers = [p.name for p in book_path.parent.iterdir() if p.name.startswith(".t.")]
    assert leftovers == []


def test_a_successful_save_keeps_the_previous_version_as_a_backup(book_path: Path) -> None:
    before = digest(book_path)
    gw = OpenpyxlGateway.open(book_path)
    gw.wb["Players"]["B2"] = "Changed"
    gw.save()

    assert digest(backup_path(book_path, 1)) == before
    assert OpenpyxlGateway.open(book_path).wb["Players"]["B2"].value == "Changed"


def test_backups_roll_and_only_a_few_are_kept(book_path: Path) -> None:
    versions = []
    for i in range(BACKUPS_KEPT + 2):
        versions.append(digest(book_path))
        gw = OpenpyxlGateway.open(book_path)
        gw.wb["Players"]["B2"] = f"Version {i}"
        gw.save()
    for n in range(1, BACKUPS_KEPT + 1):
        assert digest(backup_path(book_path, n)) == versions[-n]
    assert not backup_path(book_path, BACKUPS_KEPT + 1).exists()


def test_a_workbook_open_in_excel_is_read_but_not_saved_unless_forced(book_path: Path) -> None:
    before = digest(book_path)
    excel_lock_files(book_path)[0].write_bytes(b"owner")
    gw = OpenpyxlGateway.open(book_path)
    gw.wb["Players"]["B2"] = "Changed"
    with pytest.raises(WorkbookLocked, match="open in Excel"):
        gw.save()
    assert digest(book_path) == before
    forced = OpenpyxlGateway.open(book_path, force=True)
    forced.wb["Players"]["B2"] = "Changed"
    forced.save()
    assert digest(book_path) != before

    result = run("check", book_path)
    assert result.returncode == 0, result.stderr
