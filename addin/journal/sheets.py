"""Which sheets of two workbooks hold different values (to name a TD's hand edits)."""

from __future__ import annotations

import hashlib
import io
import zipfile


def sheet_digests(data: bytes) -> dict[str, str]:
    """A digest of each sheet's values (formulas as typed), by sheet name.

    Values, not bytes: a workbook saved again by Excel without a change compares equal.
    """
    try:
        import openpyxl  # only when a snapshot is read: not on every action

        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return {}
    digests: dict[str, str] = {}
    try:
        for ws in wb.worksheets:
            ws.reset_dimensions()  # do not trust the stored dimension: read every row
            h = hashlib.sha256()
            for r, row in enumerate(ws.iter_rows(values_only=True), start=1):
                values = list(row)
                while values and values[-1] in (None, ""):
                    values.pop()
                if values:
                    h.update(repr((r, values)).encode("utf-8", errors="surrogatepass"))
            digests[ws.title] = h.hexdigest()
    finally:
        wb.close()
    return digests


def sheets_that_differ(a: bytes, b: bytes) -> list[str]:
    """The sheets whose values differ, or that only one of the workbooks has."""
    first, second = sheet_digests(a), sheet_digests(b)
    names = [*first, *(n for n in second if n not in first)]
    return [n for n in names if first.get(n) != second.get(n)]
