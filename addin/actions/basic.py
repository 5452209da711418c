"""Creating a tournament and checking a workbook."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from addin.actions import intake
from addin.actions.session import ActionError, Session
from addin.workbook import book, template
from addin.workbook.gateway import Gateway, Problem
from addin.workbook.openpyxl_gateway import OpenpyxlGateway


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
    notices += [Problem("Players", fill) for fill in fills]
    return problems, notices, warnings


def read_checked(gw: Gateway) -> book.Book:
    """Read the book, refusing to go on when it has problems."""
    b = book.read_book(gw)
    if b.problems:
        raise ActionError(f"{gw.source} has problems to fix first", b.problems)
    return b
