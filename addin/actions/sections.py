"""The sections of the workbook the actions declare they read and write, named once."""

from __future__ import annotations

from addin.workbook.layout import Section

TOURNAMENT = frozenset(
    {
        Section.SETTINGS,
        Section.PLAYERS,
        Section.BANDS,
        Section.REQUESTS,
        Section.ROUNDS,
        Section.LOG,
    }
)
"""The tournament as ``addin.workbook.book`` reads it, with its Log (the stamps)."""

SETTLED = TOURNAMENT | {Section.MEMBERS, Section.EGD_LIST}
"""The tournament with every Players row settled (``addin.actions.intake``): the TDListA
is read when rows were typed since the last action, the EGD list when one holds a PIN."""

EVERYTHING = frozenset(Section) - {Section.REPORT_SHEETS}
"""Every section of the tournament (report sheets are printouts, not tournament data)."""

ROUNDS = frozenset({Section.ROUNDS, Section.PLAYERS})
"""A change to paired rounds; Players rows typed since the last action are completed."""

PLAYERS = frozenset({Section.PLAYERS})
"""A change to Players rows alone."""
