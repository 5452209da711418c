"""The storage of the workbook open in LibreOffice Calc, through UNO.

It is a window's storage as Excel's is (``addin.workbook.window_storage``: the same
grids, the same queued changes, the same ``commit()``), so the actions see exactly the
same tables. What differs is the spreadsheet's side of each call:

- A sheet is read with one ``getDataArray`` over its used area (in blocks, as Excel's,
  when that area is huge); the cells holding the TD's formulas are found with one
  ``queryContentCells(FORMULA)`` and read with one ``getFormulaArray``, so a formula is
  kept as typed; date and time cells are found by their number formats
  (``getUniqueCellFormatRanges``, one group per format) and read as ``datetime``.
- A table is written with one ``setDataArray``: text goes in as text (UNO never parses
  it, so text that looks like a formula stays text), a blank is an empty cell, a date
  its serial number with a date format; the TD's formulas, rare, are set cell by cell.
- Excel Tables are Calc database ranges of the same name.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from openpyxl.utils.cell import range_boundaries

from addin.workbook import styling
from addin.workbook.cells import Formula, Text
from addin.workbook.gateway import WriteRow
from addin.workbook.layout import Table
from addin.workbook.window_storage import (
    AddSheet,
    Change,
    CreateTable,
    NumberFormat,
    RemoveSheet,
    ResizeTable,
    WindowStorage,
    WriteBlock,
)

FORMULA_FLAG = 16
"""com.sun.star.sheet.CellFlags.FORMULA"""
DATE_TYPE, TIME_TYPE = 2, 4
"""com.sun.star.util.NumberFormat.DATE and TIME (DATETIME is both)."""
MAX_ROW = 1_048_575
"""Calc's last row, 0-based (a whole-column selection names no row in particular)."""
WIDTH_PER_CHARACTER = 220
"""A column width of one character, in Calc's 1/100 mm."""
HEADER_BACKGROUND = int(str(styling.HEADER_FILL.fgColor.rgb)[-6:], 16)
VALIDATION_LIST, VALIDATION_WARNING = 6, 1
"""com.sun.star.sheet.ValidationType.LIST and ValidationAlertStyle.WARNING."""


class UnoGateway(WindowStorage):
    """The workbook open in Calc (``doc``: a SpreadsheetDocument), read and written in blocks."""

    def __init__(self, doc: Any) -> None:
        super().__init__()
        self.doc = doc
        self._iso_dates = False
        null = doc.NullDate
        self._epoch = datetime(null.Year, null.Month, null.Day)

    @property
    def source(self) -> str:
        path = self.path
        return path.name if path else str(self.doc.Title)

    @property
    def path(self) -> Path | None:
        if not self.doc.hasLocation():
            return None
        import uno  # loaded by whoever made the doc

        path = Path(uno.fileUrlToSystemPath(self.doc.Location))
        return path if path.is_file() else None

    # --- reading ------------------------------------------------------------------------

    def _sheet_list(self) -> list[str]:
        return list(self.doc.Sheets.ElementNames)

    def _sheet(self, name: str) -> Any:
        ws = self._sheets.get(name)
        if ws is None:
            ws = self._sheets[name] = self.doc.Sheets.getByName(name)
        return ws

    def _used_corner(self, sheet: str) -> tuple[int, int]:
        cursor = self._sheet(sheet).createCursor()
        cursor.gotoEndOfUsedArea(False)
        end = cursor.RangeAddress
        return end.EndRow + 1, end.EndColumn + 1

    def _read_block(self, sheet: str, top: int, bottom: int, width: int) -> list[list[object]]:
        """One ``getDataArray``; formulas and dates put right from a few more calls."""
        rng = self._sheet(sheet).getCellRangeByPosition(0, top - 1, width - 1, bottom - 1)
        values = [[self._value(v) for v in row] for row in rng.getDataArray()]
        self._put_dates(rng, values, top)
        formulas = rng.queryContentCells(FORMULA_FLAG)
        if formulas.Count:
            typed = rng.getFormulaArray()
            for area in formulas.RangeAddresses:
                for r in range(area.StartRow, area.EndRow + 1):
                    for c in range(area.StartColumn, area.EndColumn + 1):
                        values[r - top + 1][c] = Formula(typed[r - top + 1][c])
        return values

    @staticmethod
    def _value(value: object) -> object:
        if value == "":
            return None
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return int(value)  # as a .xlsx file stores a whole number
        return value

    def _put_dates(self, rng: Any, values: list[list[object]], top: int) -> None:
        """Numbers in date or time formatted cells become ``datetime`` (``time``), as openpyxl
        and Excel read them."""
        formats = self.doc.NumberFormats
        groups = rng.getUniqueCellFormatRanges()
        for i in range(groups.Count):
            group = groups.getByIndex(i)
            kind = formats.getByKey(group.NumberFormat).Type
            if not kind & (DATE_TYPE | TIME_TYPE):
                continue
            only_time = not kind & DATE_TYPE
            for area in group.RangeAddresses:
                for r in range(area.StartRow - top + 1, min(area.EndRow - top + 2, len(values))):
                    line = values[r]
                    for c in range(area.StartColumn, min(area.EndColumn + 1, len(line))):
                        serial = line[c]
                        if isinstance(serial, int | float) and not isinstance(serial, bool):
                            line[c] = self._moment(float(serial), only_time)

    def _moment(self, serial: float, only_time: bool) -> datetime | time:
        moment = self._epoch + timedelta(seconds=round(serial * 86400))
        return moment.time() if only_time else moment

    def _table_refs(self, sheet: str) -> dict[str, str]:
        """The sheet's database ranges (an .xlsx file's Excel Tables): name -> A1 range."""
        refs = self._tables.get(sheet)
        if refs is None:
            index = self.sheet_names().index(sheet)
            refs = {}
            ranges = self.doc.DatabaseRanges
            for name in ranges.ElementNames:
                area = ranges.getByName(name).DataArea
                if area.Sheet == index:
                    refs[name] = _a1(area.StartColumn, area.StartRow, area.EndColumn, area.EndRow)
            self._tables[sheet] = refs
        return refs

    # --- writing ------------------------------------------------------------------------

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        """As any window's; a bulk table (TDListA) holds its dates as ISO text, as in the
        file."""
        self._iso_dates = table.bulk
        try:
            super().write_table(table, rows)
        finally:
            self._iso_dates = False

    def _write(self, sheet: str, row: int, column: int, block: list[list[object]]) -> None:
        """Queue ``block`` as it is: ``Text`` and ``Formula`` are told apart at commit."""
        if self._iso_dates:
            block = [[_iso(v) for v in line] for line in block]
        self.changes.append(WriteBlock(sheet, row, column, block))
        plain = [[v.value if isinstance(v, Text) else v for v in line] for line in block]
        self._grid(sheet).put(row, column, plain)

    def _apply(self, change: Change) -> None:
        if isinstance(change, AddSheet):
            self.doc.Sheets.insertNewByName(change.sheet, change.index)
        elif isinstance(change, RemoveSheet):
            self.doc.Sheets.removeByName(change.sheet)
            self._sheets.pop(change.sheet, None)
        elif isinstance(change, WriteBlock):
            self._write_block(change)
        elif isinstance(change, NumberFormat):
            rng = self._sheet(change.sheet).getCellRangeByPosition(
                change.column - 1, change.row - 1, change.column - 1, change.row + change.rows - 2
            )
            rng.NumberFormat = self._format_key(change.format)
        elif isinstance(change, ResizeTable):
            self.doc.DatabaseRanges.getByName(change.table.name).DataArea = self._address(
                change.table.sheet, change.ref
            )
        elif isinstance(change, CreateTable):
            self._create_table(change)

    def _write_block(self, change: WriteBlock) -> None:
        ws = self._sheet(change.sheet)
        width = max(len(line) for line in change.values)
        lines = [[*line, *([None] * (width - len(line)))] for line in change.values]
        top, left = change.row - 1, change.column - 1
        rng = ws.getCellRangeByPosition(left, top, left + width - 1, top + len(lines) - 1)
        rng.setDataArray(tuple(tuple(self._to_calc(v) for v in line) for line in lines))
        for i, line in enumerate(lines):
            for j, value in enumerate(line):
                if isinstance(value, Formula):
                    ws.getCellByPosition(left + j, top + i).setFormula(str(value))

    def _to_calc(self, value: object) -> object:
        """What ``setDataArray`` takes for ``value``: text, a number, or '' for nothing."""
        if value is None or isinstance(value, Formula):
            return ""  # a formula is set after the block
        if isinstance(value, Text):
            return value.value
        if isinstance(value, bool):
            return 1.0 if value else 0.0
        if isinstance(value, int | float):
            return float(value) if math.isfinite(value) else str(value)
        if isinstance(value, datetime):
            return (value - self._epoch).total_seconds() / 86400
        if isinstance(value, date):
            return float((value - self._epoch.date()).days)
        if isinstance(value, time):
            return (value.hour * 3600 + value.minute * 60 + value.second) / 86400
        return str(value)

    def _format_key(self, code: str) -> int:
        import uno

        formats = self.doc.NumberFormats
        locale = uno.createUnoStruct("com.sun.star.lang.Locale", "en", "US", "")
        key = formats.queryKey(code, locale, False)
        return int(key if key >= 0 else formats.addNew(code, locale))

    def _address(self, sheet: str, ref: str) -> Any:
        import uno

        left, top, right, bottom = (int(v) for v in range_boundaries(ref))
        return uno.createUnoStruct(
            "com.sun.star.table.CellRangeAddress",
            self.sheet_names().index(sheet),
            left - 1,
            top - 1,
            right - 1,
            bottom - 1,
        )

    def _create_table(self, change: CreateTable) -> None:
        """A database range named as the Excel Table, with the template's header look,
        column widths and dropdowns (warning only: the TD may type past them)."""
        table = change.table
        ws = self._sheet(table.sheet)
        address = self._address(table.sheet, change.ref)
        ranges = self.doc.DatabaseRanges
        if not ranges.hasByName(table.name):
            ranges.addNewByName(table.name, address)
        header = ws.getCellRangeByPosition(
            address.StartColumn, address.StartRow, address.EndColumn, address.StartRow
        )
        header.CharWeight = 150.0  # com.sun.star.awt.FontWeight.BOLD
        header.CellBackColor = HEADER_BACKGROUND
        header.IsTextWrapped = True
        columns = ws.Columns
        for offset, column in enumerate(table.columns):
            col = table.anchor_column - 1 + offset
            columns.getByIndex(col).Width = int(column.width * WIDTH_PER_CHARACTER)
            if column.choices:
                below = ws.getCellRangeByPosition(
                    col, address.StartRow + 1, col, address.StartRow + styling.VALIDATED_ROWS
                )
                rule = below.Validation
                rule.Type = VALIDATION_LIST
                rule.ShowList = 1
                rule.ShowErrorMessage = True
                rule.ErrorAlertStyle = VALIDATION_WARNING
                rule.setFormula1(";".join(f'"{c}"' for c in column.choices))
                below.Validation = rule


def _iso(value: object) -> object:
    return value.isoformat() if isinstance(value, date) else value


def _a1(left: int, top: int, right: int, bottom: int) -> str:
    """A1 range from 0-based corners."""
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(left + 1)}{top + 1}:{get_column_letter(right + 1)}{bottom + 1}"
