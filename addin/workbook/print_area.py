"""Which ranges a sheet prints: each printed table's leading columns, left to right.

Shared by every writer (openpyxl, xlwings, the file store's sheet edits), and free of
openpyxl so that a desk action need not import it.
"""

from __future__ import annotations

import re

from addin.workbook.layout import Table
from addin.workbook.table_rows import get_column_letter

_RANGE = re.compile(r"\$?([A-Z]{1,3})\$?([0-9]+):\$?([A-Z]{1,3})\$?([0-9]+)")


def column_index(letters: str) -> int:
    """``A`` -> 1, ``AA`` -> 27 (openpyxl's ``column_index_from_string``)."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def bounds(ref: str) -> tuple[int, int, int, int]:
    """(first column, first row, last column, last row) of ``A1:D9`` (``$`` allowed);
    ValueError for anything else."""
    found = _RANGE.fullmatch(ref.strip())
    if found is None:
        raise ValueError(f"not a range: {ref!r}")
    a, r1, b, r2 = found.groups()
    return column_index(a), int(r1), column_index(b), int(r2)


def ranges(area: str | None) -> list[str]:
    """The ranges of a print area as Excel or openpyxl say it ("'Round 1'!$A$1:$F$9,...")."""
    found = []
    for part in (area or "").split(","):
        cells = part.rsplit("!", 1)[-1].replace("$", "").strip()
        if re.fullmatch(r"[A-Z]{1,3}[0-9]+:[A-Z]{1,3}[0-9]+", cells):
            found.append(cells)
    return found


def print_ranges(current: str | None, table: Table, ref: str, rows: int | None) -> list[str]:
    """A sheet's print ranges once ``table`` lies at ``ref`` with ``rows`` rows (None: not
    known, some): its printed columns replace the range it had (the one starting in its
    column), left to right; a table ``printed_beside`` is left out while it has no rows."""
    assert table.printed
    left, top, _, bottom = bounds(ref)
    kept = [r for r in ranges(current) if bounds(r)[0] != left]
    if not (table.printed_beside and rows == 0):
        last = get_column_letter(table.anchor_column + table.printed - 1)
        kept.append(f"{get_column_letter(left)}{top}:{last}{bottom}")
    return sorted(kept, key=lambda r: bounds(r)[0])


def defined_name(sheet: str, cells: list[str]) -> str:
    """The print area's defined-name text, as openpyxl writes it."""
    quoted = "'" + sheet.replace("'", "''") + "'"
    parts = []
    for cell_range in cells:
        a, r1, b, r2 = bounds(cell_range)
        parts.append(f"{quoted}!${get_column_letter(a)}${r1}:${get_column_letter(b)}${r2}")
    return ",".join(parts)
