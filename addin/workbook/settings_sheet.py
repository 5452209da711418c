"""The Tournament sheet's dropdowns: a list for every fixed choice, an input message for all.

Each Setting row's Value cell gets a data validation derived from the layout: its
choices, Yes/No for a switch, and for the tiebreak order a list of usual orders kept
beside the settings (a list typed into a validation cannot hold commas). The error
style is "warning", so a TD may still type an order of their own.
"""

from __future__ import annotations

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from addin.workbook.layout import SETTINGS, SETTINGS_TABLE, YES_NO, Kind, Setting, setting_help
from addin.workbook.styling import HEADER_FONT

TIEBREAK_ORDERS = (
    "SOS, SODOS, Face to face, Random",
    "SOS, SOSOS, SODOS, Random",
    "Wins, SOS, SODOS, Random",
    "SOS-1, SOS, SODOS, Random",
    "CUSS, SOS, SODOS, Random",
)
"""Usual tiebreak orders; the first is the AGA standard."""
ORDERS_HEADER = "Tiebreak orders"
ORDERS_ROW = 6
"""Where the orders list starts, under the Summary beside the settings."""


def choices_of(setting: Setting) -> tuple[str, ...]:
    if setting.kind is Kind.BOOL:
        return YES_NO
    return setting.choices


def _orders_range(ws: Worksheet) -> str:
    column = SETTINGS_TABLE.anchor_column + len(SETTINGS_TABLE.columns) + 1
    letter = get_column_letter(column)
    ws.cell(row=ORDERS_ROW, column=column, value=ORDERS_HEADER).font = HEADER_FONT
    for i, order in enumerate(TIEBREAK_ORDERS, start=1):
        ws.cell(row=ORDERS_ROW + i, column=column, value=order)
    return f"${letter}${ORDERS_ROW + 1}:${letter}${ORDERS_ROW + len(TIEBREAK_ORDERS)}"


def add_dropdowns(ws: Worksheet, first_row: int = 2) -> None:
    """A dropdown (or an input message) on each setting's Value cell, rows in layout order."""
    value_column = SETTINGS_TABLE.anchor_column + [c.key for c in SETTINGS_TABLE.columns].index(
        "value"
    )
    letter = get_column_letter(value_column)
    for offset, setting in enumerate(SETTINGS):
        cell = f"{letter}{first_row + offset}"
        choices = choices_of(setting)
        if choices:
            source = '"' + ",".join(choices) + '"'
        elif setting.key == "tiebreaks":
            source = _orders_range(ws)
        else:
            source = None
        if source is None:
            validation = DataValidation(showInputMessage=True)
        else:
            validation = DataValidation(
                type="list",
                formula1=source,
                allow_blank=True,
                errorStyle="warning",
                showErrorMessage=True,
                showInputMessage=True,
                errorTitle=setting.label[:32],
                error="Not one of the listed choices; keep it anyway?",
            )
        validation.promptTitle = setting.label[:32]
        validation.prompt = setting_help(setting)[:255]
        validation.add(cell)
        ws.add_data_validation(validation)
