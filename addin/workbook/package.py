"""The .xlsx package's parts as the file store edits them: which part holds a sheet and
its Tables, a part copied as it is stored (compressed), and which ranges a sheet prints.

Free of openpyxl (a desk action need not import it), and shared by every writer: the
openpyxl gateway, xlwings, the file store's sheet edits.
"""

from __future__ import annotations

import posixpath
import re
import struct
import zipfile

from lxml import etree

from addin.workbook.layout import Table
from addin.workbook.table_rows import get_column_letter

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_NS = {"m": MAIN_NS}


def sheet_part(package: zipfile.ZipFile, sheet: str) -> str | None:
    """The zip path of the worksheet named ``sheet``, or None."""
    workbook = etree.fromstring(package.read("xl/workbook.xml"))
    rid = None
    for node in workbook.iterfind("m:sheets/m:sheet", _NS):
        if node.get("name") == sheet:
            rid = node.get(f"{{{REL_NS}}}id")
    if rid is None:
        return None
    rels = etree.fromstring(package.read("xl/_rels/workbook.xml.rels"))
    for rel in rels:
        if rel.get("Id") == rid:
            target = rel.get("Target", "")
            return target.lstrip("/") if target.startswith("/") else posixpath.join("xl", target)
    return None


def part_target(folder: str, target: str) -> str:
    """The zip path a relationship's ``Target`` names, from the folder of its source part."""
    return (
        target.lstrip("/")
        if target.startswith("/")
        else posixpath.normpath(posixpath.join(folder, target))
    )


def table_parts(package: zipfile.ZipFile, sheet_part_name: str) -> list[str]:
    """The zip paths of the Excel Tables a worksheet part holds (its relationships')."""
    folder, base = posixpath.split(sheet_part_name)
    rels = posixpath.join(folder, "_rels", base + ".rels")
    if rels not in package.namelist():
        return []
    return [
        part_target(folder, rel.get("Target", ""))
        for rel in etree.fromstring(package.read(rels))
        if rel.get("Type", "").endswith("/table") and rel.get("TargetMode") != "External"
    ]


# --- a part copied as stored ---------------------------------------------------------------

_LOCAL_HEADER = b"PK\x03\x04"
_LOCAL_HEADER_SIZE = 30
"""A zip part's local header: its signature and fixed size (the names follow it)."""


def _raw(package: zipfile.ZipFile, item: zipfile.ZipInfo) -> bytes:
    """A part's bytes as the package stores them (compressed), without inflating them."""
    fp = package.fp
    assert fp is not None
    fp.seek(item.header_offset)
    header = fp.read(_LOCAL_HEADER_SIZE)
    if len(header) != _LOCAL_HEADER_SIZE or header[:4] != _LOCAL_HEADER:
        raise zipfile.BadZipFile(f"bad local header for {item.filename}")
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    fp.seek(item.header_offset + _LOCAL_HEADER_SIZE + name_length + extra_length)
    return fp.read(item.compress_size)


def copy_compressed(package: zipfile.ZipFile, item: zipfile.ZipInfo, copy: zipfile.ZipFile) -> None:
    """``item`` into ``copy`` as stored, compressed bytes and all (its CRC checked)."""
    if item.flag_bits & 0x1 or item.compress_type not in (zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED):
        copy.writestr(item, package.read(item))  # encrypted or unusual: the ordinary way
        return
    raw = _raw(package, item)
    fp = copy.fp
    assert fp is not None
    new = zipfile.ZipInfo(item.filename, item.date_time)
    new.compress_type = item.compress_type
    new.external_attr = item.external_attr
    new.create_system = item.create_system
    new.CRC, new.compress_size, new.file_size = item.CRC, item.compress_size, item.file_size
    new.header_offset = fp.tell()
    fp.write(new.FileHeader(zip64=False))
    fp.write(raw)
    copy.filelist.append(new)
    copy.NameToInfo[new.filename] = new
    copy.start_dir = fp.tell()


# --- which ranges a sheet prints: each printed table's leading columns, left to right ------

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
    if table.printed_rows:
        bottom = top + table.printed_rows - 1
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
