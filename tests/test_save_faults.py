"""Saves that fail for real (a full disk, a file-size limit, a read-only file) lose nothing.

The full disk is a real one where this machine allows it (a small tmpfs mounted as
root); everywhere a real OS refusal comes from RLIMIT_FSIZE in a child process.
Each case checks the one-line message, that no success line was printed, and that
the workbook and every backup are byte-identical afterwards.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from addin.workbook.saving import backup_path
from tests.helpers import digest, run
from tests.workbook_fixtures import simple_tournament, write_workbook


def register(book: Path, name: str) -> list[str]:
    return ["register", str(book), "--name", name, "--rank", "5k", "--yes"]


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """A workbook with two backups already, as after a few commands."""
    path = write_workbook(tmp_path / "t.xlsx", simple_tournament(players=8, rounds=1), rounds=1)
    for n in (1, 2):
        assert run(*register(path, f"Early{n}, Pat")).returncode == 0
    assert backup_path(path, 2).exists()
    return path


def state(book: Path) -> dict[str, str]:
    """Every file beside the workbook and its digest."""
    return {p.name: digest(p) for p in sorted(book.parent.iterdir()) if p.is_file()}


LIMITED = textwrap.dedent(
    """
    import resource, signal, sys
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # get EFBIG, as from a full disk
    limit = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    from addin.cli import main
    sys.exit(main(sys.argv[2:]))
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_save_over_the_file_size_limit_leaves_workbook_and_backups_as_they_were(
    book: Path,
) -> None:
    before = state(book)
    limit = book.stat().st_size // 2
    done = subprocess.run(
        [sys.executable, "-c", LIMITED, str(limit), *register(book, "Late, Pat")],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 1
    assert done.stderr == f"error: could not save {book}: File too large; t.xlsx is unchanged\n"
    assert done.stdout == "", "no success line for a save that failed"
    assert state(book) == before


def _mount_tmpfs(where: Path, size_kb: int) -> bool:
    if sys.platform != "linux" or os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(where)],
        capture_output=True,
    )
    return mounted.returncode == 0


def test_a_full_disk_leaves_workbook_and_backups_as_they_were(book: Path, tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    size_kb = book.stat().st_size * 4 // 1024 + 64
    if not _mount_tmpfs(disk, size_kb):
        pytest.skip("no small file system can be mounted here (needs root and mount)")
    try:
        for p in book.parent.glob("t*.xlsx"):
            shutil.copy2(p, disk / p.name)
        on_disk = disk / book.name
        filler = disk / "filler"
        with open(filler, "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 4096)
            except OSError:
                pass  # the disk is full
        before = state(on_disk)
        # openpyxl streams each sheet through a temporary file: full there too (TMPDIR)
        for temporary in ({}, {"TMPDIR": str(disk)}):
            done = subprocess.run(
                [sys.executable, "-m", "addin", *register(on_disk, "Late, Pat")],
                capture_output=True,
                text=True,
                cwd=Path(__file__).resolve().parents[1],
                env={**os.environ, **temporary},
            )
            assert done.returncode == 1
            assert done.stderr == (
                f"error: could not save {on_disk}: No space left on device; t.xlsx is unchanged\n"
            ), "one line, no traceback"
            assert done.stdout == ""
            assert state(on_disk) == before
        assert [p.name for p in disk.iterdir() if p.name.startswith(".t.")] == []
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_failed_rename_keeps_every_backup_as_it_was(book: Path) -> None:
    before = state(book)
    gw = OpenpyxlGateway.open(book)
    gw.wb["Players"]["B2"] = "Changed"

    def refuse(src: Path, dst: Path) -> None:
        raise OSError("the rename is refused")

    with pytest.raises(OSError, match="the rename is refused"):
        gw.save(replace=refuse)
    assert state(book) == before


def test_a_read_only_workbook_is_refused_and_read_only_commands_still_work(book: Path) -> None:
    book.chmod(0o444)
    try:
        before = digest(book)
        done = run(*register(book, "Late, Pat"))
        assert done.returncode == 1
        assert done.stderr == (
            "error: t.xlsx is read-only; make it writable (file properties) "
            "or save under another name\n"
        )
        assert done.stdout == ""
        assert digest(book) == before
        assert stat.S_IMODE(book.stat().st_mode) == 0o444
        assert run("check", book).returncode == 0
    finally:
        book.chmod(0o644)


def test_a_symlinked_workbook_stays_a_link_and_its_target_is_written(book: Path) -> None:
    link = book.parent / "elsewhere" / "link.xlsx"
    link.parent.mkdir()
    link.symlink_to(book)
    before = digest(book)
    done = run(*register(link, "Late, Pat"))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and link.resolve() == book
    assert digest(book) != before
    assert digest(backup_path(book, 1)) == before, "the backup is kept beside the real file"
    assert not (link.parent / "link.bak1.xlsx").exists()


def test_new_files_get_the_users_umask(book: Path) -> None:
    old = os.umask(0o022)
    try:
        text, page = book.parent / "aga.txt", book.parent / "pairings.html"
        assert run("export-aga", book, "--text", text, "--yes", "--force").returncode == 0
        assert run("report", book, "registration", "--out", page).returncode == 0
        template = book.parent / "blank.xlsx"
        assert run("template", template).returncode == 0
    finally:
        os.umask(old)
    for path in (text, page, template):
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path.name


def test_an_existing_file_keeps_its_permissions(book: Path) -> None:
    text = book.parent / "aga.txt"
    text.write_text("old")
    text.chmod(0o640)
    assert run("export-aga", book, "--text", text, "--yes", "--force").returncode == 0
    assert stat.S_IMODE(text.stat().st_mode) == 0o640
    assert text.read_text() != "old"
