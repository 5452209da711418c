"""The gateway for one action on a file: reads with python-calamine, writes by patching the
sheets written (``sheet_patch``), and hands the whole action to the openpyxl gateway the
moment anything is not plain.

A desk action (a result, a late registration, a withdrawal) reads a few tables and writes
one or two, with a Log line. Read by calamine and written as XML edits, it costs about what
copying the file costs; through openpyxl it cost five times that, mostly in importing,
parsing and serializing sheets nobody touched. The openpyxl gateway remains the reference:
a table calamine cannot read plainly is read by it (``CalamineReader``), and a write the
patch cannot make exactly as openpyxl would (``Unsupported``) makes this store open the
file with openpyxl, replay what was written so far, and carry on there. A sheet written is
read back through openpyxl too, so an action always reads what it wrote.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from addin.workbook.calamine_reader import CalamineReader
from addin.workbook.gateway import (
    LogEntry,
    Row,
    TableData,
    WorkbookError,
    WriteRow,
)
from addin.workbook.layout import LOG, Table
from addin.workbook.saving import check_not_open, held_by, save_atomically, target_of
from addin.workbook.sheet_patch import PackagePatch, Unsupported

if TYPE_CHECKING:
    from addin.workbook.openpyxl_gateway import OpenpyxlGateway

_Write = tuple[Table, list[WriteRow]] | list[LogEntry]


class FileStore:
    def __init__(self, path: Path, *, force: bool = False) -> None:
        self.path = path
        self.source = path.name
        self.force = force
        self._reader = CalamineReader(path, None, force=force)
        self._patch: PackagePatch | None = None
        self._full: OpenpyxlGateway | None = None
        self._writes: list[_Write] = []
        self._written: dict[str, list[tuple[str, int, int]]] = {}
        """Each sheet written: the tables written on it, with their first and last column."""
        self.changed = False
        """Whether a table or sheet was written (the Log aside)."""

    @classmethod
    def open(cls, path: Path | str, *, force: bool = False) -> FileStore:
        """Raises ``WorkbookError`` as the openpyxl gateway does for a file that is not one."""
        path = Path(path)
        if not path.exists():
            raise WorkbookError(f"{path}: no such file")
        return cls(path, force=force)

    # --- the openpyxl gateway, when the fast path ends --------------------------------

    def _openpyxl(self) -> OpenpyxlGateway:
        if self._full is None:
            full = self._reader.openpyxl()
            for write in self._writes:
                if isinstance(write, tuple):
                    full.write_table(*write)
                else:
                    full.append_log(write)
            self._full, self._patch = full, None
        return self._full

    def _patched(self) -> PackagePatch:
        if self._patch is None:
            self._patch = PackagePatch(self.path.read_bytes())
        return self._patch

    # --- reading ----------------------------------------------------------------------

    def sheet_names(self) -> list[str]:
        return self._full.sheet_names() if self._full else self._reader.sheet_names()

    def read_table(self, table: Table) -> TableData:
        """A table written is read back through openpyxl; another table of a sheet written
        (the byes beside the games) as the file holds it, when no column of it was written."""
        written = self._written.get(table.sheet)
        if self._full is None and written:
            span = self._reader.columns_of(table)
            if span is None or any(
                name == table.name or (first <= span[1] and span[0] <= last)
                for name, first, last in written
            ):
                return self._openpyxl().read_table(table)
        if self._full is not None:
            return self._full.read_table(table)
        return self._reader.read_table(table)

    def content_keys(self, table: Table) -> Iterator[str]:
        if self._full is not None:
            yield from self._full.content_keys(table)
        elif not self._writes:
            yield from self._reader.content_keys(table)

    # --- writing ----------------------------------------------------------------------

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        kept = [_copy(row) for row in rows]
        self.changed = True
        if self._full is None:
            try:
                patch = self._patched()
                first, last = patch.write_table(table, kept, patch.title())
            except Unsupported:
                pass
            else:
                self._writes.append((table, kept))
                self._written.setdefault(table.sheet, []).append((table.name, first, last))
                return
        self._openpyxl().write_table(table, kept)

    def append_log(self, entries: Sequence[LogEntry]) -> None:
        if not entries:
            return
        if self._full is None:
            try:
                self._patched().append_log(entries)
            except Unsupported:
                pass
            else:
                self._writes.append(list(entries))
                self._written.setdefault(LOG.sheet, []).append((LOG.name, 1, 1 << 14))
                return
        self._openpyxl().append_log(entries)

    def remove_sheet(self, sheet: str) -> None:
        self.changed = True
        self._openpyxl().remove_sheet(sheet)

    def commit(self) -> None:
        """Nothing is queued: the writes are made in memory, and saving writes the file."""

    # --- saving -----------------------------------------------------------------------

    def save(
        self,
        path: Path | None = None,
        *,
        ready: Callable[[Path], None] | None = None,
        **kwargs: Any,
    ) -> None:
        """As ``OpenpyxlGateway.save``: atomic, with backups, refused while Excel or
        LibreOffice holds the file unless opened with ``force``."""
        if self._full is not None:
            self._full.save(path, ready=ready, **kwargs)
            return
        target = Path(path) if path else self.path
        if not self.force and target.exists():
            check_not_open(target)
            check_not_open(target_of(target))
        patch = self._patched()
        try:
            data = patch.package()
        except Unsupported:
            self._openpyxl().save(path, ready=ready, **kwargs)
            return

        def write(tmp: Path) -> None:
            with open(tmp, "wb") as f:
                f.write(data)

        save_atomically(write, target, ready=ready, **kwargs)

    def held_by(self) -> str | None:
        return held_by(self.path) or held_by(target_of(self.path))


def _copy(row: WriteRow) -> WriteRow:
    """The row as it is now (an action may go on changing its own objects)."""
    if isinstance(row, Row):
        return replace(row, values=dict(row.values), extra=dict(row.extra))
    return dict(row)


def open_file(
    path: Path, *, sheets: Sequence[str] | None, writes: bool, force: bool
) -> CalamineReader | FileStore:
    """The storage for one action on ``path``: an action that writes nothing gets
    python-calamine over the sheets it reads (``sheets``; None: any); any other action the
    file store (calamine reads, patched writes, openpyxl whenever those cannot be exact).
    Raises ``WorkbookError`` for a file that is not a workbook."""
    if not writes:
        return CalamineReader.open(path, sheets, force=force)
    return FileStore.open(path, force=force)
