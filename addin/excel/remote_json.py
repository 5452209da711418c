"""An .xlsx file as the JSON book that xlwings' remote engine takes (``xw.Book(json=...)``).

The remote engine runs xlwings' real Range/Sheet code without Excel: it reads from
this snapshot and records every change as an action in ``book.json()["actions"]``.
That lets the Excel entry points run on Linux, in tests, on a real tournament
workbook. The shape follows what xlwings' Office.js client sends: each sheet's
values from A1 as a rectangle (blank cells ``""``, dates as ISO strings), its
Excel Tables with their addresses, and the book's name and active sheet.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import range_boundaries
from openpyxl.worksheet.worksheet import Worksheet

CLIENT = "Office.js"
"""The client whose feature set the snapshot claims (tables, validation, formats)."""


def cell_json(value: object) -> object:
    """A cell value as the client sends it."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.isoformat(timespec="milliseconds") + "Z"
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time()).isoformat(timespec="milliseconds") + "Z"
    if isinstance(value, dt.time):
        return value.isoformat()
    return value


def _table_json(ref: str, name: str, style: str) -> dict[str, Any]:
    left, top, right, bottom = (int(v) for v in range_boundaries(ref))
    first, last = get_column_letter(left), get_column_letter(right)
    return {
        "name": name,
        "range_address": f"{first}{top}:{last}{bottom}",
        "header_row_range_address": f"{first}{top}:{last}{top}",
        "data_body_range_address": f"{first}{top + 1}:{last}{max(bottom, top + 1)}",
        "total_row_range_address": None,
        "row_count": bottom - top,
        "column_count": right - left + 1,
        "show_headers": True,
        "show_totals": False,
        "table_style": style,
        "show_autofilter": True,
        "show_table_style_first_column": False,
        "show_table_style_last_column": False,
        "show_table_style_row_stripes": True,
        "show_table_style_column_stripes": False,
    }


def sheet_json(ws: Worksheet) -> dict[str, Any]:
    height, width = ws.max_row, ws.max_column
    values = [
        [cell_json(v) for v in row]
        for row in ws.iter_rows(min_row=1, max_row=height, max_col=width, values_only=True)
    ]
    empty = all(v == "" for row in values for v in row)
    tables = [
        _table_json(t.ref, t.displayName, t.tableStyleInfo.name if t.tableStyleInfo else "")
        for t in ws.tables.values()
    ]
    return {
        "name": ws.title,
        "values": [[]] if empty else values,
        "used_range_address": None if empty else f"A1:{get_column_letter(width)}{height}",
        "visibility": "Visible" if ws.sheet_state == "visible" else "Hidden",
        "show_gridlines": True,
        "pictures": [],
        "shapes": [],
        "charts": [],
        "notes": [],
        "tables": tables,
        "pivot_tables": [],
        "print_area": None,
    }


def book_json(
    path: Path | str, *, active: str | None = None, selection: str = "A1"
) -> dict[str, Any]:
    """The remote-engine snapshot of the workbook at ``path`` (``active``: the active sheet;
    ``selection``: the TD's selection on it, an A1 address such as ``A3:D5,A9``)."""
    import xlwings

    path = Path(path)
    wb = openpyxl.load_workbook(path, data_only=True)
    names = list(wb.sheetnames)
    return {
        "client": CLIENT,
        "version": xlwings.__version__,
        "book": {
            "name": path.name,
            "active_sheet_index": names.index(active) if active else 0,
            "selection": selection,
        },
        "names": [],
        "sheets": [sheet_json(ws) for ws in wb.worksheets],
    }


LICENSE_VARIABLE = "XLWINGS_LICENSE_KEY"


def enable_remote_engine() -> bool:
    """Register xlwings' remote engine; False when it cannot be had.

    xlwings registers it on import only when a license key validates (for
    noncommercial use: ``XLWINGS_LICENSE_KEY=noncommercial``, under the PolyForm
    Noncommercial terms), so a key set after ``import xlwings`` needs this step.
    """
    import xlwings as xw

    if any(engine.name == "remote" for engine in xw.engines):
        return True
    try:
        from xlwings.pro import _xlremote
    except (ImportError, xw.LicenseError):
        return False
    xw.engines.add(xw.Engine(impl=_xlremote.engine))
    return True
