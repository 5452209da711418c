"""Creating a tournament (``new``), checking a workbook (``check``), and selecting a
look-up's matches in a window (``select-matches``, lookup's follow-up)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from addin.actions import intake
from addin.actions.member_list import read_members
from addin.actions.registry import Param, ParamKind, action
from addin.actions.session import (
    ActionError,
    Cancelled,
    OpenFile,
    ParamError,
    SelectRows,
    Session,
)
from addin.core.limits import MAX_ROUNDS
from addin.workbook import book, players_sheet, selected_rows, template
from addin.workbook.gateway import Gateway, Problem
from addin.workbook.member_sheet import MEMBER_SHEETS
from addin.workbook.openpyxl_gateway import OpenpyxlGateway

SETTINGS = ("name", "start_date", "end_date", "rounds")
"""The ``new`` parameters that are settings of the tournament."""


@action(
    "new",
    "New tournament",
    "create a new tournament workbook from the template",
    Param("book", "the .xlsx file to create", ParamKind.FILE_OUT, required=True),
    Param("name", "tournament name"),
    Param("start_date", "start date, YYYY-MM-DD", ParamKind.DATE, asked=False, option="start"),
    Param("end_date", "end date, YYYY-MM-DD", ParamKind.DATE, asked=False, option="end"),
    Param(
        "rounds",
        f"number of rounds, 1 to {MAX_ROUNDS} (default 5)",
        ParamKind.INT,
        bounds=(1, MAX_ROUNDS),
    ),
    creates=True,
)
def new(session: Session, params: Mapping[str, object]) -> None:
    """Make the workbook (``session.made``; the runner saves and journals it) and ask the
    door to show it. A window asks before replacing a file; the command line needs
    ``--force``."""
    path = Path(str(params["book"]))
    if not session.in_terminal and path.suffix.lower() != ".xlsx":
        path = path.with_suffix(".xlsx")  # a name typed in a save dialog
    start, end = params.get("start_date"), params.get("end_date")
    if start and end and end < start:  # type: ignore[operator]
        raise ParamError(f"--end {end} is before --start {start}")
    if not path.parent.is_dir():
        raise ActionError(f"there is no folder {path.parent}")
    force = session.force
    if path.exists() and not force and not session.in_terminal:
        if not session.gw.confirm(f"{path.name} exists. Replace it?"):
            raise Cancelled([], quiet=True)
        force = True
    values = {k: params[k] for k in SETTINGS if params.get(k) is not None}
    session.made = new_tournament(path, values, force=force)
    session.say(f"Created {path}")
    session.requests.append(OpenFile(path))


@action("check", "Check workbook", "check every sheet; list each problem with its cell")
def check_workbook(session: Session, params: Mapping[str, object]) -> None:
    """List every problem, warning and note; a workbook with problems fails the check. A
    terminal shows the count last (under the list), a dialog first (it cuts long lists)."""
    problems, notices, warnings = check(session)
    lines = [f"problem: {p}" for p in problems] + [f"warning: {w}" for w in warnings]
    lines += [f"note: {n}" for n in notices]
    summary = (
        f"{len(problems)} problem(s), {len(warnings)} warning(s) to confirm, {len(notices)} note(s)"
    )
    if session.in_terminal:
        session.messages += [*lines, f"{session.gw.source}: {summary}"]
    else:
        session.messages += [summary, *lines]
    session.problems_found = bool(problems)


MATCHES_SELECTED = (
    "The matches are selected on the TDListA sheet: click Register player to add them."
)


@action(
    "select-matches",
    "Select the matches",
    "find the TDListA rows of a look-up's matches (a window selects them)",
    Param("query", "a family name prefix, 'Family, Given', or an AGA number", positional=True),
    button=False,
    reads_only=MEMBER_SHEETS,
)
def select_matches(session: Session, params: Mapping[str, object]) -> None:
    found = {m.aga_id for m in read_members(session.gw).search(str(params.get("query") or ""))}
    rows = tuple(selected_rows.member_rows(session.gw, found))
    if not rows:
        return
    sheet, columns = selected_rows.member_list_area()
    session.requests.append(SelectRows(sheet, rows, columns, MATCHES_SELECTED))


def new_tournament(
    path: Path, values: Mapping[str, object], *, force: bool = False
) -> OpenpyxlGateway:
    """A new workbook from the template with the given settings; saved by the caller."""
    if path.exists() and not force:
        raise ActionError(f"{path} already exists; choose another name or pass --force")
    try:
        wb = template.build(values)
    except ValueError as err:
        raise ActionError(str(err)) from err
    gw = OpenpyxlGateway(wb, path)
    session = Session(gw, "new")
    settings = book.settings_from_values({**book.default_values(), **values})
    session.done(
        f"Created {path.name}: {settings.name or 'unnamed tournament'}, {settings.rounds} rounds"
    )
    gw.append_log(session.log)
    return gw


def check(session: Session) -> tuple[list[Problem], list[Problem], list[str]]:
    """Every problem in the workbook, every tolerated oddity (with what the next action
    fills in), and the warnings the next action will ask about (``addin.actions.intake``)."""
    b = book.read_book(session.gw)
    problems, warnings, fills = intake.check_report(session.gw, b)
    notices = [n for data in b.tables.values() for n in data.notices]
    notices += [n for n in b.settings.data.notices]
    notices += [players_sheet.sheet_notice(fill) for fill in fills]
    return problems, notices, warnings


def read_checked(gw: Gateway) -> book.Book:
    """Read the book, refusing to go on when it has problems."""
    b = book.read_book(gw)
    if b.problems:
        raise ActionError(f"{gw.source} has problems to fix first", b.problems)
    return b
