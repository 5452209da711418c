"""How a table sheet looks: Excel Table, dropdowns, frozen header, widths, print setup.

Used by the template builder and whenever an action creates a sheet (a new
``Round N``), so every sheet the program makes prints the same way.
"""

from __future__ import annotations

from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.table import Table as XLTable
from openpyxl.worksheet.table import TableColumn, TableStyleInfo
from openpyxl.worksheet.worksheet import Worksheet

from addin.core.limits import number_said
from addin.workbook.layout import Column, Kind, Table
from addin.workbook.package import print_ranges

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE6F0")
WRAPPED = Alignment(wrap_text=True, vertical="top")
"""A column whose long text wraps: each new cell takes it (see ``Column.wrap``)."""
HEADER_HEIGHT = 30
"""Two lines, so wrapped headers such as "Entry rating" show whole."""
VALIDATED_ROWS = 5000
"""Dropdowns cover this many rows below the header: room for the largest congress."""


def table_ref(table: Table, header_row: int, data_rows: int, width: int | None = None) -> str:
    first = table.anchor_column
    last = first + (width or len(table.columns)) - 1
    end_row = header_row + max(1, data_rows)
    return f"{get_column_letter(first)}{header_row}:{get_column_letter(last)}{end_row}"


def set_table_ref(ws: Worksheet, table: Table, ref: str, rows: int | None = None) -> None:
    """Point the Excel Table (and the print area) at ``ref``, creating it if the TD deleted
    it; ``rows``: how many rows it holds, when known (``print_ranges``)."""
    if table.printed:
        ws.print_area = print_ranges(ws.print_area, table, ref, rows)
    xl = ws.tables.get(table.name)
    if xl is None:
        xl = XLTable(displayName=table.name, ref=ref)
        xl.tableStyleInfo = TableStyleInfo(
            name="TableStyleLight9", showRowStripes=True, showColumnStripes=False
        )
        ws.add_table(xl)
    elif xl.ref == ref:
        return
    xl.ref = ref
    # Name the columns here: left empty, openpyxl would fetch ws[ref] on save,
    # creating a cell object for every cell of the table (200,000 for the TDListA).
    min_col, header_row, max_col, _ = range_boundaries(ref)
    xl.tableColumns = [
        TableColumn(id=i, name=str(ws.cell(row=header_row, column=col).value or f"Column{i}"))
        for i, col in enumerate(range(min_col, max_col + 1), start=1)
    ]
    xl.autoFilter = AutoFilter(ref=ref)


def format_table(ws: Worksheet, table: Table, header_row: int = 1) -> None:
    """Headers, widths, number formats, dropdowns and the Excel Table for an empty sheet."""
    for offset, column in enumerate(table.columns):
        index = table.anchor_column + offset
        letter = get_column_letter(index)
        cell = ws.cell(row=header_row, column=index, value=column.header)
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        ws.column_dimensions[letter].width = column.width
        if column.wrap:
            ws.column_dimensions[letter].alignment = WRAPPED
        validation = _typed_validation(column)
        if validation is not None:
            validation.add(f"{letter}{header_row + 1}:{letter}{header_row + VALIDATED_ROWS}")
            ws.add_data_validation(validation)
        if column.help:
            validation = DataValidation(showInputMessage=True, prompt=column.help[:255])
            validation.promptTitle = column.header[:32]
            validation.add(f"{letter}{header_row}")
            ws.add_data_validation(validation)
    ws.row_dimensions[header_row].height = HEADER_HEIGHT
    set_table_ref(ws, table, table_ref(table, header_row, 0), rows=0)


def _typed_validation(column: Column) -> DataValidation | None:
    """Excel's own check of what is typed in the column: a dropdown of its choices, or its
    range of numbers. A warning the TD may pass: the program warns again when it reads."""
    if column.choices:
        rule = {"type": "list", "formula1": f'"{",".join(column.choices)}"'}
        expected = f"one of: {', '.join(column.choices)}"
    elif column.bounds is not None:
        low, high = column.bounds
        rule = {"type": "decimal", "operator": "between", "formula1": f"{low:.15g}"}
        rule["formula2"] = f"{high:.15g}"
        expected = f"a number from {number_said(low)} to {number_said(high)}"
    else:
        return None
    return DataValidation(
        **rule,
        allow_blank=True,
        errorStyle="warning",
        showErrorMessage=True,
        errorTitle=column.header,
        error=f"Expected {expected}",
    )


PORTRAIT_WIDTH = 90
"""Printed columns up to this many characters wide fit a portrait page at full size."""


def printed_width(table: Table) -> float:
    """The width, in characters, of the columns a printout shows."""
    return sum(c.width for c in table.columns[: table.printed or len(table.columns)])


def is_wide(table: Table) -> bool:
    return printed_width(table) > PORTRAIT_WIDTH


def set_header(ws: Worksheet, title: str = "") -> None:
    """Event (or file name), sheet (the round) and date/time on top; page X of Y below."""
    ws.oddHeader.left.text = title.replace("&", "&&") if title else "&F"
    ws.oddHeader.center.text = "&A"
    ws.oddHeader.right.text = "&D &T"
    ws.oddFooter.center.text = "Page &P of &N"
    ws.oddFooter.right.text = None


def format_sheet(ws: Worksheet, freeze: str = "A2", title: str = "", *, wide: bool = True) -> None:
    """Frozen header, print titles and a fit-to-width page (landscape when ``wide``)."""
    ws.freeze_panes = freeze
    ws.print_title_rows = "1:1"
    ws.page_setup.orientation = "landscape" if wide else "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_LETTER
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.gridLines = True
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.5
    set_header(ws, title)


def number_format(kind: Kind, declared: str | None) -> str | None:
    if declared:
        return declared
    if kind is Kind.DATE:
        return "yyyy-mm-dd"
    return None
