"""A report as a sheet ("Report - Pairing list"), to print from Excel like any other sheet.

The table is declared here, per report, with ``layout.Table`` and ``layout.Column``
instances: report columns depend on the round count and the tiebreak order, so they are
not part of the fixed workbook layout. Writing goes through ``TableSink.write_table`` (so
the sheet gets the usual Excel Table, frozen header and Letter print setup); the old
sheet is removed first, because a report's columns change with its sort and round.
"""

from __future__ import annotations

import re

from addin.reports.model import Format, GameCell, Report
from addin.workbook.gateway import Tables
from addin.workbook.layout import Column, Kind, Owner, Table

_KIND = {
    Format.TEXT: Kind.TEXT,
    Format.GAME: Kind.TEXT,
    Format.INT: Kind.INT,
    Format.SCORE: Kind.FLOAT,
    Format.RATING: Kind.FLOAT,
    Format.CHANGE: Kind.FLOAT,
}
_NUMBER_FORMAT = {Format.RATING: "0.00", Format.CHANGE: "+0.00;-0.00;0.00"}
SHEET_PREFIX = "Report - "


def sheet_name(report: Report) -> str:
    """ "Report - Pairing list": Excel forbids []:*?/\\ and allows 31 characters."""
    title = re.sub(r"[\[\]:*?/\\]", "-", report.title)
    return (SHEET_PREFIX + title)[:31]


def table_for(report: Report) -> Table:
    columns = tuple(
        Column(
            key=c.key,
            header=c.header,
            kind=_KIND[c.format],
            owner=Owner.STANDINGS,
            width=float(max(c.width, len(c.header)) + 2),
            number_format=_NUMBER_FORMAT.get(c.format),
        )
        for c in report.columns
    )
    name = "Report" + "".join(w.capitalize() for w in re.findall(r"[A-Za-z]+", report.title))
    return Table(sheet=sheet_name(report), name=name, columns=columns)


def sheet_rows(report: Report) -> list[dict[str, object]]:
    """Rows for ``TableSink.write_table``: numbers stay numbers, cross-table cells become text."""
    return [
        {k: str(v) if isinstance(v, GameCell) else v for k, v in record.items()}
        for record in report.records()
    ]


def write_sheet(tables: Tables, report: Report) -> str:
    """Replace the report's sheet with this report; returns the sheet's name."""
    table = table_for(report)
    tables.remove_sheet(table.sheet)
    tables.write_table(table, sheet_rows(report))
    return table.sheet
