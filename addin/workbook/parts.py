"""What each problem found by reading affects: a player's cell, a round, a request, a setting.

An action then stops only on the problems in what it needs (``addin.actions.needs``) and
goes on past the others with a warning naming the cell. A problem this module cannot place
(a missing header row, an unreadable sheet) affects the whole tournament.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace

from addin.workbook.gateway import Part, Problem, Row, TableData
from addin.workbook.layout import BANDS, REQUESTS, SETTINGS, players_table, round_number_of

CONTACT_COLUMNS = frozenset(
    {
        "membership_type",
        "membership_expiry",
        "email",
        "phone",
        "address",
        "citizenship",
        "egd_pin",
        "birth_date",
        "aga_fee",
        "notes",
    }
)
"""Players columns only registration, reports and exports read."""

SCORING_COLUMNS = frozenset(
    {"aga_id", "family_name", "given_name", "band", "band_override", "initial_score", "status"}
)
"""Players columns the McMahon scores, tiebreaks and standings read."""

FEE_COLUMNS = frozenset({"aga_fee"})
"""The Players column the AGA export reads beyond the players it names."""

EGD_COLUMNS = SCORING_COLUMNS | {"rank", "rating", "chapter", "country", "egd_pin"}
"""The Players columns the EGD's table reads: the standings', and each line's grade, club,
country and PIN."""

_EVERY_COLUMN = frozenset(c.key for c in players_table(30).columns)
PAIRING_COLUMNS = _EVERY_COLUMN - CONTACT_COLUMNS
"""Players columns a pairing, or a file another program pairs from, reads."""
DIRECTOR_COLUMNS = PAIRING_COLUMNS - {"rank"}
"""Players columns the director's operations read: entry ratings, never ranks."""

DESCRIPTIVE_SETTINGS = frozenset(
    {"name", "venue", "venue_address", "end_date", "basic_time_minutes", "overtime_format"}
    | {"overtime_conditions"}
    | {f"{who}_{what}" for who in ("director", "sponsor", "convener")
        for what in ("name", "address", "phone", "email", "web")}
)  # fmt: skip
"""Settings that only describe the event (reports and the AGA files print them)."""

PLAYING_SETTINGS = frozenset(s.key for s in SETTINGS) - DESCRIPTIVE_SETTINGS
"""Settings that decide pairings, bands, scores and registration."""


def is_aga_id(part: Part | None) -> bool:
    """Whether ``part`` is a player's AGA # cell (one that cannot be read loses the player)."""
    return part is not None and part.column == "aga_id"


_ROW = re.compile(r"^[A-Z]+(\d+)$")
_SETTING_BY_LABEL = {" ".join(s.label.split()).casefold(): s.key for s in SETTINGS}


def _row_of(problem: Problem, data: TableData | None) -> Row | None:
    match = _ROW.match(problem.cell or "")
    if data is None or match is None:
        return None
    number = int(match.group(1))
    return next((r for r in data.rows if r.number == number), None)


def _column_key(problem: Problem, data: TableData) -> str | None:
    header = " ".join((problem.column or "").split()).casefold()
    return next(
        (c.key for c in data.table.columns if " ".join(c.header.split()).casefold() == header),
        None,
    )


def part_of(
    problem: Problem,
    tables: dict[str, TableData],
    settings_sheet: str,
    players: Collection[object] = (),
) -> Part | None:
    """The part of the tournament ``problem``'s cell feeds (``None``: all of it).

    A Players row that did not become a player (``players`` are those that did) is keyed
    ``None``: whoever pairs the field needs it, since it may be a player left out."""
    if problem.affects is not None:
        return problem.affects
    sheet = problem.sheet
    number = round_number_of(sheet)
    if number is not None:
        return Part("round", number)
    if sheet == BANDS.sheet:
        return Part("bands")
    if sheet == REQUESTS.sheet:
        row = _row_of(problem, tables.get(REQUESTS.name))
        return Part("requests", row.get("round") if row is not None else None)
    if sheet == settings_sheet:
        key = _SETTING_BY_LABEL.get(" ".join((problem.column or "").split()).casefold())
        return Part("setting", key) if key else None
    players_data = tables.get("Players")
    if players_data is not None and sheet == players_data.table.sheet:
        row = _row_of(problem, players_data)
        if row is None:
            return None  # the header row: every player
        aga_id = row.get("aga_id")
        player = aga_id if aga_id in players else None
        return Part("player", player, _column_key(problem, players_data))
    return None


def with_parts(
    problems: list[Problem],
    tables: dict[str, TableData],
    settings_sheet: str,
    players: Collection[object],
) -> list[Problem]:
    return [replace(p, affects=part_of(p, tables, settings_sheet, players)) for p in problems]
