"""The gateway for the workbook open in Excel, through xlwings.

Excel is slow per call and fast per block, so each sheet is read once as one block
(from A1 to the used range's last cell) and each table is written as one block. The
number of Excel calls an action makes depends on how many tables it touches, never
on how many players there are.

Nothing reaches Excel until ``commit()``: writes are queued (and mirrored in the
blocks already read, so a later read sees them), and the Excel front door commits
only after the action succeeded. An action that fails or is not confirmed leaves the
workbook exactly as it was, like the file gateway that never saves.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import range_boundaries

from addin.workbook import cells, styling, table_rows
from addin.workbook.cells import Text, error_value, formula_like, gate
from addin.workbook.gateway import (
    LogEntry,
    Problem,
    Selection,
    TableData,
    WriteRow,
    selected_rows,
)
from addin.workbook.layout import LOG, Table
from addin.workbook.package import print_ranges

if TYPE_CHECKING:
    import xlwings as xw

TABLE_STYLE = "TableStyleLight9"
HEADER_COLOR = "#" + str(styling.HEADER_FILL.fgColor.rgb)[-6:]
CELLS_PER_READ = 2_000_000
"""A sheet is read in one block when its used range is smaller (the full TDListA is 22,410
rows of 9 columns: one read); a longer one in blocks of about this many cells, until its
data ends, so a stray value in row 1,048,576 costs one block, not the whole sheet."""
MAX_COLUMNS = 256
"""Columns read at most (no table is this wide; a stray in column XFD is not walked)."""
POINTS_PER_CHARACTER = 6.0
"""Remote (Office.js) column widths are in points, desktop widths in characters."""


class Grid:
    """A sheet's values from A1, as read in one block; pending writes are mirrored in it."""

    def __init__(self, values: list[list[object]]) -> None:
        self.values = values

    @property
    def height(self) -> int:
        return len(self.values)

    def row(self, r: int) -> list[object]:
        return self.values[r - 1] if 0 < r <= len(self.values) else []

    def get(self, r: int, c: int) -> object:
        row = self.row(r)
        return row[c - 1] if 0 < c <= len(row) else None

    def last_filled(self, first: int, last: int, *, below: int) -> int:
        """The last row under ``below`` with a value in columns ``first``..``last``."""
        for r in range(self.height, below, -1):
            if any(not cells.is_blank(v) for v in self.row(r)[first - 1 : last]):
                return r
        return below

    def put(self, r: int, c: int, block: Sequence[Sequence[object]]) -> None:
        for i, line in enumerate(block):
            while len(self.values) < r + i:
                self.values.append([])
            target = self.values[r + i - 1]
            end = c - 1 + len(line)
            if len(target) < end:
                target.extend([None] * (end - len(target)))
            target[c - 1 : end] = list(line)


# --- queued changes, applied in order by commit() ------------------------------------


@dataclass(frozen=True)
class AddSheet:
    sheet: str
    index: int
    """0-based position among the sheets at the time it is applied."""


@dataclass(frozen=True)
class WriteBlock:
    sheet: str
    row: int
    column: int
    values: list[list[object]]


@dataclass(frozen=True)
class NumberFormat:
    sheet: str
    row: int
    column: int
    rows: int
    format: str


@dataclass(frozen=True)
class CreateTable:
    """A new Excel Table with the layout's look: header style, widths, dropdowns."""

    table: Table
    ref: str
    rows: int | None = None


@dataclass(frozen=True)
class ResizeTable:
    table: Table
    ref: str
    rows: int | None = None
    """How many rows the table holds (its print range follows: ``styling.print_ranges``)."""


@dataclass(frozen=True)
class RemoveSheet:
    sheet: str


Change = AddSheet | WriteBlock | NumberFormat | CreateTable | ResizeTable | RemoveSheet


class XlwingsGateway:
    def __init__(
        self,
        book: xw.Book,
        *,
        confirm: Callable[[str], bool] | None = None,
        alert: Callable[[str], None] | None = None,
    ) -> None:
        self.book = book
        self._confirm = confirm or (lambda message: False)
        self._alert = alert or (lambda message: None)
        self.changes: list[Change] = []
        """What ``commit()`` will do, in order (inspectable before it is applied)."""
        self._names: list[str] | None = None
        self._sheets: dict[str, xw.Sheet] = {}
        self._grids: dict[str, Grid] = {}
        self._tables: dict[str, dict[str, str]] = {}
        self._problems: dict[str, list[Problem]] = {}
        """Each sheet's strays, found while reading it."""

    @property
    def source(self) -> str:
        return str(self.book.name)

    @property
    def path(self) -> Path | None:
        """The workbook's file, when it has one on this machine (outputs never go over it)."""
        return local_file(self.book)

    # --- reading ------------------------------------------------------------------------

    def sheet_names(self) -> list[str]:
        if self._names is None:
            self._names = [sheet.name for sheet in self.book.sheets]
        return list(self._names)

    def selection(self) -> Selection | None:
        """The selected range's sheet and rows, read from Excel with one call or two."""
        try:
            rng = self.book.selection
            if rng is None:
                raise LookupError("nothing is selected")
            sheet, address = str(rng.sheet.name), visible_address(rng)
        except Exception:  # a multi-area selection on the remote engine, a shape, nothing
            if not _is_remote(self.book):
                return None
            snapshot = self.book.api["book"]
            sheet = self.book.sheets[int(snapshot["active_sheet_index"])].name
            address = str(snapshot.get("selection") or "")
        rows = selected_rows(address)
        return Selection(sheet, rows) if rows else None

    def _sheet(self, name: str) -> xw.Sheet:
        ws = self._sheets.get(name)
        if ws is None:
            ws = self._sheets[name] = self.book.sheets[name]
        return ws

    def _grid(self, sheet: str) -> Grid:
        """The sheet's values, read from Excel once as one block (a few blocks when the used
        range is larger than ``CELLS_PER_READ``), cut at the end of its data."""
        grid = self._grids.get(sheet)
        if grid is None:
            used_height, used_width = self._used_corner(sheet)
            height, width = used_height, min(used_width, MAX_COLUMNS)
            values: list[list[object]] = []
            while len(values) < height:
                top = len(values) + 1
                bottom = min(height, top + max(1000, CELLS_PER_READ // width) - 1)
                values += self._read_block(sheet, top, bottom, width)
                if len(values) - table_rows.measure_block(values).last_row > table_rows.GAP_ROWS:
                    break
            found = table_rows.measure_block(values)
            problems = table_rows.stray_problems(sheet, found)
            if not problems and (len(values) < height or width < used_width):
                problems.append(_used_range_problem(sheet, found, used_height, used_width))
            self._problems[sheet] = problems
            grid = self._grids[sheet] = Grid(
                [row[: found.last_column] for row in values[: found.last_row]]
            )
        return grid

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

    def _header(self, table: Table) -> tuple[int, int]:
        """The header row and the last column worth looking at, as the Excel Table says."""
        ref = self._table_refs(table.sheet).get(table.name)
        last = table_rows.declared_last(table)
        if ref is None:
            return 1, last
        _, top, right, _ = range_boundaries(ref)
        return int(top), max(last, int(right))

    def read_table(self, table: Table) -> TableData:
        if table.sheet not in self.sheet_names():
            return TableData(table, [], [Problem(table.sheet, "sheet is missing")], present=False)
        grid = self._grid(table.sheet)
        header_row, last = self._header(table)
        headers = table_rows.header_map(grid.row(header_row), table, last)
        if not headers:
            data = table_rows.rows_from_block(table, header_row, headers, [])
        else:
            first, end = min(headers), max(headers)
            raw = (grid.row(r)[first - 1 : end] for r in range(header_row + 1, grid.height + 1))
            data = table_rows.rows_from_block(table, header_row, headers, raw)
        data.problems += self._problems.get(table.sheet, [])
        return data

    def content_keys(self, table: Table) -> Iterator[str]:
        """The key under which what ``read_table(table)`` gives may be kept (``read_cache``):
        the sheet's values as Excel gave them (pickled: a ``#N/A`` error is not the text
        "#N/A"), its Tables, its strays and the table's declaration. The values are read
        anyway; hashing them costs a tenth of making the member index from them again."""
        if self.changes or table.sheet not in self.sheet_names():
            return
        import pickle

        from addin.workbook import read_cache

        grid = self._grid(table.sheet)
        content = pickle.dumps(
            (
                "xlwings",
                repr(table),
                self._header(table),
                self._table_refs(table.sheet),
                [str(p) for p in self._problems.get(table.sheet, [])],
                grid.values,
            ),
            protocol=pickle.HIGHEST_PROTOCOL,
        )
        key = read_cache.digest(content)
        if key is not None:
            yield key

    def event_name(self) -> str:
        """The Tournament sheet's event name (B2), for printed headers."""
        if "Tournament" not in self.sheet_names():
            return ""
        value = self._grid("Tournament").get(2, 2)
        return "" if cells.is_blank(value) else str(value)

    # --- writing ------------------------------------------------------------------------

    def _ensure_sheet(self, sheet: str) -> None:
        names = self.sheet_names()
        if sheet in names:
            return
        index = table_rows.sheet_position(names, sheet)
        self.changes.append(AddSheet(sheet, index))
        names.insert(index, sheet)
        self._names = names
        self._grids[sheet] = Grid([])
        self._tables[sheet] = {}

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        self._ensure_sheet(table.sheet)
        grid = self._grid(table.sheet)
        refs = self._table_refs(table.sheet)
        header_row, last = self._header(table)
        headers = table_rows.header_map(grid.row(header_row), table, last)
        layout = table_rows.write_layout(table, headers)
        first, end = layout.first, layout.last

        old = grid.last_filled(first, end, below=header_row) - header_row
        data = table_rows.block_for_rows(table, rows, layout, top=header_row + 1)
        data += [[None] * (end - first + 1) for _ in range(max(0, old - len(rows)))]
        block = [[layout.headers.get(c, grid.get(header_row, c)) for c in range(first, end + 1)]]
        for i, line in enumerate(data):
            r = header_row + 1 + i
            gaps = {c for c in range(first, end + 1) if c not in layout.headers}
            block.append([grid.get(r, c) if c in gaps else v for c, v in enumerate(line, first)])
        self._write(table.sheet, header_row, first, block)

        if rows:
            for key, col in layout.positions.items():
                column = table.column(key)
                fmt = styling.number_format(column.kind, column.number_format)
                if fmt:
                    self.changes.append(
                        NumberFormat(table.sheet, header_row + 1, col, len(rows), fmt)
                    )
        width = end - table.anchor_column + 1
        ref = styling.table_ref(table, header_row, len(rows), width)
        self._place_table(table, ref, refs, len(rows))

    def _place_table(
        self, table: Table, ref: str, refs: dict[str, str], rows: int | None = None
    ) -> None:
        """Resize the Excel Table, or create it when the sheet has none there (a table
        printed only with rows is resized anyway: its print range follows its rows)."""
        if table.name in refs:
            if refs[table.name] != ref or table.printed_beside:
                self.changes.append(ResizeTable(table, ref, rows))
        elif not any(_overlap(ref, other) for other in refs.values()):
            self.changes.append(CreateTable(table, ref, rows))
        else:
            return
        refs[table.name] = ref

    def remove_sheet(self, sheet: str) -> None:
        if sheet not in self.sheet_names():
            return
        self.changes.append(RemoveSheet(sheet))
        self._names = [name for name in self.sheet_names() if name != sheet]
        self._grids.pop(sheet, None)
        self._tables.pop(sheet, None)
        self._sheets.pop(sheet, None)

    def append_log(self, entries: Sequence[LogEntry]) -> None:
        if not entries:
            return
        self._ensure_sheet(LOG.sheet)
        grid = self._grid(LOG.sheet)
        refs = self._table_refs(LOG.sheet)
        header_row, _ = self._header(LOG)
        anchor = LOG.anchor_column
        if cells.is_blank(grid.get(header_row, anchor)):
            self._write(LOG.sheet, header_row, anchor, [list(LOG.headers)])
        last = grid.last_filled(anchor, anchor, below=header_row)
        lines: list[list[object]] = [
            [
                gate(v, f"{LOG.sheet}!{get_column_letter(anchor + i)}{last + 1 + n}")
                for i, v in enumerate((e.timestamp, e.level, e.action, e.message))
            ]
            for n, e in enumerate(entries)
        ]
        self._write(LOG.sheet, last + 1, anchor, lines)
        for offset, column in enumerate(LOG.columns):
            if column.number_format:
                self.changes.append(
                    NumberFormat(
                        LOG.sheet, last + 1, anchor + offset, len(entries), column.number_format
                    )
                )
        count = last + len(entries) - header_row
        self._place_table(LOG, styling.table_ref(LOG, header_row, count), refs)

    def _write(self, sheet: str, row: int, column: int, block: list[list[object]]) -> None:
        """Queue ``block``; text a spreadsheet would take as a formula goes to Excel with
        Excel's text prefix (an apostrophe, not part of the value)."""
        to_excel = [[_as_typed(v) for v in line] for line in block]
        self.changes.append(WriteBlock(sheet, row, column, to_excel))
        self._grid(sheet).put(row, column, [[_plain(v) for v in line] for line in block])

    def alert(self, message: str) -> None:
        self._alert(message)

    def confirm(self, message: str) -> bool:
        return self._confirm(message)

    # --- applying -----------------------------------------------------------------------

    def commit(self) -> None:
        """Apply every queued change to the workbook, each as one Excel call or a few."""
        changes, self.changes = self.changes, []
        self._sheets.clear()  # sheets are added and removed: look each up afresh
        for change in changes:
            _apply(self, change)


def _used_range_problem(sheet: str, found: table_rows.Extent, row: int, column: int) -> Problem:
    """The used range runs far past the data, though no value was seen there."""
    corner = f"{get_column_letter(column)}{row}"
    return Problem(
        sheet,
        f"the sheet's used range reaches {corner}, far beyond its data (row {found.last_row}); "
        "delete the rows and columns past the data",
        corner,
    )


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


def _overlap(a: str, b: str) -> bool:
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
