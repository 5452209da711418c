"""The workbook file as a group of entries sees it: one load, many actions, each reading
what the earlier ones wrote, and the package as it stands after each (for the journal),
with one save at the end.

The stations' writer takes every entry waiting and runs each through its own action in
turn (``addin.store.run_group``). Loading the workbook again for each entry would cost
what the one-entry path costs; instead this storage holds the file store of the group
(``FileStore``: calamine reads, the written sheets patched in memory) and keeps what each
table read or written holds now:

* a table read once is kept, and each later read gets a copy (an action may change the
  rows it read, and a refused action's changes must not reach the next one);
* a table written is read back from what was written, through the same rendering and
  parsing every gateway uses (``table_rows``: as the window storages mirror their writes),
  never through openpyxl (which would load the whole TDListA);
* the Log lines appended are read back after the Log as the file holds it.

``package()`` gives the whole package as it stands (the bytes a save would write): the
state after each entry, which the journal keeps so each entry can be undone alone.
Anything this storage cannot mirror exactly (a header to add, a sheet removed, a table
calamine cannot read plainly) raises ``GroupUnsupported``: the group ends there and that
entry runs alone, through the ordinary path.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from addin.workbook import table_rows
from addin.workbook.calamine_reader import header_row_of
from addin.workbook.cells import Text
from addin.workbook.file_store import FileStore
from addin.workbook.gateway import LogEntry, Row, TableData, WriteRow
from addin.workbook.layout import LOG, Table
from addin.workbook.sheet_patch import Unsupported


class GroupUnsupported(Exception):
    """This storage cannot mirror the write exactly: the entry runs alone instead."""


def _key(table: Table) -> tuple[str, str]:
    return table.sheet, table.name


class GroupFile:
    """A workbook file, loaded once for a group of actions (see the module)."""

    changed = False

    def __init__(self, path: Path) -> None:
        self.base = FileStore.open(path)
        self.path = self.base.path
        self.source = self.base.source
        self.force = False
        self._data: dict[tuple[str, str], TableData] = {}
        self._written_sheets: set[str] = set()
        self._written: dict[tuple[str, str], tuple[list[tuple[object, ...]], TableData]] = {}
        """Each table written: its rows' values as written, and as read back."""
        self._keys: dict[tuple[str, str], list[str]] = {}
        self._log_rows: list[Row] = []
        """The Log lines appended since the file was loaded, as read back."""

    # --- reading ----------------------------------------------------------------------

    def sheet_names(self) -> list[str]:
        return self.base.sheet_names()

    def read_table(self, table: Table) -> TableData:
        key = _key(table)
        data = self._data.get(key)
        if data is None:
            if table.sheet in self._written_sheets and table.name != LOG.name:
                raise GroupUnsupported(f"{table.name}: its sheet was written by another table")
            data = self.base._reader.read_table(table)
            self._data[key] = data
        if table.name == LOG.name:  # read only through book.read_log, which changes nothing:
            return self._with_log(data)  # its rows shared (it grows by every entry's lines)
        return _copied(data)

    def content_keys(self, table: Table) -> Iterator[str]:
        """The file's keys for a table of a sheet nobody wrote (the TDListA's member index
        is kept under them); none for a sheet written."""
        if table.sheet in self._written_sheets:
            return
        key = _key(table)
        if key not in self._keys:  # the file does not change while the group runs
            self._keys[key] = list(self.base._reader.content_keys(table))
        yield from self._keys[key]

    def _with_log(self, data: TableData) -> TableData:
        return replace(data, rows=[*data.rows, *self._log_rows])

    def _log_read(self, entries: Sequence[LogEntry]) -> list[Row]:
        """The Log lines ``entries`` as reading the saved file gives them back, numbered
        after the lines before them (each line read back once, as it is appended)."""
        key = _key(LOG)
        if key not in self._data:
            self._data[key] = self.base._reader.read_table(LOG)
        header_row, headers = self._layout(LOG)
        first, end = min(headers), max(headers)
        if end - first + 1 != len(LOG.columns):
            raise GroupUnsupported("the Log's columns are not its own")
        before = self._log_rows or self._data[key].rows
        last = max(header_row, before[-1].number or header_row) if before else header_row
        raw = [[_as_read(v) for v in (e.timestamp, e.level, e.action, e.message)] for e in entries]
        return table_rows.rows_from_block(LOG, last, headers, raw).rows

    def _layout(self, table: Table) -> tuple[int, dict[int, str]]:
        reader = self.base._reader
        header_row = header_row_of(reader, table)
        grid = reader._sheet_grid(table.sheet) if header_row is not None else None
        if header_row is None or grid is None:
            raise GroupUnsupported(f"{table.name}: not a plain table")
        header = grid[header_row - 1] if header_row <= len(grid) else []
        headers = table_rows.header_map(header, table, table_rows.declared_last(table))
        if not headers:
            raise GroupUnsupported(f"{table.name}: no headers")
        return header_row, headers

    # --- writing ----------------------------------------------------------------------

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        if table.bulk:
            raise GroupUnsupported(f"{table.name}: a bulk sheet")
        header_row, headers = self._layout(table)
        layout = table_rows.write_layout(table, headers)
        if layout.added:
            raise GroupUnsupported(f"{table.name}: a header to add")
        try:
            self.base.write_table(table, rows)
        except Unsupported as err:  # pragma: no cover - FileStore takes it to openpyxl
            raise GroupUnsupported(str(err)) from err
        if self.base._full is not None:
            raise GroupUnsupported(f"{table.name}: written through openpyxl")
        data = self._read_back(table, rows, header_row, headers, layout)
        self._data[_key(table)] = data
        self._written_sheets.add(table.sheet)
        self.changed = True

    def _read_back(
        self,
        table: Table,
        rows: Sequence[WriteRow],
        header_row: int,
        headers: dict[int, str],
        layout: table_rows.WriteLayout,
    ) -> TableData:
        """What reading ``rows`` back from the saved file gives: each row rendered and
        parsed as the gateways do; a row unchanged since the last write is not again."""
        key = _key(table)
        prints = [_fingerprint(row) for row in rows]
        before = self._written.get(key)
        first, end, start = min(headers), max(headers), layout.first
        read: list[Row] = []
        for i, (row, print_) in enumerate(zip(rows, prints, strict=True)):
            if before is not None and i < len(before[0]) and before[0][i] == print_:
                read.append(before[1].rows[i])
                continue
            number = header_row + 1 + i
            line = table_rows.render_row(table, row, layout, start, layout.last, number)
            raw = [_as_read(v) for v in line[first - start : end - start + 1]]
            parsed = table_rows.rows_from_block(table, number - 1, headers, [raw])
            if parsed.problems or len(parsed.rows) != 1:
                raise GroupUnsupported(f"{table.name}: row {number} read back otherwise")
            read.append(parsed.rows[0])
        base = before[1] if before is not None else self._data.get(key)
        notices = list(base.notices) if base is not None else []
        data = TableData(table, read, [], notices=notices)
        self._written[key] = (prints, data)
        return data

    def append_log(self, entries: Sequence[LogEntry]) -> None:
        if not entries:
            return
        read = self._log_read(entries)
        self.base.append_log(entries)
        if self.base._full is not None:
            raise GroupUnsupported("the Log written through openpyxl")
        self._log_rows += read

    def remove_sheet(self, sheet: str) -> None:
        raise GroupUnsupported(f"{sheet}: a sheet removed")

    def commit(self) -> None:
        """Nothing is queued: the writes are made in memory."""

    def held_by(self) -> str | None:
        return self.base.held_by()

    # --- the package ------------------------------------------------------------------

    def package(self) -> bytes:
        """The whole package as a save would write it now."""
        if self.base._patch is None:
            return self.base.path.read_bytes()
        try:
            return self.base._patch.package()
        except Unsupported as err:
            raise GroupUnsupported(str(err)) from err


def _as_read(value: object) -> object:
    """A rendered cell value as reading the saved file gives it back."""
    if isinstance(value, Text):
        return value.value
    if value == "":
        return None
    return value


def _fingerprint(row: WriteRow) -> tuple[object, ...]:
    """What a row's rendered cells depend on (``table_rows.render_row``)."""
    if isinstance(row, Row):
        return (dict(row.values), dict(row.extra), dict(row.unread))
    return (dict(row), None, None)


def _copied(data: TableData) -> TableData:
    """The table with rows of its own (an action may change what it read)."""
    return TableData(
        data.table,
        [  # a row's cells name where it was read (never changed after reading): shared
            Row(
                dict(r.values),
                r.number,
                dict(r.extra) if r.extra else {},
                r.cells,
                dict(r.unread) if r.unread else {},
            )
            for r in data.rows
        ],
        list(data.problems),
        data.present,
        list(data.notices),
    )
