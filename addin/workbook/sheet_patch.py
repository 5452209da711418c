"""Write a few tables into an .xlsx package by editing their sheets' XML, copying every other
part as it is stored.

A desk action changes one cell of a ten-megabyte workbook (a result) or one row (a late
arrival). Loading and saving the whole package through openpyxl costs four times a plain copy
of the file, and importing openpyxl alone costs more than that copy; here only the sheets
written are parsed (lxml), the rows of their tables are replaced, and the package is copied
part by part with the unchanged parts still compressed.

Only what the openpyxl gateway would do the same way is done here: rows of an existing Excel
Table whose headers are all in place, on a sheet without merged cells in the table, with the
cell formats the package already holds. Anything else (a sheet or a table to create, a header
to add, a style the package lacks, the TDListA, a sheet written by another program in a form
not met here) raises ``Unsupported``, and the caller does the whole action through the openpyxl
gateway instead: the fast path never guesses.
"""

from __future__ import annotations

import bisect
import copy
import functools
import io
import re
import struct
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time

from lxml import etree

from addin.workbook.bulk_sheet import LAST_COLUMN
from addin.workbook.cells import ErrorValue, Formula, Text, gate, is_blank
from addin.workbook.gateway import LogEntry, Row, WriteRow
from addin.workbook.layout import LOG, Kind, Table
from addin.workbook.package import (
    bounds,
    column_index,
    copy_compressed,
    defined_name,
    print_ranges,
    sheet_part,
    table_parts,
)
from addin.workbook.table_rows import (
    GAP_COLUMNS,
    GAP_ROWS,
    WriteLayout,
    block_end,
    block_for_rows,
    declared_last,
    get_column_letter,
    header_map,
    render_row,
    wrapped_height,
    write_layout,
)

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_C, _ROW, _V, _F, _IS, _T = (f"{{{MAIN}}}{n}" for n in ("c", "row", "v", "f", "is", "t"))
_NS = {"m": MAIN}

BUILTIN_FORMATS = {"General": 0, "0": 1, "0.00": 2, "mm-dd-yy": 14, "h:mm:ss": 21}
"""The built-in number formats (ECMA-376 §18.8.30) a table may ask for."""
DEFAULT_DATETIME, DEFAULT_DATE = "yyyy-mm-dd h:mm:ss", "yyyy-mm-dd"
"""openpyxl's formats for a date written into a cell whose format is General."""
_EPOCH = datetime(1899, 12, 30)
_REF = re.compile(r"^([A-Z]{1,3})([0-9]{1,7})$")


class Unsupported(Exception):
    """This package or this write is not one the fast path makes the way openpyxl would."""


def _split_ref(ref: str | None) -> tuple[int, int]:
    """(row, column) of an A1 reference."""
    found = _REF.match(ref or "")
    if found is None:
        raise Unsupported(f"cell reference {ref!r}")
    return int(found.group(2)), _column_of(found.group(1))


def _int(text: str | None, default: int = 0) -> int:
    """A whole number the package gives as text (a style index, a row number)."""
    if not text:
        return default
    try:
        return int(text)
    except ValueError as err:
        raise Unsupported(f"not a whole number: {text!r}") from err


@functools.lru_cache(maxsize=1024)
def _column_of(letters: str) -> int:
    return column_index(letters)


def _bounds(ref: str) -> tuple[int, int, int, int]:
    """(first column, first row, last column, last row) of ``A1:D9``."""
    try:
        return bounds(ref)
    except ValueError as err:
        raise Unsupported(str(err)) from err


@dataclass
class _Sheet:
    name: str
    part: str
    root: etree._Element
    data: etree._Element
    rows: dict[int, etree._Element]
    tables: dict[str, tuple[str, etree._Element]]
    """Excel Table name -> (its part, its parsed XML)."""

    @functools.cached_property
    def column_styles(self) -> dict[int, str]:
        """Column -> the style index its ``<col>`` declares (never 0): a new cell takes it,
        as it does when the TD types into it."""
        styles: dict[int, str] = {}
        for col in self.root.iterfind("m:cols/m:col", _NS):
            style = col.get("style")
            if style and style != "0":
                style = str(_int(style))
                low = _int(col.get("min"))
                for c in range(low, min(_int(col.get("max"), low), LAST_COLUMN) + 1):
                    styles[c] = style
        return styles


@dataclass
class _Written:
    """A table as last written: where, how, and each row's values (to tell what changed)."""

    header_row: int
    layout: WriteLayout
    formats: dict[int, str | None]
    title: str
    rows: list[tuple[object, ...]]


def _fingerprint(row: WriteRow) -> tuple[object, ...]:
    """What a row's rendered cells depend on (``table_rows.render_row``)."""
    if isinstance(row, Row):
        return (dict(row.values), dict(row.extra), dict(row.unread))
    return (dict(row), None, None)


@dataclass
class PackagePatch:
    """The package ``data`` with the tables written so far; ``package()`` makes the file."""

    data: bytes
    _zip: zipfile.ZipFile = field(init=False, repr=False)
    _sheets: dict[str, _Sheet] = field(default_factory=dict, repr=False)
    _changed: dict[str, etree._Element] = field(default_factory=dict, repr=False)
    _shared: list[str] | None = field(default=None, repr=False)
    _styles: etree._Element | None = field(default=None, repr=False)
    _workbook: etree._Element | None = field(default=None, repr=False)
    _parts: dict[str, str | None] = field(default_factory=dict, repr=False)
    _declared: set[str] = field(default_factory=set, repr=False)
    """The parts read that began with an XML declaration (written back with one)."""
    _grid: dict[str, dict[tuple[int, int], etree._Element]] = field(
        default_factory=dict, repr=False
    )
    """Each sheet's cells by (row, column), found once and kept as cells are added."""
    _extent: dict[str, list[int]] = field(default_factory=dict, repr=False)
    """Each sheet's last row and column holding a cell (its dimension)."""
    _last: dict[str, _Written] = field(default_factory=dict, repr=False)
    """Each table written, as written: a table written again rewrites the rows that
    changed (a group of entries writes the Players table once per entry)."""
    _packed: dict[str, tuple[bytes, int, bytes]] = field(default_factory=dict, repr=False)
    """Each part written: its content and its compressed bytes, as the last ``package()``
    wrote them (a part a later package writes unchanged is not compressed again)."""
    _log_end: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    """The Log's header row and last line, once appended to."""

    def __post_init__(self) -> None:
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(self.data))
            names = set(self._zip.namelist())
        except (zipfile.BadZipFile, OSError, ValueError) as err:
            raise Unsupported(str(err)) from err
        if "xl/workbook.xml" not in names or "xl/styles.xml" not in names:
            raise Unsupported("no workbook or styles part")
        if "xl/calcChain.xml" in names:  # Excel's list of formula cells: openpyxl drops it
            raise Unsupported("a calculation chain")
        if self._workbook_root().find("m:workbookPr[@date1904='1']", _NS) is not None:
            raise Unsupported("1904 date system")

    # --- the parts --------------------------------------------------------------------

    def _xml(self, part: str) -> etree._Element:
        if part in self._changed:
            return self._changed[part]
        try:
            data = self._zip.read(part)
            root = etree.fromstring(data)
        except (KeyError, etree.XMLSyntaxError) as err:
            raise Unsupported(f"{part}: {err}") from err
        if data.lstrip().startswith(b"<?xml"):
            self._declared.add(part)
        return root

    def _workbook_root(self) -> etree._Element:
        if self._workbook is None:
            self._workbook = self._xml("xl/workbook.xml")
        return self._workbook

    def _sheet_names(self) -> list[str]:
        return [s.get("name", "") for s in self._workbook_root().iterfind("m:sheets/m:sheet", _NS)]

    def _part_of(self, name: str) -> str | None:
        """Sheet ``name``'s part (each found once: finding one reads the workbook part)."""
        if name not in self._parts:
            self._parts[name] = sheet_part(self._zip, name)
        return self._parts[name]

    def _sheet(self, name: str) -> _Sheet:
        found = self._sheets.get(name)
        if found is not None:
            return found
        part = self._part_of(name)
        if part is None or part not in self._zip.namelist():
            raise Unsupported(f"no sheet {name!r}")
        root = self._xml(part)
        data = root.find("m:sheetData", _NS)
        if data is None:
            raise Unsupported(f"{name}: no sheetData")
        rows: dict[int, etree._Element] = {}
        last = 0
        for row in data:
            number = _int(row.get("r"))
            if row.tag != _ROW or number <= last:
                raise Unsupported(f"{name}: rows out of order or without their number")
            rows[number] = row
            last = number
        found = self._sheets[name] = _Sheet(name, part, root, data, rows, self._tables_of(part))
        return found

    def _table(self, table: Table) -> tuple[_Sheet, str, etree._Element]:
        """``table``'s sheet, Table part and Table XML; Unsupported unless the Table is on
        its own sheet and on no other (a sheet renamed from it, then made again, holds it)."""
        sheet = self._sheet(table.sheet)
        if table.name not in sheet.tables:
            raise Unsupported(f"no Excel Table {table.name} on {table.sheet}")
        for other in self._sheet_names():
            if other != table.sheet and table.name in self._tables_by_sheet(other):
                raise Unsupported("the table is on another sheet")
        part, xml = sheet.tables[table.name]
        return sheet, part, xml

    def _tables_by_sheet(self, name: str) -> dict[str, tuple[str, etree._Element]]:
        """The Excel Tables of sheet ``name``, without parsing the sheet itself."""
        if name in self._sheets:
            return self._sheets[name].tables
        part = self._part_of(name)
        return {} if part is None else self._tables_of(part)

    def _tables_of(self, part: str) -> dict[str, tuple[str, etree._Element]]:
        tables: dict[str, tuple[str, etree._Element]] = {}
        for path in table_parts(self._zip, part):
            root = self._xml(path)
            tables[root.get("displayName") or root.get("name") or ""] = (path, root)
        return tables

    def _shared_strings(self) -> list[str]:
        if self._shared is None:
            self._shared = []
            if "xl/sharedStrings.xml" in self._zip.namelist():
                for si in self._xml("xl/sharedStrings.xml"):
                    self._shared.append("".join(si.itertext()))
        return self._shared

    # --- cells ------------------------------------------------------------------------

    def _value(self, cell: etree._Element) -> object:
        kind = cell.get("t", "n")
        formula = cell.find(_F)
        if formula is not None:
            return "=" + (formula.text or "")
        if kind == "inlineStr":
            node = cell.find(_IS)
            return None if node is None else "".join(node.itertext())
        v = cell.find(_V)
        if v is None or v.text is None:
            return None
        if kind == "s":
            try:
                return self._shared_strings()[int(v.text)]
            except (ValueError, IndexError) as err:
                raise Unsupported("shared string") from err
        if kind in ("str", "e"):
            return v.text
        if kind == "b":
            return v.text == "1"
        try:
            number = float(v.text)
        except ValueError as err:
            raise Unsupported(f"number {v.text!r}") from err
        return int(number) if number.is_integer() and "." not in v.text else number

    def _cells(self, sheet: _Sheet) -> dict[tuple[int, int], etree._Element]:
        """The sheet's cells by (row, column): walked once, then kept (every cell added
        goes through ``_store``, which adds it here)."""
        found = self._grid.get(sheet.name)
        if found is not None:
            return found
        cells: dict[tuple[int, int], etree._Element] = {}
        for number, row in sheet.rows.items():
            for cell in row:
                if cell.tag != _C:
                    continue
                at = _split_ref(cell.get("r"))
                if at[0] != number:
                    raise Unsupported(f"{sheet.name}: cell {cell.get('r')} in row {number}")
                cells[at] = cell
        self._grid[sheet.name] = cells
        self._extent[sheet.name] = [
            max((r for r, _ in cells), default=0),
            max((c for _, c in cells), default=0),
        ]
        return cells

    @staticmethod
    def _filled(cells: dict[tuple[int, int], etree._Element]) -> list[tuple[int, int]]:
        """Where the cells holding something are (a formula, a number, non-blank text)."""
        return [at for at, cell in cells.items() if _holds_something(cell)]

    def title(self) -> str:
        """The event's name as the page headers show it (Tournament!B2, as openpyxl reads it)."""
        if "Tournament" not in self._sheet_names():
            return ""
        sheet = self._sheet("Tournament")
        row = sheet.rows.get(2)
        cell = None
        if row is not None:
            cell = next((c for c in row if c.tag == _C and c.get("r") == "B2"), None)
        value = None if cell is None else self._value(cell)
        if value is None or value == "":
            return ""
        if not isinstance(value, str) or value.startswith("="):
            raise Unsupported("a title that is not text")
        return value

    # --- writing ----------------------------------------------------------------------

    def write_table(self, table: Table, rows: Sequence[WriteRow], title: str) -> tuple[int, int]:
        """Replace ``table``'s data rows as the openpyxl gateway's ``write_table`` would;
        the first and last sheet columns written."""
        if table.bulk:
            raise Unsupported("a bulk sheet (the TDListA, the EGD list) is written by its own path")
        sheet, table_part, table_xml = self._table(table)
        written = self._last.pop(table.name, None)
        if written is not None and written.title == title and len(rows) >= len(written.rows):
            return self._write_changed(table, rows, sheet, table_part, table_xml, written)
        _, header_row, last_col, _ = _bounds(table_xml.get("ref", ""))
        cells = self._cells(sheet)
        filled = self._filled(cells)
        width = block_end([c for _, c in filled], GAP_COLUMNS)
        last = max(declared_last(table), last_col)
        header_cells = [
            self._value(cells[header_row, c]) if (header_row, c) in cells else None
            for c in range(1, max(width, last) + 1)
        ]
        layout = write_layout(table, header_map(header_cells, table, last))
        if layout.added:
            raise Unsupported("a header to add")
        headers = layout.headers
        self._no_merged(sheet, header_row, min(headers), max(headers))
        self._no_formulas(sheet, cells, header_row, headers)
        self._page_header_is(sheet, title)
        block = block_for_rows(table, rows, layout, top=header_row + 1)
        formats = {
            layout.positions[c.key]: _declared_format(c.kind, c.number_format)
            for c in table.columns
        }
        first = layout.first
        for i, line in enumerate(block):
            r = header_row + 1 + i
            for offset, value in enumerate(line):
                col = first + offset
                if col in headers:
                    self._store(sheet, cells, r, col, value, formats.get(col))
        bottom = header_row + len(block)
        for (r, c), cell in cells.items():  # the rows below the table's new end
            if r > bottom and c in headers and not is_blank(self._value(cell)):
                _clear(cell)
        count = max(1, len(rows))
        ref = f"{get_column_letter(table.anchor_column)}{header_row}:"
        ref += f"{get_column_letter(max(headers))}{header_row + count}"
        self._set_table_ref(sheet, table, table_part, table_xml, ref, len(rows))
        self._finish(sheet)
        if not any(isinstance(v, Formula) for line in block for v in line):
            prints = [_fingerprint(row) for row in rows]
            self._last[table.name] = _Written(header_row, layout, formats, title, prints)
        return min(headers), max(headers)

    def _write_changed(
        self,
        table: Table,
        rows: Sequence[WriteRow],
        sheet: _Sheet,
        table_part: str,
        table_xml: etree._Element,
        written: _Written,
    ) -> tuple[int, int]:
        """``write_table`` again, where this patch wrote the table last with as many rows
        or fewer: only the rows that changed are rendered and stored (the others' cells
        hold what they would be written again with, and nothing else writes them)."""
        cells = self._cells(sheet)
        layout, header_row = written.layout, written.header_row
        headers, first = layout.headers, layout.first
        prints = [_fingerprint(row) for row in rows]
        for i, (row, print_) in enumerate(zip(rows, prints, strict=True)):
            if i < len(written.rows) and written.rows[i] == print_:
                continue
            r = header_row + 1 + i
            line = render_row(table, row, layout, first, layout.last, r)
            if any(isinstance(v, Formula) for v in line):
                raise Unsupported("a formula written: the whole table is written again")
            for offset, value in enumerate(line):
                col = first + offset
                if col in headers:
                    self._store(sheet, cells, r, col, value, written.formats.get(col))
        count = max(1, len(rows))
        ref = f"{get_column_letter(table.anchor_column)}{header_row}:"
        ref += f"{get_column_letter(max(headers))}{header_row + count}"
        self._set_table_ref(sheet, table, table_part, table_xml, ref, len(rows))
        self._finish(sheet)
        written.rows = prints
        self._last[table.name] = written
        return min(headers), max(headers)

    def append_log(self, entries: Sequence[LogEntry]) -> None:
        """Add ``entries`` below the Log's last line, as the openpyxl gateway would."""
        if not entries:
            return
        sheet, table_part, table_xml = self._table(LOG)
        cells = self._cells(sheet)
        anchor = LOG.anchor_column
        if sheet.name in self._log_end:  # appended to before: its last line is known
            header_row, last = self._log_end[sheet.name]
        else:
            _, header_row, _, _ = _bounds(table_xml.get("ref", ""))
            filled = self._filled(cells)
            bottom = block_end([r for r, _ in filled], GAP_ROWS)
            last = max(
                (r for r, c in filled if c == anchor and header_row < r <= bottom),
                default=header_row,
            )
            self._no_merged(sheet, header_row, anchor, anchor + len(LOG.columns) - 1)
        for i, entry in enumerate(entries, start=1):
            r = last + i
            values = (entry.timestamp, entry.level, entry.action, entry.message)
            for offset, (column, value) in enumerate(zip(LOG.columns, values, strict=True)):
                col = anchor + offset
                gated = gate(value, f"{LOG.sheet}!{get_column_letter(col)}{r}")
                self._store(sheet, cells, r, col, gated, column.number_format)
            height = wrapped_height(LOG, values)
            message = cells[r, anchor + len(LOG.columns) - 1]
            if height is not None and self._wraps(message):  # an older Log never wraps
                sheet.rows[r].set("ht", f"{height:g}")
                sheet.rows[r].set("customHeight", "1")
        count = last + len(entries) - header_row
        ref = f"{get_column_letter(anchor)}{header_row}:"
        ref += f"{get_column_letter(anchor + len(LOG.columns) - 1)}{header_row + max(1, count)}"
        self._set_table_ref(sheet, LOG, table_part, table_xml, ref)
        self._finish(sheet)
        self._log_end[sheet.name] = (header_row, last + len(entries))

    def _no_merged(self, sheet: _Sheet, header_row: int, first: int, last: int) -> None:
        for merged in sheet.root.iterfind("m:mergeCells/m:mergeCell", _NS):
            a, _, b, r2 = _bounds(merged.get("ref", ""))
            if r2 > header_row and a <= last and b >= first:
                raise Unsupported("merged cells in the table")  # openpyxl names them

    @staticmethod
    def _no_formulas(
        sheet: _Sheet,
        cells: dict[tuple[int, int], etree._Element],
        header_row: int,
        headers: dict[int, str],
    ) -> None:
        """A formula in the table (kept by the TD, written back by openpyxl as it reads it)
        or one shared with other cells of the sheet is openpyxl's to write."""
        for (r, c), cell in cells.items():
            formula = cell.find(_F)
            if formula is None:
                continue
            if formula.get("t") in ("shared", "array") or (r > header_row and c in headers):
                raise Unsupported(f"{sheet.name}: a formula in the way")

    def _page_header_is(self, sheet: _Sheet, title: str) -> None:
        """The sheet's page header already says what ``styling.set_header`` would write."""
        left = title.replace("&", "&&") if title else "&F"
        header = sheet.root.find("m:headerFooter/m:oddHeader", _NS)
        footer = sheet.root.find("m:headerFooter/m:oddFooter", _NS)
        if (
            header is None
            or header.text != f"&L{left}&C&A&R&D &T"
            or footer is None
            or footer.text != "&CPage &P of &N"
        ):
            raise Unsupported("the page header changes")

    def _store(
        self,
        sheet: _Sheet,
        cells: dict[tuple[int, int], etree._Element],
        r: int,
        c: int,
        value: object,
        number_format: str | None,
    ) -> None:
        cell = cells.get((r, c))
        if value is None and number_format is None and (cell is None or len(cell) == 0):
            return
        if cell is None:
            cell = cells[r, c] = self._new_cell(sheet, r, c)
            extent = self._extent.get(sheet.name)
            if extent is not None:
                extent[0], extent[1] = max(extent[0], r), max(extent[1], c)
        if len(cell) == 0 and cell.get("s", "0") == "0" and c in sheet.column_styles:
            cell.set("s", sheet.column_styles[c])  # a new or bare cell: its column's style
        if number_format is None and isinstance(value, date | time):
            number_format = self._date_default(cell, value)
        if number_format is not None:
            self._set_format(cell, number_format)
        if not _holds(cell, value):
            _clear(cell)
            try:
                _put(cell, value)
            except ValueError as err:  # text lxml will not hold: openpyxl's words for it
                raise Unsupported(str(err)) from err

    def _new_cell(self, sheet: _Sheet, r: int, c: int) -> etree._Element:
        row = sheet.rows.get(r)
        if row is None:
            numbers = sorted(sheet.rows)
            at = bisect.bisect(numbers, r)
            row = etree.Element(_ROW, r=str(r))
            sheet.data.insert(
                at if at == len(numbers) else sheet.data.index(sheet.rows[numbers[at]]), row
            )
            sheet.rows[r] = row
        cell = etree.Element(_C, r=f"{get_column_letter(c)}{r}")
        later = [i for i, other in enumerate(row) if _split_ref(other.get("r"))[1] > c]
        row.insert(later[0] if later else len(row), cell)
        return cell

    def _wraps(self, cell: etree._Element) -> bool:
        index = _int(cell.get("s"))
        if index >= len(self._xfs()):
            raise Unsupported("a style index out of range")
        alignment = self._xfs()[index].find("m:alignment", _NS)
        return alignment is not None and alignment.get("wrapText") in ("1", "true")

    def _date_default(self, cell: etree._Element, value: object) -> str | None:
        """The format openpyxl gives a date put into a cell whose format shows no date."""
        index = _int(cell.get("s"))
        if index >= len(self._xfs()):
            raise Unsupported("a style index out of range")
        number = _int(self._xfs()[index].get("numFmtId"))
        codes = {i: code for code, i in self._format_ids.items()}
        if number in _DATE_BUILTINS or _shows_a_date(codes.get(number, "")):
            return None
        return DEFAULT_DATETIME if isinstance(value, datetime) else DEFAULT_DATE

    # --- styles -----------------------------------------------------------------------

    def _styles_root(self) -> etree._Element:
        if self._styles is None:
            self._styles = self._xml("xl/styles.xml")
        return self._styles

    @functools.cached_property
    def _cell_formats(self) -> list[etree._Element]:
        xfs = self._styles_root().find("m:cellXfs", _NS)
        if xfs is None or len(xfs) == 0:
            raise Unsupported("no cell formats")
        return list(xfs)

    def _xfs(self) -> list[etree._Element]:
        """The package's cell formats (never changed here: a format it lacks is Unsupported)."""
        return self._cell_formats

    @functools.cached_property
    def _format_ids(self) -> dict[str, int]:
        """Number format ids by code: the package's own, a built-in one first (as openpyxl)."""
        ids = {
            fmt.get("formatCode") or "": _int(fmt.get("numFmtId"))
            for fmt in self._styles_root().iterfind("m:numFmts/m:numFmt", _NS)
        }
        return ids | BUILTIN_FORMATS

    def _format_id(self, code: str) -> int:
        """The id of number format ``code``, added to the package when it has none yet."""
        found = self._format_ids.get(code)
        if found is not None:
            return found
        root = self._styles_root()
        formats = root.find("m:numFmts", _NS)
        if formats is None:
            formats = etree.Element(f"{{{MAIN}}}numFmts")
            root.insert(0, formats)
        number = max([163, *(i for i in self._format_ids.values() if i >= 164)]) + 1
        etree.SubElement(formats, f"{{{MAIN}}}numFmt", numFmtId=str(number), formatCode=code)
        formats.set("count", str(len(formats)))
        self._format_ids[code] = number
        self._changed["xl/styles.xml"] = root
        return number

    def _set_format(self, cell: etree._Element, code: str) -> None:
        """Give ``cell`` the format it has with number format ``code``."""
        xfs = self._xfs()
        index = _int(cell.get("s"))
        if index >= len(xfs):
            raise Unsupported("a style index out of range")
        wanted = self._format_id(code)
        if _int(xfs[index].get("numFmtId")) == wanted:
            return
        shape = _xf_shape(xfs[index], wanted)
        found = next((i for i, xf in enumerate(xfs) if _xf_shape(xf, None) == shape), None)
        if found is None:
            found = self._add_format(xfs[index], wanted)
        if found:
            cell.set("s", str(found))
        else:
            cell.attrib.pop("s", None)

    def _add_format(self, like: etree._Element, number_format: int) -> int:
        """A new cell format: ``like`` with ``number_format`` (as openpyxl adds one)."""
        xf = copy.deepcopy(like)
        xf.set("numFmtId", str(number_format))
        parent = like.getparent()
        assert parent is not None
        parent.append(xf)
        parent.set("count", str(len(parent)))
        self._cell_formats.append(xf)
        self._changed["xl/styles.xml"] = self._styles_root()
        return len(self._cell_formats) - 1

    # --- the Excel Table, the print area, the dimension -------------------------------

    def _set_table_ref(
        self,
        sheet: _Sheet,
        table: Table,
        part: str,
        xml: etree._Element,
        ref: str,
        rows: int | None = None,
    ) -> None:
        if table.printed:
            self._set_print_area(sheet.name, table, ref, rows)
        if xml.get("ref") == ref:
            return
        a, _, b, _ = _bounds(ref)
        old_a, _, old_b, _ = _bounds(xml.get("ref", ""))
        if (a, b) != (old_a, old_b):
            raise Unsupported("the table's columns change")
        xml.set("ref", ref)
        autofilter = xml.find("m:autoFilter", _NS)
        if autofilter is not None:
            autofilter.set("ref", ref)
        self._changed[part] = xml

    def _set_print_area(self, sheet: str, table: Table, ref: str, rows: int | None) -> None:
        """``styling.set_table_ref``'s print area: the sheet's ranges, this table's moved."""
        root = self._workbook_root()
        index = str(self._sheet_names().index(sheet))
        node = next(
            (
                name
                for name in root.iterfind("m:definedNames/m:definedName", _NS)
                if name.get("name") == "_xlnm.Print_Area" and name.get("localSheetId") == index
            ),
            None,
        )
        if node is None:
            raise Unsupported("no print area to move")
        cells = print_ranges(node.text, table, ref, rows)
        if not cells:
            raise Unsupported("a print area to remove")
        text = defined_name(sheet, cells)
        if node.text != text:
            node.text = text
            self._changed["xl/workbook.xml"] = root

    def _finish(self, sheet: _Sheet) -> None:
        extent = self._extent.get(sheet.name)
        if extent is None:
            self._cells(sheet)
            extent = self._extent[sheet.name]
        bottom, right = extent
        dimension = sheet.root.find("m:dimension", _NS)
        if dimension is not None and bottom and right:
            dimension.set("ref", f"A1:{get_column_letter(right)}{bottom}")
        self._changed[sheet.part] = sheet.root

    # --- the package ------------------------------------------------------------------

    def package(self) -> bytes:
        """The whole package: the parts written, serialized; the rest copied compressed."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
            for item in self._zip.infolist():
                root = self._changed.get(item.filename)
                if root is None:
                    copy_compressed(self._zip, item, copy)
                    continue
                declared = item.filename in self._declared
                try:  # with a declaration only when the part had one (openpyxl's have none)
                    content = (
                        etree.tostring(
                            root, xml_declaration=True, encoding="UTF-8", standalone=True
                        )
                        if declared
                        else etree.tostring(root, encoding="UTF-8")
                    )
                except ValueError as err:  # text lxml cannot hold: openpyxl's words for it
                    raise Unsupported(str(err)) from err
                info = zipfile.ZipInfo(item.filename, item.date_time)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = item.external_attr
                packed = self._packed.get(item.filename)
                if packed is not None and packed[0] == content:  # as the last package had it
                    _write_packed(copy, info, len(content), packed[1], packed[2])
                    continue
                copy.writestr(info, content)
                self._packed[item.filename] = (content, *_stored(out, copy, item.filename))
        return out.getvalue()


def _stored(out: io.BytesIO, package: zipfile.ZipFile, name: str) -> tuple[int, bytes]:
    """The CRC and the compressed bytes of the member ``name`` just written to ``package``."""
    info = package.getinfo(name)
    data = out.getbuffer()
    name_length, extra_length = struct.unpack(
        "<HH", data[info.header_offset + 26 : info.header_offset + 30]
    )
    start = info.header_offset + 30 + name_length + extra_length
    return info.CRC, bytes(data[start : start + info.compress_size])


def _write_packed(
    package: zipfile.ZipFile, info: zipfile.ZipInfo, size: int, crc: int, packed: bytes
) -> None:
    """A member whose compressed bytes are known, written as they are (as
    ``package.copy_compressed`` copies a member)."""
    fp = package.fp
    assert fp is not None
    info.CRC, info.compress_size, info.file_size = crc, len(packed), size
    info.header_offset = fp.tell()
    fp.write(info.FileHeader(zip64=False))
    fp.write(packed)
    package.filelist.append(info)
    package.NameToInfo[info.filename] = info
    package.start_dir = fp.tell()


_DATE_BUILTINS = frozenset({*range(14, 23), 45, 46, 47})
"""The built-in number formats that show a date or a time (ECMA-376 §18.8.30)."""
_NOT_A_DATE_PART = re.compile(r'"[^"]*"|\[[^\]]*\]|\\.')


def _shows_a_date(code: str) -> bool:
    """Whether a format code shows a date or time (openpyxl's ``is_date_format``)."""
    return bool(re.search(r"[dmhysDMHYS]", _NOT_A_DATE_PART.sub("", code)))


def _declared_format(kind: Kind, declared: str | None) -> str | None:
    """``styling.number_format`` (that module brings openpyxl)."""
    if declared:
        return declared
    return "yyyy-mm-dd" if kind is Kind.DATE else None


def _xf_shape(xf: etree._Element, number_format: int | None) -> bytes:
    """A format's attributes and children, its number format replaced when given."""
    attributes = dict(xf.attrib)
    if number_format is not None:
        attributes["numFmtId"] = str(number_format)
    for name in [n for n in attributes if n.startswith("apply")]:
        del attributes[name]
    children = b"".join(etree.tostring(child) for child in xf)
    return repr(sorted(attributes.items())).encode() + children


def _holds_something(cell: etree._Element) -> bool:
    for child in cell:
        if child.tag == _F:
            return True
        text = "".join(child.itertext()) if child.tag == _IS else child.text
        if text and text.strip():
            return True
    return False


def _holds(cell: etree._Element, value: object) -> bool:
    """Whether ``cell`` already holds ``value`` as ``_put`` would write it (most cells of a
    table written again are unchanged: they are left as they are)."""
    kind = cell.get("t")
    children = list(cell)
    if value is None:
        return not children
    if len(children) != 1 or isinstance(value, Formula | ErrorValue):
        return False
    child = children[0]
    if isinstance(value, Text):
        value = value.value
    if isinstance(value, str):
        if kind != "inlineStr" or child.tag != _IS or len(child) != 1:
            return False
        return bool(child[0].tag == _T and (child[0].text or "") == value)
    text: str | None = child.text
    if child.tag != _V or text is None:
        return False
    if isinstance(value, bool):
        return kind == "b" and text == ("1" if value else "0")
    if isinstance(value, int | float) and kind in (None, "n"):
        try:
            return float(text) == value and type(value) is not bool
        except ValueError:
            return False
    return False


def _clear(cell: etree._Element) -> None:
    for child in list(cell):
        cell.remove(child)
    cell.attrib.pop("t", None)


def _put(cell: etree._Element, value: object) -> None:
    """The value as openpyxl writes it (inline strings, dates as serial numbers)."""
    if value is None:
        return
    if isinstance(value, Text):
        value = value.value
    elif isinstance(value, Formula):
        etree.SubElement(cell, _F).text = value[1:]
        etree.SubElement(cell, _V)
        return
    elif isinstance(value, ErrorValue):
        cell.set("t", "e")
        etree.SubElement(cell, _V).text = str(value)
        return
    if isinstance(value, str):
        cell.set("t", "inlineStr")
        t = etree.SubElement(etree.SubElement(cell, _IS), _T)
        t.text = value
        if value != value.strip():
            t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        return
    if isinstance(value, bool):
        cell.set("t", "b")
        etree.SubElement(cell, _V).text = "1" if value else "0"
        return
    if isinstance(value, datetime | date):
        stamp = value if isinstance(value, datetime) else datetime.combine(value, time())
        if stamp.tzinfo is not None or stamp < datetime(1900, 3, 1):
            raise Unsupported("a date openpyxl converts its own way")
        value = (stamp - _EPOCH).total_seconds() / 86400
    if isinstance(value, int | float):
        if value != value or value in (float("inf"), float("-inf")):
            raise Unsupported("not a finite number")
        cell.set("t", "n")
        etree.SubElement(cell, _V).text = repr(value) if isinstance(value, float) else str(value)
        return
    raise Unsupported(f"a value of type {type(value).__name__}")
