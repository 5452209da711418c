"""The Log sheet as the actions read it: each row's level and message, oldest first.

The Log is how an action knows what earlier ones did (the pairing stamps, a round
unpaired, warnings already accepted); appending to it is the gateway's ``append_log``.
"""

from __future__ import annotations

from addin.workbook.gateway import TableSource
from addin.workbook.layout import LOG


def read_log(tables: TableSource) -> list[tuple[str, str]]:
    """(level, message) of every Log row, oldest first."""
    return [
        (str(r.get("level", "")), str(r.get("message", ""))) for r in tables.read_table(LOG).rows
    ]
