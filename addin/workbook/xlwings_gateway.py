"""The storage of the workbook open in Excel, through xlwings: a window's storage
(``addin.workbook.window_storage``: blocks read once, writes queued until ``commit``)
whose calls are Excel's."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from openpyxl.utils.cell import range_boundaries

from addin.core.text_input import formula_like
from addin.workbook import styling
from addin.workbook.cells import Text, error_value
from addin.workbook.layout import Table
from addin.workbook.package import print_ranges
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

if TYPE_CHECKING:
    import xlwings as xw

TABLE_STYLE = "TableStyleLight9"
HEADER_COLOR = "#" + str(styling.HEADER_FILL.fgColor.rgb)[-6:]
POINTS_PER_CHARACTER = 6.0
"""Remote (Office.js) column widths are in points, desktop widths in characters."""


class XlwingsGateway(WindowStorage):
    """The workbook open in Excel (``book``: an xlwings Book)."""

    def __init__(self, book: xw.Book) -> None:
        super().__init__()
        self.book = book

    @property
    def source(self) -> str:
        return str(self.book.name)

    @property
    def path(self) -> Path | None:
        """The workbook's file, when it has one on this machine (outputs never go over it)."""
        return local_file(self.book)

    def _sheet_list(self) -> list[str]:
        return [sheet.name for sheet in self.book.sheets]

    def _sheet(self, name: str) -> xw.Sheet:
        ws = self._sheets.get(name)
        if ws is None:
            ws = self._sheets[name] = self.book.sheets[name]
        return ws

    def _used_corner(self, sheet: str) -> tuple[int, int]:
        """The used range's last row and column (1-based)."""
        last = self._sheet(sheet).used_range.last_cell
        return int(last.row), int(last.column)

    def _read_block(self, sheet: str, top: int, bottom: int, width: int) -> list[list[object]]:
        """Rows ``top``..``bottom`` of columns 1..``width``, in one Excel call; error values
        (``#N/A``) come as ``ErrorValue``, not as blanks (xlwings' default)."""
        rng = self._sheet(sheet).range((top, 1), (bottom, width))
        block = rng.options(ndim=2, err_to_str=True).value
        return [[error_value(v) if isinstance(v, str) else v for v in row] for row in block]

    def _table_refs(self, sheet: str) -> dict[str, str]:
        """The sheet's Excel Tables: name -> A1 range (such as ``A1:K17``)."""
        refs = self._tables.get(sheet)
        if refs is None:
            ws = self._sheet(sheet)
            refs = self._tables[sheet] = {
                t.name: str(t.range.address).replace("$", "") for t in ws.tables
            }
        return refs

    def _write(self, sheet: str, row: int, column: int, block: list[list[object]]) -> None:
        """Queue ``block``; text a spreadsheet would take as a formula goes to Excel with
        Excel's text prefix (an apostrophe, not part of the value)."""
        to_excel = [[_as_typed(v) for v in line] for line in block]
        self.changes.append(WriteBlock(sheet, row, column, to_excel))
        self._grid(sheet).put(row, column, [[_plain(v) for v in line] for line in block])

    def _apply(self, change: Change) -> None:
        _apply(self, change)


def _plain(value: object) -> object:
    return value.value if isinstance(value, Text) else value


def _as_typed(value: object) -> object:
    """What Excel must be given so that it stores ``value`` and not a formula."""
    if isinstance(value, Text):
        return "'" + value.value
    if isinstance(value, str) and formula_like(value):
        return "'" + value  # a text cell read back (a formula would have come as its value)
    return value


XL_CELL_TYPE_VISIBLE = 12


def visible_address(rng: xw.Range) -> str:
    """The selection's address without the rows a filter hides (a TD who filters the
    TDListA and selects a block means the members shown, not those between them)."""
    if sys.platform.startswith("win") and not _is_remote(rng.sheet.book):
        with contextlib.suppress(Exception):  # nothing visible raises: keep the plain address
            return str(rng.api.SpecialCells(XL_CELL_TYPE_VISIBLE).Address)
    return str(rng.address)


def _unused_overlap(a: str, b: str) -> bool:
    a1, a2, a3, a4 = range_boundaries(a)
    b1, b2, b3, b4 = range_boundaries(b)
    return not (a3 < b1 or b3 < a1 or a4 < b2 or b4 < a2)


def local_file(book: xw.Book) -> Path | None:
    """A book's file, when it has one on this machine."""
    try:
        path = Path(str(book.fullname))
    except Exception:  # the remote engine and unsaved books have no local file
        return None
    return path if path.is_file() else None


def _is_remote(book: xw.Book) -> bool:
    return book.app.engine.name == "remote"


def _apply(gw: XlwingsGateway, change: Change) -> None:
    book = gw.book
    if isinstance(change, AddSheet):
        sheets = book.sheets
        if change.index == 0:
            gw._sheets[change.sheet] = sheets.add(change.sheet, before=sheets[0])
        else:
            gw._sheets[change.sheet] = sheets.add(change.sheet, after=sheets[change.index - 1])
    elif isinstance(change, RemoveSheet):
        gw._sheet(change.sheet).delete()
        gw._sheets.pop(change.sheet, None)
    elif isinstance(change, WriteBlock):
        ws = gw._sheet(change.sheet)
        height, width = len(change.values), max(len(line) for line in change.values)
        end = (change.row + height - 1, change.column + width - 1)
        ws.range((change.row, change.column), end).value = change.values
    elif isinstance(change, NumberFormat):
        ws = gw._sheet(change.sheet)
        end = (change.row + change.rows - 1, change.column)
        ws.range((change.row, change.column), end).number_format = change.format
    elif isinstance(change, ResizeTable):
        ws = gw._sheet(change.table.sheet)
        ws.tables[change.table.name].resize(ws.range(change.ref))
        _print_area(ws, change.table, change.ref, change.rows)
    elif isinstance(change, CreateTable):
        ws = gw._sheet(change.table.sheet)
        _create_table(ws, change.table, change.ref, change.rows)
        _page_setup(ws, change.table, gw.event_name())


def _print_area(ws: xw.Sheet, table: Table, ref: str, rows: int | None) -> None:
    """Print the table's leading columns only, as the template does (Players), beside the
    sheet's other printed tables (``styling.print_ranges``)."""
    if table.printed:
        ranges = print_ranges(ws.page_setup.print_area, table, ref, rows)
        ws.page_setup.print_area = ",".join(ranges) if ranges else None


def _create_table(ws: xw.Sheet, table: Table, ref: str, rows: int | None) -> None:
    """The Excel Table with the template's look, for a sheet the action just made."""
    left, top, right, _ = (int(v) for v in range_boundaries(ref))
    ws.tables.add(source=ws.range(ref), name=table.name, table_style_name=TABLE_STYLE)
    header = ws.range((top, left), (top, right))
    header.font.bold = True
    header.color = HEADER_COLOR
    header.wrap_text = True
    scale = POINTS_PER_CHARACTER if _is_remote(ws.book) else 1.0
    for offset, column in enumerate(table.columns):
        col = table.anchor_column + offset
        ws.range((top, col)).column_width = column.width * scale
        if column.choices:
            cells_below = ws.range((top + 1, col), (top + styling.VALIDATED_ROWS, col))
            cells_below.data_validation.set_list(list(column.choices), in_cell_dropdown=True)
            _warn_only(cells_below)
    _print_area(ws, table, ref, rows)


def _page_setup(ws: xw.Sheet, table: Table, title: str) -> None:
    """The template's print setup for a sheet made in Excel (a new Round sheet), through
    Excel's own PageSetup on Windows; xlwings has no portable page setup beyond the area."""
    if not sys.platform.startswith("win") or _is_remote(ws.book):
        return
    with contextlib.suppress(Exception):  # a nicety must never fail an action
        setup = ws.api.PageSetup
        setup.PrintTitleRows = "$1:$1"
        setup.Orientation = 2 if styling.is_wide(table) else 1  # xlLandscape, xlPortrait
        setup.Zoom = False
        setup.FitToPagesWide = 1
        setup.FitToPagesTall = False
        setup.PrintGridlines = True
        setup.CenterHorizontally = True
        setup.LeftHeader = title.replace("&", "&&") if title else "&F"
        setup.CenterHeader = "&A"
        setup.RightHeader = "&D &T"
        setup.CenterFooter = "Page &P of &N"


def _warn_only(rng: xw.Range) -> None:
    """Let the TD type past a dropdown (W for White wins), as the template does.

    xlwings sets list validations with Excel's default "stop" style and has no
    portable way to change it; on Windows the COM object can, elsewhere the
    dropdown stays strict (docs/excel-install.md says so).
    """
    if not sys.platform.startswith("win") or _is_remote(rng.sheet.book):
        return
    with contextlib.suppress(Exception):  # a nicety must never fail an action
        rng.api.Validation.AlertStyle = 2  # xlValidAlertWarning
