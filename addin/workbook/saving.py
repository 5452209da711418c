"""Saving a workbook so that nothing is ever lost.

The new content goes to a temporary file beside the workbook, which then
replaces the original in one rename. Before the rename the previous version is
copied to a rolling backup (``NAME.bak1.xlsx`` is the newest). If anything
fails before the rename, the original file is untouched, byte for byte.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

BACKUPS_KEPT = 3


class WorkbookLocked(RuntimeError):
    """Excel has the workbook open (its ``~$NAME.xlsx`` lock file is present)."""


def lock_file(path: Path) -> Path:
    return path.with_name("~$" + path.name)


def check_not_open(path: Path) -> None:
    lock = lock_file(path)
    if lock.exists():
        raise WorkbookLocked(
            f"{path.name} is open in Excel (lock file {lock.name} exists). "
            "Close it in Excel first, or use the Excel buttons, or pass --force "
            "if the lock file is left over from a crash."
        )


def backup_path(path: Path, n: int) -> Path:
    return path.with_name(f"{path.stem}.bak{n}{path.suffix}")


def rotate_backups(path: Path, keep: int = BACKUPS_KEPT) -> None:
    if not path.exists():
        return
    for n in range(keep, 1, -1):
        older = backup_path(path, n - 1)
        if older.exists():
            os.replace(older, backup_path(path, n))
    shutil.copy2(path, backup_path(path, 1))


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def save_atomically(
    write: Callable[[Path], None],
    path: Path,
    *,
    keep: int = BACKUPS_KEPT,
    replace: Callable[[Path, Path], None] = os.replace,
) -> None:
    """Call ``write(tmp)`` to produce the new file, then swap it in for ``path``.

    ``replace`` is the rename step; tests pass one that fails to prove the
    original survives.
    """
    path = Path(path)
    fd, name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.chmod(tmp, path.stat().st_mode if path.exists() else _default_mode())
        if keep:
            rotate_backups(path, keep)
        replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
