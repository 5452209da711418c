"""The gateway for .xlsx files on disk, through openpyxl.

Changes are made to the workbook in memory; nothing touches the file until
``save()``, which is atomic and keeps backups. An action that fails or is not
confirmed simply never saves, so the file stays as it was.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import openpyxl
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from addin.workbook import bulk_sheet, cells, styling
from addin.workbook.gateway import LogEntry, Problem, Row, TableData, WriteRow
from addin.workbook.layout import LOG, SHEET_ORDER, TDLISTA, Table, round_number_of
from addin.workbook.saving import check_not_open, save_atomically


class WorkbookError(RuntimeError):
    """The file cannot be used as a tournament workbook at all."""


def _norm(header: object) -> str:
    return " ".join(str(header).split()).casefold() if header is not None else ""


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
        last = table.anchor_column + len(table.columns) - 1
        if xl is not None:
            last = max(last, openpyxl.utils.cell.range_boundaries(xl.ref)[2])
        headers: dict[int, str] = {}
        col = table.anchor_column
        while True:
            value = ws.cell(row=header_row, column=col).value
            if cells.is_blank(value):
                if col > last:
                    break
            else:
                headers[col] = str(value).strip()
            col += 1
        return headers

    def read_table(self, table: Table) -> TableData:
        if table.sheet not in self.wb.sheetnames:
            return TableData(table, [], [Problem(table.sheet, "sheet is missing")], present=False)
        ws = self.wb[table.sheet]
        header_row = self._header_row(ws, table)
        headers = self._header_map(ws, table, header_row)
        by_header = {_norm(h): col for col, h in headers.items()}
        problems: list[Problem] = []
        positions: dict[str, int] = {}
        for column in table.columns:
            col = by_header.get(_norm(column.header))
            if col is not None:
                positions[column.key] = col
            elif column.required:
                problems.append(
                    Problem(
                        table.sheet,
                        f"required column {column.header!r} is missing from the header row",
                        f"{header_row}:{header_row}",
                    )
                )
        known = set(positions.values())
        extras = {col: h for col, h in headers.items() if col not in known}
        if not headers:
            return TableData(table, [], problems, present=False)
        first, last = min(headers), max(headers)
        rows: list[Row] = []
        notices: list[Problem] = []
        blank_rows: list[int] = []
        for number, raw in enumerate(
            self._raw_rows(ws, table, header_row, first, last), start=header_row + 1
        ):
            if all(cells.is_blank(raw[col - first]) for col in known):
                blank_rows.append(number)
                continue
            if blank_rows:
                notices += [
                    Problem(table.sheet, "blank row skipped", f"{n}:{n}") for n in blank_rows
                ]
                blank_rows = []
            row = Row(values={}, number=number)
            for column in table.columns:
                col = positions.get(column.key)
                if col is None:
                    continue
                ref = f"{get_column_letter(col)}{number}"
                row.cells[column.key] = ref
                value = raw[col - first]
                if isinstance(value, str) and column.kind in cells.NUMERIC and value.strip():
                    notices.append(
                        Problem(
                            table.sheet, f"number stored as text: {value!r}", ref, column.header
                        )
                    )
                try:
                    row.values[column.key] = cells.parse(value, column)
                except cells.CellError as err:
                    row.values[column.key] = None
                    problems.append(Problem(table.sheet, str(err), ref, column.header))
            row.extra = {h: raw[col - first] for col, h in extras.items()}
            rows.append(row)
        if table.unique:
            problems += _duplicates(table, rows)
        return TableData(table, rows, problems, notices=notices)

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
        ws = self.wb.create_sheet(table.sheet, _sheet_position(self.wb.sheetnames, table.sheet))
        styling.format_sheet(ws, table.freeze, self._title())
        return ws

    def _title(self) -> str:
        if "Tournament" in self.wb.sheetnames:
            ws = self.wb["Tournament"]
            if ws["B2"].value:
                return str(ws["B2"].value)
        return ""

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        ws = self._sheet(table)
        if ws.tables.get(table.name) is None and cells.is_blank(
            ws.cell(row=1, column=table.anchor_column).value
        ):
            styling.format_table(ws, table)
        header_row = self._header_row(ws, table)
        headers = self._header_map(ws, table, header_row)
        by_header = {_norm(h): col for col, h in headers.items()}
        next_col = max(headers, default=table.anchor_column - 1) + 1
        positions: dict[str, int] = {}
        for column in table.columns:
            col = by_header.get(_norm(column.header))
            if col is None:
                col = next_col
                next_col += 1
                ws.cell(row=header_row, column=col, value=column.header).font = styling.HEADER_FONT
                headers[col] = column.header
            positions[column.key] = col
        extra_cols = {h: col for col, h in headers.items() if col not in positions.values()}

        width = max(headers) - table.anchor_column + 1
        styling.set_table_ref(ws, table, styling.table_ref(table, header_row, len(rows), width))
        if table.bulk:
            self._write_bulk(table, rows, positions, extra_cols, max(headers))
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

    def _write_bulk(
        self,
        table: Table,
        rows: Sequence[WriteRow],
        positions: dict[str, int],
        extra_cols: dict[str, int],
        last: int,
    ) -> None:
        matrix = []
        for row in rows:
            line: list[object] = [None] * last
            values = row.values if isinstance(row, Row) else row
            for key, col in positions.items():
                line[col - 1] = cells.render(values.get(key), table.column(key))
            if isinstance(row, Row):
                for header, value in row.extra.items():
                    if header in extra_cols:
                        line[extra_cols[header] - 1] = value
            matrix.append(line)
        bulk = self.bulk.setdefault(table.sheet, bulk_sheet.BulkSheet(table.sheet, b""))
        bulk.set_values(matrix)

    def remove_sheet(self, sheet: str) -> None:
        if sheet in self.wb.sheetnames:
            del self.wb[sheet]

    def append_log(self, entries: Sequence[LogEntry]) -> None:
        if not entries:
            return
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


def _duplicates(table: Table, rows: list[Row]) -> list[Problem]:
    assert table.unique
    seen: dict[object, Row] = {}
    problems = []
    for row in rows:
        value = row.values.get(table.unique)
        if value is None:
            continue
        if value in seen:
            first = seen[value]
            column = table.column(table.unique)
            problems.append(
                Problem(
                    table.sheet,
                    f"duplicate {column.header} {value} (also in row {first.number})",
                    row.cells.get(table.unique),
                    column.header,
                )
            )
        else:
            seen[value] = row
    return problems


def _sheet_position(existing: list[str], sheet: str) -> int:
    """Round sheets go after Requests in round order; fixed sheets in SHEET_ORDER."""
    number = round_number_of(sheet)
    if number is not None:
        after = [
            i
            for i, name in enumerate(existing)
            if name == "Requests" or 0 < (round_number_of(name) or 0) < number
        ]
        return (max(after) + 1) if after else len(existing)
    if sheet in SHEET_ORDER:
        rank = SHEET_ORDER.index(sheet)
        later = [
            i
            for i, name in enumerate(existing)
            if name in SHEET_ORDER and SHEET_ORDER.index(name) > rank
        ]
        return min(later) if later else len(existing)
    return len(existing)
