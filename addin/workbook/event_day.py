"""The event's first day, read alone from the Tournament sheet: what a look-up needs to mark
lapsed memberships, without the whole settings reader (``book.read_settings``) and what it
imports, so a look-up stays at the desk's pace."""

from __future__ import annotations

from datetime import date, datetime

from addin.workbook import cells
from addin.workbook.gateway import TableSource
from addin.workbook.layout import SETTINGS, SETTINGS_TABLE, Column

_START = next(s for s in SETTINGS if s.key == "start_date")


def first_day(tables: TableSource) -> date | None:
    """The Start date; None when it is blank or unreadable (the actions that need it name
    the cell)."""
    label = " ".join(_START.label.split()).casefold()
    for row in tables.read_table(SETTINGS_TABLE).rows:
        if " ".join(str(row.get("setting", "")).split()).casefold() != label:
            continue
        try:
            column = Column(_START.key, _START.label, _START.kind)
            value = cells.parse(row.values.get("value"), column)
        except cells.CellError:
            return None
        if isinstance(value, datetime):
            return value.date()
        return value if isinstance(value, date) else None
    return None
