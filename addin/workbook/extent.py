"""Where a sheet's data really ends, so reading costs what the data costs.

A single stray value far away (say in ``AD1048576``) makes a spreadsheet's "used
range" a million rows long; walking it took minutes and gigabytes. The data block
here ends at the first gap of more than ``GAP_ROWS`` blank rows (``GAP_COLUMNS``
blank columns); anything beyond is a stray the TD is told about, by cell, and is
never walked. Merged cells inside a table are named by range: each value of a
table needs a cell of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from addin.workbook.cell_gate import shown
from addin.workbook.gateway import Problem
from addin.workbook.table_rows import get_column_letter

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
            f"a value far outside the sheet's data ({shown(str(value))}), which would make "
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
