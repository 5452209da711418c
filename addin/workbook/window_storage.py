"""The workbook open in a spreadsheet window, read and written in blocks: what Excel's
storage (``XlwingsGateway``, through xlwings) and Calc's (``addin.calc.uno_gateway``,
through UNO) share.

A window is slow per call and fast per block, so each sheet is read once as one block
(from A1 to the used range's last cell) and each table is written as one block. The number
of calls an action makes depends on how many tables it touches, never on how many players
there are.

Nothing reaches the window until ``commit()``: writes are queued (and mirrored in the
blocks already read, so a later read sees them), and the store commits only after the
action succeeded. An action that fails or is not confirmed leaves the workbook exactly as it
was, like the file storage that never saves.

Each window's storage gives the primitives: its sheets (``_sheet_list``, ``_used_corner``,
``_read_block``), its Tables (``_table_refs``), how a queued block is written (``_write``)
and how each queued change is made (``_apply``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import range_boundaries

from addin.workbook import cells, styling, table_rows
from addin.workbook.cells import gate
from addin.workbook.gateway import LogEntry, Problem, TableData, WriteRow
from addin.workbook.layout import LOG, Table

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


class WindowStorage:
    """The tables of a workbook open in a window: the queue and the blocks; the window's
    own calls are its subclass's."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        """What ``commit()`` will do, in order (inspectable before it is applied)."""
        self._names: list[str] | None = None
        self._sheets: dict[str, Any] = {}
        self._grids: dict[str, Grid] = {}
        self._tables: dict[str, dict[str, str]] = {}
        self._problems: dict[str, list[Problem]] = {}
        """Each sheet's strays, found while reading it."""

    # --- what each window gives ---------------------------------------------------------

    @property
    def source(self) -> str:
        raise NotImplementedError

    @property
    def path(self) -> Path | None:
        raise NotImplementedError

    def _sheet_list(self) -> list[str]:
        """The sheets' names, in order, as the window has them."""
        raise NotImplementedError

    def _sheet(self, name: str) -> Any:
        raise NotImplementedError

    def _used_corner(self, sheet: str) -> tuple[int, int]:
        """The used range's last row and column (1-based)."""
        raise NotImplementedError

    def _read_block(self, sheet: str, top: int, bottom: int, width: int) -> list[list[object]]:
        """Rows ``top``..``bottom`` of columns 1..``width``, in one call."""
        raise NotImplementedError

    def _table_refs(self, sheet: str) -> dict[str, str]:
        """The sheet's Tables: name -> A1 range (such as ``A1:K17``)."""
        raise NotImplementedError

    def _write(self, sheet: str, row: int, column: int, block: list[list[object]]) -> None:
        """Queue ``block`` (and mirror it in the sheet's grid)."""
        raise NotImplementedError

    def _apply(self, change: Change) -> None:
        """Make one queued change in the window."""
        raise NotImplementedError

    # --- reading ------------------------------------------------------------------------

    def sheet_names(self) -> list[str]:
        if self._names is None:
            self._names = self._sheet_list()
        return list(self._names)

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
                self.__class__.__name__,
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

    # --- applying -----------------------------------------------------------------------

    def commit(self) -> None:
        """Apply every queued change to the workbook, each as one call or a few."""
        changes, self.changes = self.changes, []
        self._sheets.clear()  # sheets are added and removed: look each up afresh
        for change in changes:
            self._apply(change)


def _used_range_problem(sheet: str, found: table_rows.Extent, row: int, column: int) -> Problem:
    """The used range runs far past the data, though no value was seen there."""
    corner = f"{get_column_letter(column)}{row}"
    return Problem(
        sheet,
        f"the sheet's used range reaches {corner}, far beyond its data (row {found.last_row}); "
        "delete the rows and columns past the data",
        corner,
    )


def _overlap(a: str, b: str) -> bool:
    a1, a2, a3, a4 = range_boundaries(a)
    b1, b2, b3, b4 = range_boundaries(b)
    return not (a3 < b1 or b3 < a1 or a4 < b2 or b4 < a2)
