"""The codes table of a Round sheet: each board's result code, as the TD's copy.

What a code is and how one is made belongs to ``addin.publish``; this module only
knows where the codes live.
"""

from __future__ import annotations

from collections.abc import Mapping

from addin.workbook.gateway import Tables, TableSource
from addin.workbook.layout import codes_table


def read_round_codes(tables: TableSource, number: int) -> list[tuple[object, object]]:
    """Each row's (board, code) as read, of round ``number`` (none before codes existed)."""
    return [
        (row.get("board"), row.get("code")) for row in tables.read_table(codes_table(number)).rows
    ]


def write_round_codes(tables: Tables, number: int, codes: Mapping[int, str]) -> None:
    """Replace round ``number``'s codes with ``codes`` (board -> code), boards in order."""
    rows = [{"board": board, "code": code} for board, code in sorted(codes.items())]
    tables.write_table(codes_table(number), rows)
