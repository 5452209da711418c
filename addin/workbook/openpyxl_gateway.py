"""The gateway for .xlsx files on disk, through openpyxl.

Changes are made to the workbook in memory; nothing touches the file until
``save()``, which is atomic and keeps backups. An action that fails or is not
confirmed simply never saves, so the file stays as it was.
"""

from __future__ import annotations

import copy
import errno
import io
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import openpyxl
from lxml import etree
from openpyxl.cell.cell import Cell, MergedCell
from openpyxl.styles import Alignment
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import column_index_from_string, get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from addin.workbook import bulk_sheet, cells, styling, table_rows
from addin.workbook.cells import ErrorValue, Formula, RefusedValue, Text, gate
from addin.workbook.gateway import (
    LogEntry,
    Problem,
    Row,
    TableData,
    WorkbookError,
    WriteRow,
)
from addin.workbook.layout import BULK_SHEETS, LOG, Table
from addin.workbook.saving import BACKUPS_KEPT, check_not_open, held_by, save_atomically, target_of

__all__ = ["OpenpyxlGateway", "WorkbookError"]


class OpenpyxlGateway:
    def __init__(
        self,
        workbook: Workbook,
        path: Path | None = None,
    ) -> None:
        self.wb = workbook
        self.path = Path(path) if path else None
        self.source = self.path.name if self.path else "workbook"
        self.bulk: dict[str, bulk_sheet.BulkSheet] = {}
        self.force = False
        """Write even though Excel or LibreOffice holds the file (``--force``)."""
        self.changed = False
        """Whether a table or sheet was written (the Log aside)."""
        self._extents: dict[str, table_rows.Extent] = {}
        self._reads: dict[tuple[str, str], TableData] = {}
        """Tables read since their sheet was last written through this gateway: a process
        that runs many actions on one workbook (the demo) reads each played round once,
        not once per action. Code that edits ``wb`` directly must call :meth:`forget`."""

    @classmethod
    def open(cls, path: Path | str, *, force: bool = False) -> OpenpyxlGateway:
        """Open for reading, even when Excel or LibreOffice holds the file: ``save`` refuses
        then, unless ``force``."""
        path = Path(path)
        if not path.exists():
            raise WorkbookError(f"{path}: no such file")
        try:
            stub, bulk = bulk_sheet.split(path.read_bytes(), BULK_SHEETS)
            wb = openpyxl.load_workbook(io.BytesIO(stub))
        except Exception as err:  # openpyxl and zipfile raise many kinds for a non-workbook
            why = err.__cause__ or err  # openpyxl's "see the exception" names no cell
            said = " ".join(str(why).split())[:300]
            raise WorkbookError(f"{path}: not an Excel .xlsx workbook ({said})") from err
        gw = cls(wb, path)
        gw.force = force
        gw.bulk.update((b.sheet, b) for b in bulk)
        return gw

    # --- reading ------------------------------------------------------------------------

    def sheet_names(self) -> list[str]:
        return list(self.wb.sheetnames)

    def _header_row(self, ws: Worksheet, table: Table) -> int:
        xl = ws.tables.get(table.name)
        if xl is None:
            return 1
        row: int | None
        try:
            row = openpyxl.utils.cell.range_boundaries(xl.ref)[1]
        except (ValueError, TypeError):
            row = None
        if row is None:
            raise WorkbookError(
                f"{self.source}: {ws.title}: the Excel Table {table.name} covers {xl.ref!r}, "
                "not a block of cells; resize it in Excel (Table Design > Resize Table)"
            )
        return row

    def _header_map(
        self, ws: Worksheet, table: Table, header_row: int, width: int
    ) -> dict[int, str]:
        """Column index -> header text, from the table's first column to the first blank."""
        xl = ws.tables.get(table.name)
        last = table_rows.declared_last(table)
        if xl is not None:
            last = max(last, openpyxl.utils.cell.range_boundaries(xl.ref)[2])
        end = max(width, last)
        row = [ws.cell(row=header_row, column=c).value for c in range(1, end + 1)]
        return table_rows.header_map(row, table, last)

    def forget(self, sheet: str | None = None) -> None:
        """Drop what was read from ``sheet`` (every sheet when ``None``)."""
        for key in [k for k in self._reads if sheet is None or k[0] == sheet]:
            del self._reads[key]
        for title in [t for t in self._extents if sheet is None or t == sheet]:
            del self._extents[title]

    def _extent(self, ws: Worksheet) -> table_rows.Extent:
        """The sheet's data block, measured once for all the tables it holds."""
        found = self._extents.get(ws.title)
        if found is None:
            found = self._extents[ws.title] = table_rows.measure(ws)
        return found

    def read_table(self, table: Table) -> TableData:
        key = (table.sheet, table.name)
        cached = self._reads.get(key)
        if cached is None or cached.table != table:
            cached = self._reads[key] = self._read_table(table)
        return _copy(cached)

    def _read_table(self, table: Table) -> TableData:
        if table.sheet not in self.wb.sheetnames:
            return TableData(table, [], [Problem(table.sheet, "sheet is missing")], present=False)
        ws = self.wb[table.sheet]
        found = self._extent(ws)
        header_row = self._header_row(ws, table)
        headers = self._header_map(ws, table, header_row, found.last_column)
        if not headers:
            data = table_rows.rows_from_block(table, header_row, headers, [])
        else:
            first, last = min(headers), max(headers)
            bottom = max(found.last_row, header_row)
            merged = table_rows.merged_problems(ws, header_row, bottom, first, last)
            if merged:
                return TableData(table, [], merged)
            raw = self._raw_rows(ws, header_row, first, last, bottom)
            data = table_rows.rows_from_block(table, header_row, headers, raw)
        data.problems += table_rows.stray_problems(table.sheet, found)
        return data

    def _raw_rows(
        self, ws: Worksheet, header_row: int, first: int, last: int, bottom: int
    ) -> Iterable[Sequence[object]]:
        bulk = self.bulk.get(ws.title)
        if bulk is not None:
            width = last - first + 1
            for values in bulk.values():
                part = values[first - 1 : last]
                yield [*part, *([None] * (width - len(part)))]
            return
        rows = ws.iter_rows(
            min_row=header_row + 1, max_row=bottom, min_col=first, max_col=last, values_only=True
        )
        for r, values in enumerate(rows, start=header_row + 1):
            if any(isinstance(v, str) and v.startswith(("=", "#")) for v in values):
                yield tuple(self._formula(ws, r, c, v) for c, v in enumerate(values, first))
            else:
                yield values

    @staticmethod
    def _formula(ws: Worksheet, r: int, c: int, value: object) -> object:
        """``value`` marked as the TD's own formula when the cell holds one (not text), and
        as an error value when the cell is an error cell (``#N/A``)."""
        if isinstance(value, str) and value.startswith(("=", "#")):
            kind = ws.cell(row=r, column=c).data_type
            if kind == "f":
                return Formula(value)
            if kind == "e":
                return ErrorValue(value)
        return value

    # --- writing ------------------------------------------------------------------------

    def _sheet(self, table: Table) -> Worksheet:
        if table.sheet in self.wb.sheetnames:
            return self.wb[table.sheet]
        ws = self.wb.create_sheet(
            table.sheet, table_rows.sheet_position(self.wb.sheetnames, table.sheet)
        )
        styling.format_sheet(ws, table.freeze, self._title(), wide=styling.is_wide(table))
        return ws

    def _title(self) -> str:
        if "Tournament" in self.wb.sheetnames:
            ws = self.wb["Tournament"]
            if ws["B2"].value:
                return str(ws["B2"].value)
        return ""

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        self.forget(table.sheet)
        ws = self._sheet(table)
        self._not_elsewhere(ws, table)
        if ws.tables.get(table.name) is None and cells.is_blank(
            ws.cell(row=1, column=table.anchor_column).value
        ):
            styling.format_table(ws, table)
        styling.set_header(ws, self._title())  # the event's name as it is now
        header_row = self._header_row(ws, table)
        headers = self._header_map(ws, table, header_row, table_rows.measure(ws).last_column)
        layout = table_rows.write_layout(table, headers)
        headers, positions = layout.headers, layout.positions
        if table.bulk:
            block = table_rows.block_for_rows(table, rows, layout, first=1)
        else:
            block = table_rows.block_for_rows(table, rows, layout, top=header_row + 1)
        self.changed = True
        for col, header in layout.added.items():
            ws.cell(row=header_row, column=col, value=header).font = styling.HEADER_FONT
        width = max(headers) - table.anchor_column + 1
        ref = styling.table_ref(table, header_row, len(rows), width)
        styling.set_table_ref(ws, table, ref, rows=len(rows))
        if table.bulk:
            self._write_bulk(table, block)
            return
        # Clear the cells that exist, never walking rows that hold nothing.
        for (r, c), cell in list(ws._cells.items()):
            if r > header_row and c in headers and cell.value is not None:
                _store(ws, r, c, None)

        formats = {
            positions[key]: styling.number_format(
                table.column(key).kind, table.column(key).number_format
            )
            for key in positions
        }
        first = layout.first
        styles = _column_styles(ws)
        for i, line in enumerate(block):
            r = header_row + 1 + i
            for offset, value in enumerate(line):
                col = first + offset
                if col not in headers:
                    continue
                styled = value is not None or formats.get(col) is not None
                cell = _store(ws, r, col, value, styles.get(col) if styled else None)
                if formats.get(col):
                    cell.number_format = formats[col]
            self._fit_wrapped(ws, table, r, positions)

    @staticmethod
    def _fit_wrapped(ws: Worksheet, table: Table, r: int, positions: dict[str, int]) -> None:
        """A row whose text wraps (the Tournament sheet's Help) is made tall enough to show
        it: neither Excel nor LibreOffice measures a row again when it opens a file."""
        if not any(c.wrap for c in table.columns):
            return
        values = [
            ws.cell(row=r, column=positions[c.key]).value if c.key in positions else None
            for c in table.columns
        ]
        height = table_rows.wrapped_height(table, values)
        if height is None:
            return
        ws.row_dimensions[r].height = height
        for c in table.columns:  # the setting's name beside the first line of its help
            if c.key in positions and not c.wrap:
                cell = ws.cell(row=r, column=positions[c.key])
                was = cell.alignment
                cell.alignment = Alignment(
                    horizontal=was.horizontal,
                    vertical="top",
                    wrap_text=was.wrap_text,
                    shrink_to_fit=was.shrink_to_fit,
                    indent=was.indent,
                )

    def _not_elsewhere(self, ws: Worksheet, table: Table) -> None:
        """A sheet renamed still holds the table: a second one of that name is no file."""
        for other in self.wb.worksheets:
            if other is not ws and table.name in other.tables:
                raise RefusedValue(
                    f"the sheet '{other.title}' holds the table {table.name} of '{table.sheet}' "
                    f"(renamed from it?): rename it back to '{table.sheet}', or delete it; "
                    "nothing was written"
                )

    def _write_bulk(self, table: Table, matrix: list[list[object]]) -> None:
        bulk = self.bulk.setdefault(table.sheet, bulk_sheet.BulkSheet(table.sheet, b""))
        bulk.set_values([[v.value if isinstance(v, Text) else v for v in row] for row in matrix])

    def remove_sheet(self, sheet: str) -> None:
        self.forget(sheet)
        if sheet in self.wb.sheetnames:
            ws = self.wb[sheet]
            del self.wb[sheet]
            ws._cells.clear()  # a cell refers to its sheet: freed now, not by a full collection
            self.changed = True

    def append_log(self, entries: Sequence[LogEntry]) -> None:
        if not entries:
            return
        self.forget(LOG.sheet)
        ws = self._sheet(LOG)
        self._not_elsewhere(ws, LOG)
        if ws.tables.get(LOG.name) is None:
            styling.format_table(ws, LOG)
        header_row = self._header_row(ws, LOG)
        anchor = LOG.anchor_column
        bottom = table_rows.measure(ws).last_row  # a stray far below is not the Log's end
        last = max(
            (
                r
                for (r, c), cell in ws._cells.items()
                if c == anchor and header_row < r <= bottom and not cells.is_blank(cell.value)
            ),
            default=header_row,
        )
        styles = _column_styles(ws)
        for i, entry in enumerate(entries, start=1):
            values = (entry.timestamp, entry.level, entry.action, entry.message)
            for offset, (column, value) in enumerate(zip(LOG.columns, values, strict=True)):
                col = anchor + offset
                gated = gate(value, f"{LOG.sheet}!{_ref(col, last + i)}")
                cell = _store(ws, last + i, col, gated, styles.get(col))
                if column.number_format:
                    cell.number_format = column.number_format
            height = table_rows.wrapped_height(LOG, values)
            message = ws.cell(row=last + i, column=anchor + len(LOG.columns) - 1)
            if height is not None and message.alignment.wrap_text:  # an older Log never wraps
                ws.row_dimensions[last + i].height = height
        count = last + len(entries) - header_row
        styling.set_table_ref(ws, LOG, styling.table_ref(LOG, header_row, count))

    def commit(self) -> None:
        """Nothing is queued: every write already changed the workbook in memory."""

    def content_keys(self, table: Table) -> Iterator[str]:
        """Keys under which what ``read_table(table)`` gives may be kept (``read_cache``):
        only for a bulk sheet of our own plain rows, as the file was read and not written
        since (``plain_rows.plain_rows_key``)."""
        bulk = self.bulk.get(table.sheet)
        if self.changed or bulk is None or bulk.changed or bulk.original is None:
            return
        from addin.workbook.plain_rows import plain_rows_key

        key = plain_rows_key(bulk.original, table)
        if key is not None:
            yield key

    # --- saving -------------------------------------------------------------------------

    def save(
        self,
        path: Path | None = None,
        *,
        ready: Callable[[Path], None] | None = None,
        keep: int = BACKUPS_KEPT,
        replace: Callable[[Path, Path], None] = os.replace,
    ) -> None:
        """Write the workbook safely (``saving.save_atomically``; ``ready`` sees the new file
        before it replaces the old). Refused while Excel or LibreOffice holds the file, unless
        opened with ``force``."""
        target = Path(path) if path else self.path
        if target is None:
            raise WorkbookError("no file to save to")
        if not self.force and target.exists():
            check_not_open(target)
            check_not_open(target_of(target))
        save_atomically(self._write_file, target, ready=ready, keep=keep, replace=replace)

    def held_by(self) -> str | None:
        """Which other program holds this workbook open, if any."""
        if self.path is None:
            return None
        return held_by(self.path) or held_by(target_of(self.path))

    def _write_file(self, path: Path) -> None:
        """The whole package is made in memory and written with one ``write``: a full disk
        is one clean OSError here, never a half-closed zip complaining later."""
        buffer = io.BytesIO()
        try:
            self.wb.save(buffer)
        except etree.SerialisationError as err:  # openpyxl streams sheets via temporary files
            raise _os_error(err) from err
        data = buffer.getvalue()
        for bulk in self.bulk.values():
            if bulk.sheet in self.wb.sheetnames:
                ws = self.wb[bulk.sheet]
                data = bulk_sheet.splice_bytes(data, bulk, ws.max_column)
        with open(path, "wb") as f:
            f.write(data)


def _os_error(err: etree.SerialisationError) -> OSError:
    """lxml's ``IO_EFBIG``, ``IO_ENOSPC``... as the OSError a direct write would raise."""
    code = getattr(errno, str(err).removeprefix("IO_"), errno.EIO)
    return OSError(code, os.strerror(code))


def _ref(col: int, row: int) -> str:
    return f"{get_column_letter(col)}{row}"


def _column_styles(ws: Worksheet) -> dict[int, StyleArray]:
    """The style of each column that has one (a wrapped Log message, a TD's format)."""
    styles: dict[int, StyleArray] = {}
    for key, dim in ws.column_dimensions.items():
        if dim.has_style:
            low = dim.min or column_index_from_string(key)
            for c in range(low, min(dim.max or low, bulk_sheet.LAST_COLUMN) + 1):
                styles[c] = dim._style
    return styles


def _store(
    ws: Worksheet, r: int, c: int, value: object, column_style: StyleArray | None = None
) -> Cell:
    """Put a gated value in a cell: ``Text`` as text even when it starts with '='. A new cell
    (or an empty one with no style of its own) takes ``column_style``, its column's, as it
    does when the TD types into it."""
    cell = ws.cell(row=r, column=c)
    bare = cell.value is None and not cell.has_style  # also one made by iterating the rows
    if bare and column_style is not None:
        cell._style = copy.copy(column_style)
    if isinstance(cell, MergedCell):
        merged = next(m.coord for m in ws.merged_cells.ranges if cell.coordinate in m)
        raise RefusedValue(
            f"{ws.title}!{merged}: merged cells in a table; unmerge them so that each value "
            "has a cell of its own; nothing was written"
        )
    if isinstance(value, Text):
        cell.value = value.value
        cell.data_type = "s"
    else:
        cell.value = value
    return cell


def _copy(data: TableData) -> TableData:
    """A copy the caller may change without changing what the gateway remembers."""
    rows = [Row(dict(r.values), r.number, dict(r.extra), r.cells, r.unread) for r in data.rows]
    return replace(data, rows=rows, problems=list(data.problems), notices=list(data.notices))
