"""Carry very large sheets (the 22,410-row TDListA, the EGD's 45,000 players) past openpyxl.

openpyxl parses about 20,000 cells a second: a workbook holding the full
TDListA takes ten seconds to open, on every action, even those that never look
at the list. So the openpyxl gateway hands openpyxl a copy of the file in which
those sheets hold only their header rows, and keeps the data rows here as XML.
They are read, when an action asks, by a fast lxml pass; written as plain rows
(inline strings, no styles, dates as ISO text); and spliced back into the file
openpyxl saves.

Rows that Excel re-saved (shared strings, styles, extension attributes) are
rewritten in the plain form on the next save, so the spliced XML never refers
to another part of the package. Formatting a TD applies to TDListA data cells
is therefore not kept; the header row, the Excel Table and the column widths
are, since openpyxl handles them.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

from lxml import etree

from addin.workbook.gateway import WorkbookError
from addin.workbook.package import (
    _NS,
    MAIN_NS,
    copy_compressed,
    sheet_part,
)

_SHEET_DATA = re.compile(rb"<sheetData\s*/>|<sheetData>(.*?)</sheetData>", re.S)
_ROW = re.compile(rb"<row\b[^>]*?\br=\"(\d+)\"[^>]*?(?:/>|>.*?</row>)", re.S)
_DIMENSION = re.compile(rb"<dimension ref=\"[^\"]*\"\s*/>")
_LEAN_MARK = b'<row r="2" customFormat="0">'
"""Our own plain rows start with this; anything else is re-read and rewritten."""


def escape(text: str) -> str:
    """``xml.sax.saxutils.escape`` (that module imports urllib: 60 ms on every command)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def unescape(text: str) -> str:
    """``xml.sax.saxutils.unescape``."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _column_letter(index: int) -> str:
    letters = ""
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


LAST_COLUMN = 16_384
"""XFD, a worksheet's last column: a reference past it is a hostile file, and padding a row
out to it would ask for more memory than the machine has."""


class CellOutOfSheet(ValueError):
    """A cell reference past a worksheet's last column."""

    def __init__(self, ref: str) -> None:
        super().__init__(ref)
        self.ref = ref


def _column_index(ref: str, row_xml: str = "") -> int:
    n = 0
    for ch in ref:
        if not ch.isalpha():
            break
        n = n * 26 + ord(ch.upper()) - 64
        if n > LAST_COLUMN:
            found = re.search(r'<c r="(' + re.escape(ref) + r'\d*)"', row_xml)
            raise CellOutOfSheet(found.group(1) if found else ref)
    return n


@dataclass
class BulkSheet:
    sheet: str
    rows_xml: bytes
    """The data rows (row 2 onwards) as they stand in the file."""
    shared_strings: Sequence[str] = ()
    changed: bool = False
    _values: list[list[object]] | None = field(default=None, repr=False)
    original: bytes | None = field(default=None, repr=False)
    """The package the rows were read from: its sheet part is copied as it is stored when
    the sheet comes out the same."""

    @property
    def lean(self) -> bool:
        return not self.rows_xml or self.rows_xml.startswith(_LEAN_MARK)

    def values(self) -> list[list[object]]:
        """Each data row's cell values, by column position from A (None for a blank cell)."""
        if self._values is None:
            try:
                if self.lean:
                    self._values = _parse_lean_rows(self.rows_xml)
                else:
                    self._values = _parse_rows(self.rows_xml, self.shared_strings)
            except CellOutOfSheet as err:
                raise WorkbookError(
                    f"{self.sheet} sheet: the cell reference {err.ref[:24]} is past a "
                    "worksheet's last column (XFD); the file was not saved by a spreadsheet"
                ) from err
        return self._values

    def set_values(self, rows: Iterable[Sequence[object]]) -> None:
        self._values = [list(r) for r in rows]
        self.changed = True

    def row_count(self) -> int:
        if self._values is not None:
            return len(self._values)
        return self.rows_xml.count(b"<row ")

    def data_xml(self) -> bytes:
        if not self.changed and self.lean:
            return self.rows_xml
        return _lean_rows(self.values())


def split(data: bytes, sheets: Sequence[str]) -> tuple[bytes, list[BulkSheet]]:
    """A copy of the package whose ``sheets`` keep only their header rows, and the rows set
    aside (a sheet that is missing or has no data rows stays as it is)."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        stubs: dict[str, bytes] = {}
        found: list[BulkSheet] = []
        strings: list[str] | None = None
        for sheet in sheets:
            part = sheet_part(package, sheet)
            if part is None or part not in package.namelist():
                continue
            xml = package.read(part)
            match = _SHEET_DATA.search(xml)
            if match is None or not match.group(1):
                continue
            rows = match.group(1)
            header_end = 0
            for row in _ROW.finditer(rows):
                if int(row.group(1)) > 1:
                    break
                header_end = row.end()
            data_rows = rows[header_end:]
            if not data_rows.strip():
                continue
            stubs[part] = xml[: match.start(1)] + rows[:header_end] + xml[match.end(1) :]
            if strings is None and not data_rows.startswith(_LEAN_MARK):
                strings = []  # Excel re-saved the rows: they refer to the shared strings
                if "xl/sharedStrings.xml" in package.namelist():
                    strings = _shared_strings(package.read("xl/sharedStrings.xml"))
            found.append(BulkSheet(sheet, data_rows, strings or [], original=data))
        if not stubs:
            return data, []
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as copy:  # for openpyxl, in memory
            for item in package.infolist():
                content = stubs.get(item.filename)
                copy.writestr(_stored(item), package.read(item) if content is None else content)
    return out.getvalue(), found


def splice_bytes(data: bytes, bulk: BulkSheet, width: int) -> bytes:
    """The package ``data`` with ``bulk``'s rows put back into its sheet.

    Every other part is copied as it is, still compressed; so is the sheet itself when it
    comes out byte for byte as the file it was read from holds it (an action that left
    the TDListA alone): compressing its megabytes again would be most of the save.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        part = sheet_part(package, bulk.sheet)
        if part is None:
            return data
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
            for item in package.infolist():
                if item.filename != part:
                    copy_compressed(package, item, copy)
                    continue
                rows = bulk.data_xml()
                dimension = f"A1:{_column_letter(width)}{1 + bulk.row_count()}"
                content = _with_rows(package.read(item), rows, dimension)
                if not _copy_unchanged(bulk.original, part, content, copy):
                    copy.writestr(item, content)
    return out.getvalue()


def _stored(item: zipfile.ZipInfo) -> zipfile.ZipInfo:
    stored = zipfile.ZipInfo(item.filename, item.date_time)
    stored.compress_type = zipfile.ZIP_STORED
    stored.external_attr = item.external_attr
    return stored


def _copy_unchanged(
    original: bytes | None, part: str, content: bytes, copy: zipfile.ZipFile
) -> bool:
    """Copy ``part`` from the ``original`` package, compressed, when it holds ``content``
    exactly; False (nothing copied) otherwise."""
    if original is None:
        return False
    with zipfile.ZipFile(io.BytesIO(original)) as package:
        try:
            item = package.getinfo(part)
        except KeyError:
            return False
        if item.file_size != len(content) or zlib.crc32(content) != item.CRC:
            return False
        if package.read(item) != content:
            return False
        copy_compressed(package, item, copy)
    return True


def _with_rows(xml: bytes, rows: bytes, dimension: str) -> bytes:
    match = _SHEET_DATA.search(xml)
    assert match is not None, "openpyxl always writes sheetData"
    header = match.group(1) or b""
    xml = (
        xml[: match.start()] + b"<sheetData>" + header + rows + b"</sheetData>" + xml[match.end() :]
    )
    return _DIMENSION.sub(f'<dimension ref="{dimension}"/>'.encode(), xml, count=1)


def _shared_strings(xml: bytes) -> list[str]:
    root = etree.fromstring(xml)
    return ["".join(si.itertext()) for si in root.iterfind("m:si", _NS)]


_LEAN_CELL = re.compile(
    r'<c r="([A-Z]+)\d+"(?: t="(inlineStr|b)")?>'
    r'(?:<is><t(?: xml:space="preserve")?>(.*?)</t></is>|<v>(.*?)</v>)</c>'
)


def _parse_lean_rows(rows_xml: bytes) -> list[list[object]]:
    """Our own plain rows, read with one regular expression: ten times lxml's pace."""
    result: list[list[object]] = []
    for row in rows_xml.decode("utf-8").split("</row>")[:-1]:
        values: list[object] = []
        for column, kind, text, number in _LEAN_CELL.findall(row):
            index = _column_index(column, row)
            while len(values) < index - 1:
                values.append(None)
            if kind == "inlineStr":
                values.append(unescape(text))
            elif kind == "b":
                values.append(number == "1")
            else:
                values.append(float(number) if "." in number or "e" in number else int(number))
        result.append(values)
    return result


def _parse_rows(rows_xml: bytes, shared: Sequence[str]) -> list[list[object]]:
    if not rows_xml.strip():
        return []
    root = etree.fromstring(
        b'<sheetData xmlns="' + MAIN_NS.encode() + b'" '
        b'xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac">'
        + rows_xml
        + b"</sheetData>",
        etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True),
    )
    c_tag, v_tag, is_tag = (f"{{{MAIN_NS}}}{t}" for t in ("c", "v", "is"))
    result: list[list[object]] = []
    for row in root:
        values: list[object] = []
        for cell in row.iter(c_tag):
            index = _column_index(cell.get("r", "")) or len(values) + 1
            while len(values) < index - 1:
                values.append(None)
            values.append(_cell_value(cell, shared, v_tag, is_tag))
        result.append(values)
    return result


def _cell_value(cell: etree._Element, shared: Sequence[str], v_tag: str, is_tag: str) -> object:
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        node = cell.find(is_tag)
        return "".join(node.itertext()) if node is not None else None
    v = cell.find(v_tag)
    if v is None or v.text is None:
        return None
    if kind == "s":
        return shared[int(v.text)]
    if kind in ("str", "e"):
        return v.text
    if kind == "b":
        return v.text == "1"
    number = float(v.text)
    return int(number) if number.is_integer() and "." not in v.text else number


def _lean_rows(rows: Sequence[Sequence[object]]) -> bytes:
    width = max((len(r) for r in rows), default=0)
    letters = [_column_letter(j) for j in range(1, width + 1)]
    parts: list[str] = []
    for i, row in enumerate(rows, start=2):
        cells: list[str] = []
        for letter, value in zip(letters, row, strict=False):
            if value is None or value == "":
                continue
            if isinstance(value, bool):
                cells.append(f'<c r="{letter}{i}" t="b"><v>{int(value)}</v></c>')
            elif isinstance(value, int | float):
                cells.append(f'<c r="{letter}{i}"><v>{value!r}</v></c>')
            else:
                if isinstance(value, datetime | date):
                    value = value.isoformat()
                text = escape(str(value))
                space = ' xml:space="preserve"' if text != text.strip() else ""
                cells.append(f'<c r="{letter}{i}" t="inlineStr"><is><t{space}>{text}</t></is></c>')
        parts.append(f'<row r="{i}" customFormat="0">{"".join(cells)}</row>')
    return "".join(parts).encode("utf-8")
