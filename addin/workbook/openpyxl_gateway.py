"""The gateway for .xlsx files on disk, through openpyxl.

Changes are made to the workbook in memory; nothing touches the file until
``save()``, which is atomic and keeps backups. An action that fails or is not
confirmed simply never saves, so the file stays as it was.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import openpyxl
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from addin.workbook import bulk_sheet, cells, styling, table_rows
from addin.workbook.gateway import LogEntry, Problem, Row, TableData, WriteRow
from addin.workbook.layout import LOG, TDLISTA, Table
from addin.workbook.saving import check_not_open, save_atomically


class WorkbookError(RuntimeError):
    """The file cannot be used as a tournament workbook at all."""


class OpenpyxlGateway:
    def __init__(
        self,
        workbook: Workbook,
        path: Path | None = None,
        *,
        confirm: Callable[[str], bool] | None = None,
        alert: Callable[[str], None] | None = None,
    ) -> None:
        self.wb = workbook
        self.path = Path(path) if path else None
        self.source = self.path.name if self.path else "workbook"
        self._confirm = confirm or (lambda message: False)
        self._alert = alert or (lambda message: None)
        self.bulk: dict[str, bulk_sheet.BulkSheet] = {}
        self._reads: dict[tuple[str, str], TableData] = {}
        """Tables read since their sheet was last written through this gateway: a process
        that runs many actions on one workbook (the demo) reads each played round once,
        not once per action. Code that edits ``wb`` directly must call :meth:`forget`."""

    @classmethod
    def open(cls, path: Path | str, *, force: bool = False, **kwargs: object) -> OpenpyxlGateway:
        path = Path(path)
        if not path.exists():
            raise WorkbookError(f"{path}: no such file")
        if not force:
            check_not_open(path)
        try:
            stub, bulk = bulk_sheet.split(path.read_bytes(), TDLISTA.sheet)
            wb = openpyxl.load_workbook(io.BytesIO(stub))
        except Exception as err:  # openpyxl and zipfile raise many kinds for a non-workbook
            raise WorkbookError(f"{path}: not an Excel .xlsx workbook ({err})") from err
        gw = cls(wb, path, **kwargs)  # type: ignore[arg-type]
        if bulk is not None:
            gw.bulk[bulk.sheet] = bulk
        return gw

    # --- reading ------------------------------------------------------------------------

    def sheet_names(self) -> list[str]:
        return list(self.wb.sheetnames)

    def _header_row(self, ws: Worksheet, table: Table) -> int:
        xl = ws.tables.get(table.name)
        if xl is not None:
            return openpyxl.utils.cell.range_boundaries(xl.ref)[1]
        return 1

    def _header_map(self, ws: Worksheet, table: Table, header_row: int) -> dict[int, str]:
        """Column index -> header text, from the table's first column to the first blank."""
        xl = ws.tables.get(table.name)
        last = table_rows.declared_last(table)
        if xl is not None:
            last = max(last, openpyxl.utils.cell.range_boundaries(xl.ref)[2])
        end = max(ws.max_column, last)
        row = [ws.cell(row=header_row, column=c).value for c in range(1, end + 1)]
        return table_rows.header_map(row, table, last)

    def forget(self, sheet: str | None = None) -> None:
        """Drop what was read from ``sheet`` (every sheet when ``None``)."""
        for key in [k for k in self._reads if sheet is None or k[0] == sheet]:
            del self._reads[key]

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
        header_row = self._header_row(ws, table)
        headers = self._header_map(ws, table, header_row)
        if not headers:
            return table_rows.rows_from_block(table, header_row, headers, [])
        raw = self._raw_rows(ws, table, header_row, min(headers), max(headers))
        return table_rows.rows_from_block(table, header_row, headers, raw)

    def _raw_rows(
        self, ws: Worksheet, table: Table, header_row: int, first: int, last: int
    ) -> Iterable[Sequence[object]]:
        bulk = self.bulk.get(table.sheet)
        if bulk is not None:
            width = last - first + 1
            for values in bulk.values():
                part = values[first - 1 : last]
                yield [*part, *([None] * (width - len(part)))]
            return
        yield from ws.iter_rows(
            min_row=header_row + 1,
            max_row=max(ws.max_row, header_row + 1),
            min_col=first,
            max_col=last,
            values_only=True,
        )

    # --- writing ------------------------------------------------------------------------

    def _sheet(self, table: Table) -> Worksheet:
        if table.sheet in self.wb.sheetnames:
            return self.wb[table.sheet]
        ws = self.wb.create_sheet(
            table.sheet, table_rows.sheet_position(self.wb.sheetnames, table.sheet)
        )
        styling.format_sheet(ws, table.freeze, self._title())
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
        if ws.tables.get(table.name) is None and cells.is_blank(
            ws.cell(row=1, column=table.anchor_column).value
        ):
            styling.format_table(ws, table)
        header_row = self._header_row(ws, table)
        headers = self._header_map(ws, table, header_row)
        layout = table_rows.write_layout(table, headers)
        for col, header in layout.added.items():
            ws.cell(row=header_row, column=col, value=header).font = styling.HEADER_FONT
        headers, positions, extra_cols = layout.headers, layout.positions, layout.extra_cols

        width = max(headers) - table.anchor_column + 1
        styling.set_table_ref(ws, table, styling.table_ref(table, header_row, len(rows), width))
        if table.bulk:
            self._write_bulk(table, table_rows.block_for_rows(table, rows, layout, first=1))
            return
        for r in range(header_row + 1, ws.max_row + 1):
            for col in headers:
                ws.cell(row=r, column=col).value = None

        formats = {
            key: styling.number_format(table.column(key).kind, table.column(key).number_format)
            for key in positions
        }
        for i, row in enumerate(rows):
            r = header_row + 1 + i
            values = row.values if isinstance(row, Row) else row
            for key, col in positions.items():
                cell = ws.cell(
                    row=r, column=col, value=cells.render(values.get(key), table.column(key))
                )
                if formats[key]:
                    cell.number_format = formats[key]
            if isinstance(row, Row):
                for header, value in row.extra.items():
                    if header in extra_cols:
                        ws.cell(row=r, column=extra_cols[header], value=value)

    def _write_bulk(self, table: Table, matrix: list[list[object]]) -> None:
        bulk = self.bulk.setdefault(table.sheet, bulk_sheet.BulkSheet(table.sheet, b""))
        bulk.set_values(matrix)

    def remove_sheet(self, sheet: str) -> None:
        self.forget(sheet)
        if sheet in self.wb.sheetnames:
            del self.wb[sheet]

    def append_log(self, entries: Sequence[LogEntry]) -> None:
        if not entries:
            return
        self.forget(LOG.sheet)
        ws = self._sheet(LOG)
        if ws.tables.get(LOG.name) is None:
            styling.format_table(ws, LOG)
        header_row = self._header_row(ws, LOG)
        last = header_row
        for r in range(ws.max_row, header_row, -1):
            if not cells.is_blank(ws.cell(row=r, column=LOG.anchor_column).value):
                last = r
                break
        for i, entry in enumerate(entries, start=1):
            values = (entry.timestamp, entry.level, entry.action, entry.message)
            for offset, (column, value) in enumerate(zip(LOG.columns, values, strict=True)):
                cell = ws.cell(row=last + i, column=LOG.anchor_column + offset, value=value)
                if column.number_format:
                    cell.number_format = column.number_format
        count = last + len(entries) - header_row
        styling.set_table_ref(ws, LOG, styling.table_ref(LOG, header_row, count))

    def alert(self, message: str) -> None:
        self._alert(message)

    def confirm(self, message: str) -> bool:
        return self._confirm(message)

    # --- saving -------------------------------------------------------------------------

    def save(self, path: Path | None = None, **kwargs: object) -> None:
        target = Path(path) if path else self.path
        if target is None:
            raise WorkbookError("no file to save to")
        save_atomically(self._write_file, target, **kwargs)  # type: ignore[arg-type]

    def _write_file(self, path: Path) -> None:
        self.wb.save(path)
        for bulk in self.bulk.values():
            if bulk.sheet in self.wb.sheetnames:
                ws = self.wb[bulk.sheet]
                bulk_sheet.splice(str(path), bulk, ws.max_column)


def _copy(data: TableData) -> TableData:
    """A copy the caller may change without changing what the gateway remembers."""
    rows = [replace(r, values=dict(r.values), extra=dict(r.extra)) for r in data.rows]
    return replace(data, rows=rows, problems=list(data.problems), notices=list(data.notices))
