"""Creating a tournament (``new``), checking a workbook (``check``), and selecting a
look-up's matches in a window (``select-matches``, lookup's follow-up)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from addin.actions import intake
from addin.actions.change import (
    ActionError,
    Ask,
    Change,
    Draft,
    NewWorkbook,
    OpenFile,
    ParamError,
    SelectRows,
    Snapshot,
)
from addin.actions.member_list import read_members
from addin.actions.registry import ParamKind, action, param
from addin.actions.station_waiting import waiting_entries
from addin.core.limits import MAX_ROUNDS
from addin.workbook import book, players_sheet, selected_rows
from addin.workbook.gateway import Problem
from addin.workbook.layout import Section

SETTINGS = ("name", "start_date", "end_date", "rounds")
"""The ``new`` parameters that are settings of the tournament."""
EVERYTHING = frozenset(Section) - {Section.REPORT_SHEETS}
"""Every section of the tournament (report sheets are printouts, not tournament data)."""


@dataclass(frozen=True, kw_only=True)
class NewParams:
    book: Path = param("the .xlsx file to create", ParamKind.FILE_OUT, required=True)
    name: str | None = param("tournament name")
    start_date: date | None = param("start date, YYYY-MM-DD", asked=False, option="start")
    end_date: date | None = param("end date, YYYY-MM-DD", asked=False, option="end")
    rounds: int | None = param(
        f"number of rounds, 1 to {MAX_ROUNDS} (default 5)", bounds=(1, MAX_ROUNDS)
    )
    force: bool = False
    """Replace a file already there: ``--force``, or the TD's answer in a window."""


@action(
    "new",
    "New tournament",
    "create a new tournament workbook from the template",
    NewParams,
    creates=True,
)
def new(snapshot: Snapshot, p: NewParams) -> Change:
    """The workbook to make (the store saves and journals it); the door is asked to show
    it. A window asks before replacing a file; the command line needs ``--force``."""
    draft = Draft(snapshot)
    path = p.book
    if not snapshot.terminal and path.suffix.lower() != ".xlsx":
        path = path.with_suffix(".xlsx")  # a name typed in a save dialog
    if p.start_date and p.end_date and p.end_date < p.start_date:
        raise ParamError(f"--end {p.end_date} is before --start {p.start_date}")
    if not path.parent.is_dir():
        raise ActionError(f"there is no folder {path.parent}")
    replace = p.force or snapshot.force
    if path.exists() and not replace and not snapshot.terminal:
        raise Ask(f"{path.name} exists. Replace it?", {"force": True})
    values = {k: getattr(p, k) for k in SETTINGS if getattr(p, k) is not None}
    settings = book.settings_from_values({**book.default_values(), **values})
    draft.note(
        f"Created {path.name}: {settings.name or 'unnamed tournament'}, {settings.rounds} rounds"
    )
    draft.say(f"Created {path}")
    draft.say(next_step(path, snapshot.terminal))
    draft.request(OpenFile(path))
    draft.change.creates = NewWorkbook(path, values, replace=replace)
    return draft.change


def next_step(path: Path, terminal: bool) -> str:
    """What a TD does after ``new``: the event's settings, then the membership list (the
    command line names the command; a window the button)."""
    settings = "fill the Tournament sheet (venue, director, time, komi, the bar)"
    if not terminal:
        return f"Next: {settings}, then click Download rating list."
    return (
        f"Next: {settings}, then load the AGA membership list: "
        f"python -m addin import-tdlista {shlex.quote(str(path))} --download"
    )


@action(
    "check",
    "Check workbook",
    "check every sheet; list each problem with its cell",
    reads=EVERYTHING,
    changes=False,
)
def check_workbook(snapshot: Snapshot, p: object) -> Change:
    """List every problem, warning and note; a workbook with problems fails the check. A
    terminal shows the count last (under the list), a dialog first (it cuts long lists)."""
    draft = Draft(snapshot)
    problems, notices, warnings = check(draft)
    lines = [f"problem: {p}" for p in problems] + [f"warning: {w}" for w in warnings]
    lines += [f"note: {n}" for n in notices]
    summary = (
        f"{len(problems)} problem(s), {len(warnings)} warning(s) to confirm, {len(notices)} note(s)"
    )
    draft.change.messages += lines
    draft.change.summary = f"{snapshot.source}: {summary}"
    draft.change.problems_found = bool(problems)
    return draft.change


MATCHES_SELECTED = (
    "The matches are selected on the TDListA sheet: click Register player to add them."
)


@dataclass(frozen=True, kw_only=True)
class QueryParams:
    query: str | None = param(
        "a family name prefix, 'Family, Given', or an AGA number", positional=True
    )


@action(
    "select-matches",
    "Select the matches",
    "find the TDListA rows of a look-up's matches (a window selects them)",
    QueryParams,
    button=False,
    reads={Section.MEMBERS},
    changes=False,
)
def select_matches(snapshot: Snapshot, p: QueryParams) -> Change:
    draft = Draft(snapshot)
    found = {m.aga_id for m in read_members(draft).search(p.query or "")}
    rows = tuple(selected_rows.member_rows(draft, found))
    if rows:
        sheet, columns = selected_rows.member_list_area()
        draft.request(SelectRows(sheet, rows, columns, MATCHES_SELECTED))
    return draft.change


def check(draft: Draft) -> tuple[list[Problem], list[Problem], list[str]]:
    """Every problem in the workbook, every tolerated oddity (with what the next action
    fills in), and the warnings the next action will ask about (``addin.actions.intake``)."""
    b = book.read_book(draft)
    problems, warnings, fills = intake.check_report(draft, b)
    warnings += [
        f"a station's entry is not in the workbook yet: {w}"
        for w in waiting_entries(draft, b.tournament)
    ]
    notices = [n for data in b.tables.values() for n in data.notices]
    notices += [n for n in b.settings.data.notices]
    notices += [players_sheet.sheet_notice(fill) for fill in fills]
    return problems, notices, warnings
