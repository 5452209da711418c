"""The key of a bulk sheet that holds our own plain rows, shared by both file gateways.

``bulk_sheet`` writes a large table (the TDListA) as plain rows: inline strings, no
styles. The calamine reader and the openpyxl gateway read such rows to the same typed
rows, so what one read may be kept (``read_cache``) and used by the other: the key says
what such a reading depends on. A module of its own, below both gateways.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from addin.workbook.layout import Table

if TYPE_CHECKING:
    from zipfile import ZipFile


def plain_rows_key(source: Path | bytes, table: Table) -> str | None:
    """The key of ``table`` when its sheet holds our own plain rows (see
    ``CalamineReader.content_keys``), read from a file or a package's bytes; else None.
    Both gateways read such rows to the same typed rows, so both may share what is kept."""
    import io
    import zipfile

    from addin.workbook import read_cache
    from addin.workbook.package import sheet_part

    try:
        opened = io.BytesIO(source) if isinstance(source, bytes) else source
        with zipfile.ZipFile(opened) as package:
            part = sheet_part(package, table.sheet)
            plain = None if part is None else _plain_key(package, part, table)
    except Exception:
        return None
    return None if plain is None else read_cache.digest(plain)


def _plain_key(package: ZipFile, part: str, table: Table) -> bytes | None:
    """What a reading of our own plain rows depends on, or None for other rows."""
    from addin.workbook.bulk_sheet import (
        _LEAN_MARK,
        _ROW,
        _parse_rows,
        _shared_strings,
    )

    xml = package.read(part)
    start, end = xml.find(b"<sheetData>"), xml.rfind(b"</sheetData>")
    lean = xml.find(_LEAN_MARK, start)
    if start < 0 or end < lean or lean < 0 or xml.find(b"<sheetData", start + 1) >= 0:
        return None  # a search over megabytes: plain finds, never a regular expression
    header_xml = xml[start + len(b"<sheetData>") : lean]
    if any(int(row.group(1)) != 1 for row in _ROW.finditer(header_xml)):
        return None
    data = xml[lean:end]
    if b' t="s"' in data or b' s="' in data or b"<sheetData" in data:
        return None
    names = set(package.namelist())
    shared = (
        _shared_strings(package.read("xl/sharedStrings.xml"))
        if "xl/sharedStrings.xml" in names
        else []
    )
    header = repr(_parse_rows(header_xml, shared)).encode()
    styles = package.read("xl/styles.xml") if "xl/styles.xml" in names else b""
    first = re.search(rb"<cellXfs\b[^>]*>\s*(<xf\b[^>]*>)", styles)
    default = first.group(1) if first else b""  # the format of a cell without a style
    number = re.search(rb'numFmtId="([0-9]+)"', default)
    custom = (
        re.search(rb'<numFmt\b[^>]*numFmtId="' + number.group(1) + rb'"[^>]*>', styles)
        if number and int(number.group(1)) >= 164
        else None
    )
    folder, name = part.rsplit("/", 1)
    rels = f"{folder}/_rels/{name}.rels"
    own = f'name="{table.name}"'.encode()
    tables = b"".join(
        content
        for n in sorted(names)
        if n.startswith("xl/tables/") and own in (content := package.read(n))
    )
    return b"\0".join(
        [
            b"plain rows",
            repr(table).encode(),
            header,
            xml[:start],
            xml[end:],
            default,
            custom.group(0) if custom else b"",
            tables,
            package.read(rels) if rels in names else b"",
            data,
        ]
    )
