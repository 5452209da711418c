"""The guide's section (a heading anchor of docs/guide.md) that explains each fixed sheet;
the doors link a sheet's Help button to it. A Round sheet and any other sheet: the "In Excel"
section."""

from __future__ import annotations

SHEET_GUIDE = {
    "Tournament": "the-workbook",
    "Players": "a-tds-day",
    "Bands": "what-you-can-type-and-what-the-program-does-with-it",
    "Requests": "the-workbook",
    "Standings": "reports-for-the-wall",
    "Cross Table": "reports-for-the-wall",
    "TDListA": "a-tds-day",
    "EGD list": "a-european-event-from-the-egd-list",
    "Log": "undo-and-history",
}
"""Sheet name -> docs/guide.md anchor, for every sheet of ``layout.SHEET_ORDER``."""
