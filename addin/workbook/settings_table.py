"""The Tournament sheet's Settings table as actions change it, one setting or all of them.

Actions speak of settings by key (``bar``, ``mcmahon_rules``); the rows, labels and cells
are found here.
"""

from __future__ import annotations

from collections.abc import Mapping

from addin.workbook import cells
from addin.workbook.book import (
    SETTING_BY_LABEL,
    Book,
    _setting_column,
    copy_row,
    settings_rows,
)
from addin.workbook.gateway import Problem, Row, Tables
from addin.workbook.layout import SETTINGS, SETTINGS_TABLE


def label(key: str) -> str:
    """The Setting column's text of setting ``key``."""
    return next(s.label for s in SETTINGS if s.key == key)


def shown(key: str, value: object) -> str:
    """``value`` as the Value cell of setting ``key`` shows it; "(blank)" for nothing."""
    setting = next(s for s in SETTINGS if s.key == key)
    text = cells.render(value, _setting_column(setting))
    return "(blank)" if text in (None, "") else str(text)


def setting_problem(b: Book, key: str, message: str) -> Problem:
    """``message`` on the Value cell of setting ``key``."""
    return Problem(SETTINGS_TABLE.sheet, message, b.settings.cell(key), key)


def _key_of(row: Row) -> str | None:
    setting = SETTING_BY_LABEL.get(" ".join(str(row.get("setting", "")).split()).casefold())
    return setting.key if setting else None


def write_setting(tables: Tables, b: Book, key: str, value: object) -> None:
    """Setting ``key`` set to ``value`` in its row (added if the TD deleted it); every other
    row, and what the TD typed in it, as it was."""
    rows = [copy_row(r) for r in b.settings.data.rows]
    row = next((r for r in rows if _key_of(r) == key), None)
    if row is None:
        row = Row({"setting": label(key)})
        rows.append(row)
    row.values["value"] = value
    tables.write_table(SETTINGS_TABLE, rows)


def write_settings(tables: Tables, values: Mapping[str, object]) -> None:
    """Every setting's row written afresh from ``values`` (setting key -> value)."""
    tables.write_table(SETTINGS_TABLE, settings_rows(values))
