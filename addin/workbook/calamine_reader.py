"""Read a few tables of an .xlsx file fast, with python-calamine, and nothing else.

An action that only reads, and names the sheets it reads (``lookup``: the TDListA), needs
neither openpyxl nor the rest of the workbook: python-calamine (Rust) reads the one sheet
in about the time it takes to unzip it. Rows become typed rows through the same
``table_rows`` as the other gateways, so values, problems and notices are theirs.

Only a plain table is read this way: one whose sheet has no merged cells, no value past a
gap of ``extent.GAP_ROWS`` blank rows or ``extent.GAP_COLUMNS`` blank columns, and whose
rows read without a problem. Anything else is read again by the openpyxl gateway, so
every message about a bad cell is that gateway's, word for word.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from addin.workbook import table_rows
from addin.workbook.gateway import (
    LogEntry,
    Problem,
    TableData,
    WorkbookError,
    WriteRow,
)
from addin.workbook.layout import Table
from addin.workbook.table_rows import GAP_COLUMNS, GAP_ROWS

if TYPE_CHECKING:
    from addin.workbook.openpyxl_gateway import OpenpyxlGateway


_FAR_COLUMN = re.compile(rb'<c r="(?:[A-Z]{3}|[D-Z][A-Z]|C[W-Z])[0-9]')
"""A cell reference past column CV (``GAP_COLUMNS``)."""
_ROW_NUMBER = re.compile(rb'<row [^>]*?\br="([0-9]+)"')
_ODD_REFERENCE = re.compile(rb'<c r="(?![A-Z]{1,3}[0-9]{1,5}")')
"""A cell reference not of a plain row below 100,000: calamine makes the rectangle up to
it (``ZZZZZZZZ2`` or ``A4000000000`` asks for a terabyte and aborts the process), or
refuses it in words of its own (``a5``, ``A-5``)."""


_CELL_REF = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"')


def _column(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


class ReadOnly(RuntimeError):
    """The action declared what it reads, and then wrote or read something else (a bug)."""


class CalamineReader:
    """A read-only ``Gateway`` over a file on disk (the command line's reading actions)."""

    def __init__(
        self,
        path: Path,
        sheets: Sequence[str] | None,
        *,
        force: bool = False,
    ) -> None:
        from python_calamine import CalamineWorkbook

        self.sheets = None if sheets is None else tuple(sheets)
        """The sheets the action declared it reads: no other is read (None: any)."""
        self.path = path
        self.source = path.name
        self.force = force
        self.changed = False
        self._fallback: OpenpyxlGateway | None = None
        self._xml: dict[str, bytes] = {}
        self._grid: dict[str, list[list[Any]]] = {}
        """Each sheet's XML and calamine's reading of it, once per action (a Round sheet
        holds three tables)."""
        try:
            self._book: Any = CalamineWorkbook.from_path(str(path))
        except Exception:  # a package calamine cannot read: the openpyxl gateway reads it all
            self._book = None
            self._openpyxl()  # raises the one-line WorkbookError for a file that is no workbook

    @classmethod
    def open(
        cls, path: Path | str, sheets: Sequence[str] | None, *, force: bool = False
    ) -> CalamineReader:
        """Raises ``WorkbookError`` as the openpyxl gateway does for a file that is not one."""
        path = Path(path)
        if not path.exists():
            raise WorkbookError(f"{path}: no such file")
        return cls(path, sheets, force=force)

    # --- reading ------------------------------------------------------------------------

    def sheet_names(self) -> list[str]:
        if self._book is None:
            return self._openpyxl().sheet_names()
        return list(self._book.sheet_names)

    def read_table(self, table: Table) -> TableData:
        self._declared(table)
        if self._book is None:
            return self._openpyxl().read_table(table)
        if table.sheet not in self._book.sheet_names:
            return TableData(table, [], [Problem(table.sheet, "sheet is missing")], present=False)
        try:
            data = self._plain(table)
        except Exception:  # XML calamine refuses (an entity, a truncated part): openpyxl's words
            data = None
        return data if data is not None else self._openpyxl().read_table(table)

    def _declared(self, table: Table) -> None:
        if self.sheets is not None and table.sheet not in self.sheets:
            raise ReadOnly(f"the action reads {table.sheet}, not among {self.sheets}")

    def _plain(self, table: Table) -> TableData | None:
        """The table read by calamine; None when it is not plain (see the module)."""
        if not self._compact(table.sheet):
            return None
        header_row = _header_row(self.path, table)
        if header_row is None:
            return None
        grid = self._sheet_grid(table.sheet)
        if grid is None or _strays(grid):
            return None
        header = grid[header_row - 1] if header_row <= len(grid) else []
        headers = table_rows.header_map(header, table, table_rows.declared_last(table))
        if headers:
            first, last = min(headers), max(headers)
            marked = self._marked(table.sheet)
            if marked is None or any(r > header_row and first <= c <= last for r, c in marked):
                return None  # a formula or an error value: openpyxl marks them, calamine not
            raw: list[Sequence[object]] = [
                [None if v == "" else v for v in _span(row, first, last)]
                for row in grid[header_row:]
            ]
        else:
            raw = []
        data = table_rows.rows_from_block(table, header_row, headers, raw)
        return None if data.problems else data

    def content_keys(self, table: Table) -> Iterator[str]:
        """Keys under which what ``read_table(table)`` gives may be kept (``read_cache``),
        the cheapest first (each is computed only when the one before found nothing):

        - every stored byte the reading depends on (no inflating: a hash of the stored
          bytes), which holds until the next save;
        - for our own plain rows (inline strings, no styles: ``bulk_sheet``), what they
          depend on: themselves, the header's texts, the rest of the sheet's XML, the
          TDListA's Excel Table and the default cell format. A save that adds a player
          (and renumbers the shared strings) keeps this one.
        """
        import zipfile

        from addin.workbook import read_cache
        from addin.workbook.package import sheet_part
        from addin.workbook.plain_rows import plain_rows_key

        self._declared(table)
        if self._book is None:
            return
        try:
            with zipfile.ZipFile(self.path) as package:
                part = sheet_part(package, table.sheet)
        except Exception:
            return
        if part is None:
            return
        whole = read_cache.sheet_key(self.path, part, repr(table))
        if whole is not None:
            yield whole
        plain = plain_rows_key(self.path, table)
        if plain is not None:
            yield plain

    def columns_of(self, table: Table) -> tuple[int, int] | None:
        """The first and last sheet columns of ``table``'s headers; None when unknown."""
        if self._book is None or table.sheet not in self._book.sheet_names:
            return None
        header_row = _header_row(self.path, table)
        if header_row is None:
            return None
        try:
            grid = self._sheet_grid(table.sheet)
        except Exception:
            return None
        if grid is None:
            return None
        header = grid[header_row - 1] if header_row <= len(grid) else []
        headers = table_rows.header_map(header, table, table_rows.declared_last(table))
        return (min(headers), max(headers)) if headers else None

    def _sheet_grid(self, sheet: str) -> list[list[Any]] | None:
        """The sheet's values from A1; None when it has merged cells (not plain)."""
        if sheet not in self._grid:
            found = self._book.get_sheet_by_name(sheet)
            if found.merged_cell_ranges:
                return None
            self._grid[sheet] = found.to_python(skip_empty_area=False)
        return self._grid[sheet]

    def _sheet_xml(self, sheet: str) -> bytes:
        if sheet not in self._xml:
            import zipfile

            from addin.workbook.package import sheet_part

            with zipfile.ZipFile(self.path) as package:
                part = sheet_part(package, sheet)
                self._xml[sheet] = package.read(part) if part else b""
        return self._xml[sheet]

    @functools.cached_property
    def _shared_read_otherwise(self) -> bool:
        """Whether calamine reads some shared string otherwise than openpyxl (once a file)."""
        return _read_otherwise(self._shared_xml())

    def _shared_xml(self) -> bytes:
        if "" not in self._xml:
            import zipfile

            with zipfile.ZipFile(self.path) as package:
                names = package.namelist()
                shared = "xl/sharedStrings.xml"
                self._xml[""] = package.read(shared) if shared in names else b""
        return self._xml[""]

    def _marked(self, sheet: str) -> list[tuple[int, int]] | None:
        """(row, column) of each cell holding a formula or an error value; None when a
        mark's cell cannot be told."""
        xml = self._sheet_xml(sheet)
        found = []
        for mark in (b"<f>", b"<f ", b"<f/>", b' t="e"'):
            at = xml.find(mark)
            while at >= 0:
                start = xml.rfind(b"<c ", 0, at)
                ref = _CELL_REF.match(xml, start) if start >= 0 else None
                if ref is None:
                    return None
                found.append((int(ref.group(2)), _column(ref.group(1))))
                at = xml.find(mark, at + 1)
        return found

    def _compact(self, sheet: str) -> bool:
        """Whether the sheet's cells lie in a block calamine can hold: it makes the whole
        rectangle up to the farthest cell, so a stray in ``AD1048576`` would cost gigabytes
        (the openpyxl gateway reads such a sheet in its own way and names the stray)."""
        try:
            xml = self._sheet_xml(sheet)
        except Exception:
            return False
        if self._shared_read_otherwise or _read_otherwise(xml):
            return False
        if b"<sheetData" not in xml:
            return False  # UTF-16, or a namespace prefix (<x:c>): calamine reads it empty,
            # and the marks looked for below are not found
        if (
            _FAR_COLUMN.search(xml)
            or _ODD_REFERENCE.search(xml)
            or b"<c>" in xml
            or b"<row>" in xml
        ):
            return False  # a cell past column CV, or cells placed without their reference
        rows = xml.count(b"<row ")
        last = xml.rfind(b"<row ")
        found = _ROW_NUMBER.match(xml, last) if last >= 0 else None
        if last >= 0 and found is None:
            return False
        return found is None or int(found.group(1)) - rows <= GAP_ROWS

    def openpyxl(self) -> OpenpyxlGateway:
        """The openpyxl gateway over the same file (the one any fallback read used)."""
        return self._openpyxl()

    def _openpyxl(self) -> OpenpyxlGateway:
        if self._fallback is None:
            from addin.workbook.openpyxl_gateway import OpenpyxlGateway

            self._fallback = OpenpyxlGateway.open(self.path, force=self.force)
        return self._fallback

    # --- a reading action writes nothing ------------------------------------------------

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        raise ReadOnly(f"{self.source}: opened for reading only; {table.sheet} not written")

    def remove_sheet(self, sheet: str) -> None:
        raise ReadOnly(f"{self.source}: opened for reading only; {sheet} not removed")

    def append_log(self, entries: Sequence[LogEntry]) -> None:
        if entries:
            raise ReadOnly(f"{self.source}: opened for reading only; the Log not written")

    def commit(self) -> None:
        """Nothing is ever queued."""

    def held_by(self) -> str | None:
        return None


def header_row_of(reader: CalamineReader, table: Table) -> int | None:
    """The header row of ``table`` in the file ``reader`` reads (None: the package cannot
    say)."""
    return _header_row(reader.path, table)


def _header_row(path: Path, table: Table) -> int | None:
    """The header row of ``table``'s Excel Table on its sheet (1 without one), as the openpyxl
    gateway finds it; None when the package cannot say (the openpyxl gateway reads it)."""
    import zipfile

    from addin.workbook.package import sheet_part, table_parts

    try:
        with zipfile.ZipFile(path) as package:
            part = sheet_part(package, table.sheet)
            if part is None:
                return None
            for target in table_parts(package, part):
                head = package.read(target)[:2000].decode("utf-8", "replace")
                names = re.findall(r'\b(?:name|displayName)="([^"]*)"', head)
                ref = re.search(r'\bref="[A-Z]+(\d+):', head)
                if table.name in names and ref:
                    return int(ref.group(1))
            return 1
    except Exception:  # anything odd: the openpyxl gateway reads it and says what is wrong
        return None


_ESCAPED = re.compile(rb"_x[0-9A-Fa-f]{4}_")
_SPACES = (b" ", b"\t", b"\n", b"\r")


def _read_otherwise(xml: bytes) -> bool:
    """Whether calamine reads some text of ``xml`` otherwise than openpyxl: a run beginning
    or ending with a space without ``xml:space="preserve"`` (calamine drops the space: a note
    "late" + " in" became "latein"), or Excel's escape of a character (``_x000D_``: calamine
    decodes it, openpyxl keeps it as typed). Plain finds: a TDListA is megabytes."""
    at = xml.find(b"_x")
    while at >= 0:
        if _ESCAPED.match(xml, at):
            return True
        at = xml.find(b"_x", at + 2)
    for space in _SPACES:
        if xml.find(b"t>" + space) >= 0 and re.search(rb"<(?:\w+:)?t>" + space, xml):
            return True
        end = xml.find(space + b"</")
        while end >= 0:
            if re.match(rb"\s</(?:\w+:)?t>", xml[end : end + 12]):
                start = max(xml.rfind(b"<t>", 0, end), xml.rfind(b"<t ", 0, end))
                tag = xml[start : xml.find(b">", start) + 1] if start >= 0 else b""
                if b"preserve" not in tag:
                    return True
            end = xml.find(space + b"</", end + 1)
    return False


def _span(row: Sequence[object], first: int, last: int) -> list[object]:
    part = list(row[first - 1 : last])
    return part + [None] * (last - first + 1 - len(part))


def _strays(grid: Sequence[Sequence[object]]) -> bool:
    """Whether a value lies past a blank gap (the openpyxl gateway names such strays)."""
    if grid and len(grid[0]) > GAP_COLUMNS:
        return True
    blank_run = 0
    for row in grid:
        if any(v != "" and v is not None for v in row):
            if blank_run > GAP_ROWS:
                return True
            blank_run = 0
        else:
            blank_run += 1
    return False
