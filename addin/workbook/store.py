"""Which gateway opens a workbook file for one action: the one place the command line's
runner chooses how a file is read and written."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def open_file(
    path: Path,
    *,
    reads_only: Sequence[str] | None,
    force: bool,
    confirm: Callable[[str], bool],
) -> Any:
    """The gateway for one action on ``path``: a reading action that names its sheets
    (``reads_only``) gets python-calamine over just those; any other action the file store
    (calamine reads, patched writes, openpyxl whenever those cannot be exact). Raises
    ``WorkbookError`` for a file that is not a workbook."""
    if reads_only is not None:
        from addin.workbook.calamine_reader import CalamineReader

        return CalamineReader.open(path, reads_only, force=force, confirm=confirm)
    from addin.workbook.file_store import FileStore

    return FileStore.open(path, force=force, confirm=confirm)
