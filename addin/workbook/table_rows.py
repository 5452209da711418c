"""Rows from a block of cell values and a block of values from rows: the pure part of a gateway.

Both gateways read a table the same tolerant way (columns found by header text, typed
parsing, Problems that name cells, the TD's extra columns kept in ``Row.extra``) and
write it the same way. Only how the cells are fetched and stored differs: openpyxl
walks a worksheet, xlwings moves one block per table to and from Excel. This module
holds everything in between, so the two front doors cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from addin.workbook import cells
from addin.workbook.cells import gate, quoted
from addin.workbook.gateway import Problem, Row, TableData, WriteRow
from addin.workbook.layout import SHEET_ORDER, Table, round_number_of


def norm(header: object) -> str:
    """Header text as compared: case and spacing ignored."""
    return " ".join(str(header).split()).casefold() if header is not None else ""


@cache
def get_column_letter(index: int) -> str:
    """Column ``index`` (1-based) as Excel names it: 1 -> A, 27 -> AA (openpyxl's, without
    importing openpyxl: a reading action can do without it)."""
    letters = ""
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def declared_last(table: Table) -> int:
    """The last column the layout declares for ``table`` (1-based)."""
    return table.anchor_column + len(table.columns) - 1


def header_map(header_cells: Sequence[object], table: Table, last: int) -> dict[int, str]:
    """Column index -> header text, from the table's first column to the first blank past ``last``.

    ``header_cells[0]`` is column A of the header row; cells past its end are blank.
    ``last`` is at least ``declared_last(table)`` (more when an Excel Table is wider).
    """
    headers: dict[int, str] = {}
    col = table.anchor_column
    while True:
        value = header_cells[col - 1] if col <= len(header_cells) else None
        if cells.is_blank(value):
            if col > last:
                break
        else:
            headers[col] = str(value).strip()
        col += 1
    return headers


def rows_from_block(
    table: Table,
    header_row: int,
    headers: dict[int, str],
    raw_rows: Iterable[Sequence[object]],
) -> TableData:
    """Typed rows, problems and notices for ``table``.

    ``raw_rows`` are the sheet rows below ``header_row``, each spanning the columns
    ``min(headers)`` to ``max(headers)``.
    """
    by_header = {norm(h): col for col, h in headers.items()}
    problems: list[Problem] = []
    positions: dict[str, int] = {}
    for column in table.columns:
        col = by_header.get(norm(column.header))
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
    first, width = min(headers), max(headers) - min(headers) + 1
    read = [
        (column, col - first, get_column_letter(col), column.kind in cells.NUMERIC)
        for column in table.columns
        if (col := positions.get(column.key)) is not None
    ]
    known_at = [col - first for col in known]
    extras_at = [(col - first, h) for col, h in extras.items()]
    rows: list[Row] = []
    notices: list[Problem] = []
    blank_rows: list[int] = []
    blank = cells.is_blank
    for number, given in enumerate(raw_rows, start=header_row + 1):
        raw = [*given[:width], *([None] * (width - len(given)))]
        if all(blank(raw[at]) for at in known_at):
            blank_rows.append(number)
            continue
        if blank_rows:
            notices += [Problem(table.sheet, "blank row skipped", f"{n}:{n}") for n in blank_rows]
            blank_rows = []
        row = Row(values={}, number=number)
        for column, at, letter, numeric in read:
            ref = f"{letter}{number}"
            row.cells[column.key] = ref
            value = raw[at]
            if numeric and type(value) is str and value.strip():  # not a Formula, an error
                notices.append(
                    Problem(table.sheet, f"number stored as text: {value!r}", ref, column.header)
                )
            try:
                row.values[column.key] = cells.parse(value, column)
            except cells.CellError as err:
                row.values[column.key] = None
                row.unread[column.key] = value
                problems.append(Problem(table.sheet, str(err), ref, column.header, unreadable=True))
        row.extra = {h: raw[at] for at, h in extras_at}
        rows.append(row)
    if table.unique:
        problems += duplicates(table, rows)
    return TableData(table, rows, problems, notices=notices)


def duplicates(table: Table, rows: list[Row]) -> list[Problem]:
    """A Problem for each row repeating an earlier row's ``table.unique`` value."""
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


# --- writing --------------------------------------------------------------------------


@dataclass(frozen=True)
class WriteLayout:
    """Where each column of a table goes when it is written."""

    positions: dict[str, int]
    """Column key -> sheet column."""
    headers: dict[int, str]
    """Every header cell after writing, by sheet column (declared columns the sheet
    lacked are added at the right)."""
    added: dict[int, str]
    """The header cells that must be written because the sheet lacked them."""
    extra_cols: dict[str, int]
    """The TD's own columns: header -> sheet column."""

    @property
    def first(self) -> int:
        return min(self.headers)

    @property
    def last(self) -> int:
        return max(self.headers)


def write_layout(table: Table, headers: dict[int, str]) -> WriteLayout:
    """Place every declared column: where its header is, else appended at the right."""
    headers = dict(headers)
    by_header = {norm(h): col for col, h in headers.items()}
    next_col = max(headers, default=table.anchor_column - 1) + 1
    positions: dict[str, int] = {}
    added: dict[int, str] = {}
    for column in table.columns:
        col = by_header.get(norm(column.header))
        if col is None:
            col = next_col
            next_col += 1
            headers[col] = column.header
            added[col] = column.header
        positions[column.key] = col
    taken = set(positions.values())
    extra_cols = {h: col for col, h in headers.items() if col not in taken}
    return WriteLayout(positions, headers, added, extra_cols)


def cell_value(table: Table, row: WriteRow, key: str) -> object:
    """The value to write for ``key``: rendered, or as the TD typed it if it was unreadable
    and the action left it alone."""
    values = row.values if isinstance(row, Row) else row
    value = values.get(key)
    if value is None and isinstance(row, Row) and key in row.unread:
        return row.unread[key]
    return cells.render(value, table.column(key))


def render_row(
    table: Table, row: WriteRow, layout: WriteLayout, first: int, last: int, number: int
) -> list[object]:
    """Sheet row ``number``'s values for columns ``first``..``last`` (None: nothing), each
    through the cell gate (``cell_gate.Text`` marks formula-like text)."""
    line: list[object] = [None] * (last - first + 1)
    for key, col in layout.positions.items():
        where = f"{table.sheet}!{get_column_letter(col)}{number} ({table.column(key).header})"
        line[col - first] = gate(cell_value(table, row, key), where)
    if isinstance(row, Row):
        for header, value in row.extra.items():
            at = layout.extra_cols.get(header)
            if at is not None:
                where = f"{table.sheet}!{get_column_letter(at)}{number} ({header})"
                line[at - first] = gate(value, where)
    return line


def block_for_rows(
    table: Table,
    rows: Sequence[WriteRow],
    layout: WriteLayout,
    first: int | None = None,
    top: int = 2,
) -> list[list[object]]:
    """The data rows as one block, columns ``first`` (default: the layout's first) to last;
    ``top`` is the sheet row of the first (for messages)."""
    start = layout.first if first is None else first
    return [
        render_row(table, row, layout, start, layout.last, top + i) for i, row in enumerate(rows)
    ]


def sheet_position(existing: list[str], sheet: str) -> int:
    """Where a new sheet goes (0-based): rounds after Requests in round order, fixed
    sheets in ``SHEET_ORDER``, anything else at the end."""
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


LINE_HEIGHT = 15.0
"""Points per line of text in the default font (Calibri 11): a row's default height."""
CHARACTERS_PER_WIDTH = 1.1
"""Characters of ordinary text a unit of column width holds (the unit is one digit '0')."""


def wrapped_height(table: Table, values: Sequence[object]) -> float | None:
    """The height, in points, of a row whose ``values`` wrap in the table's ``wrap`` columns;
    None when one line holds them. Written with the row: neither Excel nor LibreOffice
    measures a row again when it opens a file, so a wrapped message would overlap the next."""
    lines = 1
    for column, value in zip(table.columns, values, strict=False):
        if column.wrap and isinstance(value, str) and value:
            per_line = max(1, int(column.width * CHARACTERS_PER_WIDTH))
            lines = max(lines, sum(-(-len(part) // per_line) or 1 for part in value.split("\n")))
    return LINE_HEIGHT * lines if lines > 1 else None


# --- where a sheet's data ends ------------------------------------------------------------
# Where a sheet's data really ends, so reading costs what the data costs.
#
# A single stray value far away (say in ``AD1048576``) makes a spreadsheet's "used
# range" a million rows long; walking it took minutes and gigabytes. The data block
# here ends at the first gap of more than ``GAP_ROWS`` blank rows (``GAP_COLUMNS``
# blank columns); anything beyond is a stray the TD is told about, by cell, and is
# never walked. Merged cells inside a table are named by range: each value of a
# table needs a cell of its own.


if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

GAP_ROWS = 1000
GAP_COLUMNS = 100
STRAYS_NAMED = 3


@dataclass(frozen=True)
class Extent:
    last_row: int
    last_column: int
    strays: list[tuple[int, int, object]]
    """(row, column, value) of each filled cell beyond the data block."""


def block_end(positions: Iterable[int], gap: int) -> int:
    """The last position before the first gap of more than ``gap`` empty ones."""
    end = 0
    for position in sorted(set(positions)):
        if position - end > gap + 1:
            break
        end = position
    return end


def measure(ws: Worksheet) -> Extent:
    """The sheet's data block and its strays, from the cells that hold a value."""
    filled = [key for key, cell in ws._cells.items() if cell.value is not None]
    rows = {r for r, _ in filled}
    columns = {c for _, c in filled}
    last_row, last_column = block_end(rows, GAP_ROWS), block_end(columns, GAP_COLUMNS)
    if max(rows, default=0) <= last_row and max(columns, default=0) <= last_column:
        return Extent(last_row, last_column, [])
    return measure_cells([(r, c, ws._cells[r, c].value) for r, c in filled])


def measure_block(values: Sequence[Sequence[object]]) -> Extent:
    """The same for a block of values read from A1 (blank strings count as empty)."""
    return measure_cells(
        [
            (r, c, v)
            for r, row in enumerate(values, start=1)
            for c, v in enumerate(row, start=1)
            if v is not None and v != ""
        ]
    )


def measure_cells(filled: Sequence[tuple[int, int, object]]) -> Extent:
    last_row = block_end((r for r, _, _ in filled), GAP_ROWS)
    last_column = block_end((c for _, c, _ in filled), GAP_COLUMNS)
    strays = sorted((r, c, v) for r, c, v in filled if r > last_row or c > last_column)
    return Extent(last_row, last_column, strays)


def stray_problems(sheet: str, found: Extent) -> list[Problem]:
    problems = [
        Problem(
            sheet,
            f"a value far outside the sheet's data ({quoted(str(value))}), which would make "
            "every reader walk to it; delete it or move it next to the data",
            f"{get_column_letter(c)}{r}",
        )
        for r, c, value in found.strays[:STRAYS_NAMED]
    ]
    if len(found.strays) > STRAYS_NAMED:
        problems.append(
            Problem(sheet, f"{len(found.strays) - STRAYS_NAMED} more value(s) far outside the data")
        )
    return problems


def merged_problems(ws: Worksheet, top: int, bottom: int, first: int, last: int) -> list[Problem]:
    """Merged ranges overlapping rows ``top``..``bottom``, columns ``first``..``last``."""
    return [
        Problem(
            ws.title,
            "merged cells in a table; unmerge them so that each value has a cell of its own",
            merged.coord,
        )
        for merged in ws.merged_cells.ranges
        if merged.min_row <= bottom
        and merged.max_row >= top
        and merged.min_col <= last
        and merged.max_col >= first
    ]
