"""A headless LibreOffice for the Calc door's tests, and every cell of a workbook as values.

The tests are skipped only where LibreOffice or its Python bridge is absent (CI installs
both: .ci/run); the reason says which.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from addin.calc.office import Office, soffice
from addin.calc.uno_loader import UnoMissing, load_uno
from addin.cli import run_file

REQUIRED = "AGA_REQUIRE_LIBREOFFICE"
"""Set (by .ci/run): a missing LibreOffice or uno fails the tests instead of skipping them."""


def require_office() -> None:
    """Skip, saying why, where LibreOffice or its Python bridge is missing (fail in CI)."""
    missing = None
    if soffice() is None:
        missing = "LibreOffice (soffice) is not installed"
    else:
        try:
            load_uno()
        except UnoMissing as err:
            missing = str(err)
    if missing and os.environ.get(REQUIRED):
        pytest.fail(f"{missing} ({REQUIRED} is set)")
    if missing:
        pytest.skip(missing)


def office_or_skip() -> Iterator[Office]:
    require_office()
    with Office() as office:
        yield office


def cli(path: Path, action: str, params: Mapping[str, object]) -> int:
    """The command line's front door, as ``python -m addin ACTION --yes`` runs it."""
    return run_file(path, action, params, yes=True, force=True)


Cells = dict[str, list[list[object]]]
FORMULA = 16
"""com.sun.star.sheet.CellFlags.FORMULA"""
XL_A1 = 3
"""com.sun.star.sheet.AddressConvention.XL_A1"""


def _same(value: object) -> object:
    """One value as both sides can hold it: numbers as floats, dates as serial numbers."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, datetime):
        return round((value - datetime(1899, 12, 30)).total_seconds() / 86400, 6)
    if isinstance(value, date):
        return float((value - date(1899, 12, 30)).days)
    if isinstance(value, time):
        return round((value.hour * 3600 + value.minute * 60 + value.second) / 86400, 6)
    if isinstance(value, int | float):
        return round(float(value), 6) if math.isfinite(value) else str(value)
    return str(value)


def _trimmed(rows: list[list[object]]) -> list[list[object]]:
    rows = [[_same(v) for v in row] for row in rows]
    while rows and all(v is None for v in rows[-1]):
        rows.pop()
    width = max(
        (max((i + 1 for i, v in enumerate(r) if v is not None), default=0) for r in rows), default=0
    )
    return [row[:width] + [None] * (width - len(row[:width])) for row in rows]


def file_cells(path: Path) -> Cells:
    """Every sheet's values as openpyxl reads the saved file."""
    wb = openpyxl.load_workbook(path)
    return {
        ws.title: _trimmed([list(r) for r in ws.iter_rows(values_only=True)])
        for ws in wb.worksheets
    }


def live_cells(doc: Any) -> Cells:
    """Every sheet's values read back from the live document through UNO (one block each)."""
    out: Cells = {}
    for name in doc.Sheets.ElementNames:
        ws = doc.Sheets.getByName(name)
        cursor = ws.createCursor()
        cursor.gotoEndOfUsedArea(False)
        end = cursor.RangeAddress
        rng = ws.getCellRangeByPosition(0, 0, end.EndColumn, end.EndRow)
        rows = [list(r) for r in rng.getDataArray()]
        for area in rng.queryContentCells(FORMULA).RangeAddresses:
            for r in range(area.StartRow, area.EndRow + 1):
                for c in range(area.StartColumn, area.EndColumn + 1):
                    rows[r][c] = excel_formula(doc, ws.getCellByPosition(c, r))
        out[name] = _trimmed(rows)
    return out


def excel_formula(doc: Any, cell: Any) -> str:
    """A formula cell's formula as Excel (and openpyxl) writes it: ``=COUNT(Players!A2:A9)``."""
    parser = doc.createInstance("com.sun.star.sheet.FormulaParser")
    parser.FormulaConvention = XL_A1
    parser.CompileEnglish = True
    return "=" + str(parser.printFormula(cell.getTokens(), cell.CellAddress))


def without_clock(cells: Cells) -> Cells:
    """The Log's timestamps aside (each side ran at its own time), and the Round sheets'
    result codes (drawn at random by each side's ``pair``); the rest as it is."""
    out = dict(cells)
    if "Log" in out:
        out["Log"] = [row[1:] for row in out["Log"]]
    for sheet, rows in out.items():
        if sheet.startswith("Round ") and rows and "Result code" in rows[0]:
            at = list(rows[0]).index("Result code")
            out[sheet] = [rows[0]] + [[*r[:at], "", *r[at + 1 :]] for r in rows[1:]]
    return out
