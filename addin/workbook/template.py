"""Build a new tournament workbook from the layout.

``workbook_template.xlsx`` at the top of the repository is this builder's output
with default settings; a test proves the committed file has the same content.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import openpyxl
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from addin.workbook import book, saving, settings_sheet, styling
from addin.workbook.layout import SETTINGS_TABLE, fixed_tables, players_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway


def build(values: Mapping[str, object] | None = None) -> Workbook:
    """A workbook with every fixed sheet, formatted, and the Settings filled in."""
    settings_values = book.default_values()
    settings_values.update(values or {})
    settings = book.settings_from_values(settings_values)
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for table in fixed_tables(settings.rounds, settings.tiebreaks):
        ws = wb.create_sheet(table.sheet)
        styling.format_sheet(ws, table.freeze, settings.name, wide=styling.is_wide(table))
        styling.format_table(ws, table)
    gw = OpenpyxlGateway(wb)
    gw.write_table(SETTINGS_TABLE, book.settings_rows(settings_values))
    _summary(wb, settings.rounds)
    settings_sheet.add_dropdowns(wb[SETTINGS_TABLE.sheet])
    wb.properties.creator = "addin"
    wb.properties.title = settings.name or "AGA Swiss McMahon tournament"
    return wb


def _summary(wb: Workbook, rounds: int) -> None:
    """Live counts beside the settings, as formulas Excel and LibreOffice recalculate."""
    players = players_table(rounds)
    aga = get_column_letter(players.anchor_column + players.columns.index(players.column("aga_id")))
    status = get_column_letter(
        players.anchor_column + players.columns.index(players.column("status"))
    )
    last = styling.VALIDATED_ROWS + 1
    ws = wb[SETTINGS_TABLE.sheet]
    column = SETTINGS_TABLE.anchor_column + len(SETTINGS_TABLE.columns) + 1
    ws.cell(row=1, column=column, value="Summary").font = styling.HEADER_FONT
    ws.cell(row=2, column=column, value="Players registered")
    ws.cell(row=2, column=column + 1, value=f"=COUNT(Players!{aga}2:{aga}{last})")
    ws.cell(row=3, column=column, value="Dropped")
    ws.cell(row=3, column=column + 1, value=f'=COUNTIF(Players!{status}2:{status}{last},"Dropped")')
    ws.column_dimensions[get_column_letter(column)].width = 20


def content(path: Path | str) -> dict[str, object]:
    """What a workbook holds, independent of zip timestamps: cells, tables, validations, setup."""
    wb = openpyxl.load_workbook(path)
    sheets: dict[str, object] = {}
    for ws in wb.worksheets:
        sheets[ws.title] = {
            "cells": [
                (c.coordinate, c.value, c.number_format)
                for row in ws.iter_rows()
                for c in row
                if c.value is not None
            ],
            "tables": sorted((t.name, t.ref) for t in ws.tables.values()),
            "validations": sorted(
                (str(v.sqref), v.formula1 or "", v.prompt or "")
                for v in ws.data_validations.dataValidation
            ),
            "widths": sorted(
                (k, round(d.width, 2)) for k, d in ws.column_dimensions.items() if d.width
            ),
            "freeze": ws.freeze_panes,
            "print_titles": str(ws.print_title_rows),
            "orientation": ws.page_setup.orientation,
            "fit_to_width": ws.page_setup.fitToWidth,
        }
    return {"sheets": list(wb.sheetnames), "content": sheets}


def write_template(path: Path | str, *, force: bool = False) -> None:
    """Write the blank template; refused over a tournament workbook unless ``force``
    (then that workbook is kept as a backup)."""
    clobbers = saving.guard_output(Path(path), force=force)
    saving.save_atomically(build().save, Path(path), keep=saving.BACKUPS_KEPT if clobbers else 0)
