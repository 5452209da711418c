"""The workbook as the tournament store reads and writes it, whatever holds it: a file on
disk (python-calamine reads and sheet edits, openpyxl behind: ``FileStore``), Excel's
open window (``XlwingsStorage``) or Calc's (``addin.calc.uno_storage.UnoStorage``). This
module declares what each gives, and chooses the one that opens a file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from addin.workbook.gateway import LogEntry, TableData, WriteRow
from addin.workbook.layout import Table

if TYPE_CHECKING:
    from addin.workbook.calamine_reader import CalamineReader
    from addin.workbook.file_store import FileStore


class Storage(Protocol):
    """Tables read and written as blocks, sheets removed, Log lines appended."""

    @property
    def source(self) -> str:
        """The workbook's name, for messages."""
        ...

    @property
    def path(self) -> Path | None:
        """Its file on this machine, if any."""
        ...

    def sheet_names(self) -> list[str]: ...

    def read_table(self, table: Table) -> TableData: ...

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        """Replace the table's data rows; the TD's extra columns travel with ``Row.extra``."""
        ...

    def remove_sheet(self, sheet: str) -> None: ...

    def append_log(self, entries: Sequence[LogEntry]) -> None: ...

    def commit(self) -> None:
        """Send the queued writes to the workbook (an open window's storage queues them; a
        file's changes it in memory, and saving writes the file)."""
        ...


def open_file(
    path: Path, *, sheets: Sequence[str] | None, writes: bool, force: bool
) -> CalamineReader | FileStore:
    """The storage for one action on ``path``: an action that writes nothing gets
    python-calamine over the sheets it reads (``sheets``; None: any); any other action the
    file store (calamine reads, patched writes, openpyxl whenever those cannot be exact).
    Raises ``WorkbookError`` for a file that is not a workbook."""
    if not writes:
        from addin.workbook.calamine_reader import CalamineReader

        return CalamineReader.open(path, sheets, force=force)
    from addin.workbook.file_store import FileStore

    return FileStore.open(path, force=force)
