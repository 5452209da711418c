"""The window doors' single dispatcher: every button of the Excel ribbon and of the Calc
toolbar runs ``dispatch(control_id, book, ...)`` with its door's parts (``addin.excel.entry``,
``addin.calc.entry``).

Here the id is looked up (``addin.door.buttons``),
the parameters come from the TD's selection (``addin.door.selected``: one run per
selected row, a box only for a value the workbook cannot give), from the Reports menu
item (``addin.door.report_menu``), or are asked for (file dialog, input box), and the action
runs on the open workbook through the door's gateway exactly as the command line
runs it on a file: compute, ask the TD to accept any warnings (OK/Cancel), then write
each table once as a block and append to the Log. Errors are a readable dialog, never
a traceback, and leave the workbook unchanged.

Tests (and scripts) call a door's ``dispatch(id, book=..., params={...})``: with ``params``
given nothing is asked, which is also the only way on xlwings' remote engine.
"""

from __future__ import annotations

import contextlib
import tempfile
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openpyxl.utils import get_column_letter

from addin.actions import basic
from addin.actions.failure import describe
from addin.actions.registry import Param, ParamKind, load_all
from addin.actions.session import ActionError, Cancelled, Session
from addin.core.limits import shown
from addin.door import selected
from addin.door.buttons import Button, resolve
from addin.door.dialogs import CannotAsk, Dialogs
from addin.door.report_menu import open_file, report_file, report_preset
from addin.door.selected import SelectionError
from addin.door.window_journal import (
    HandEditsKept,
    Window,
    commit_journaled,
    history_text,
    take_back,
)
from addin.journal.store import JournalError
from addin.workbook.cell_gate import RefusedValue
from addin.workbook.layout import TDLISTA
from addin.workbook.open_elsewhere import try_turn
from addin.workbook.saving import SaveRefused
from addin.workbook.xlwings_gateway import XlwingsGateway, local_file

MAX_LINES = 30
"""Longer messages are cut (the Log sheet and ``Check workbook`` have the rest)."""
ERROR_LOG = Path(tempfile.gettempdir()) / "aga-mcmahon-error.log"


@dataclass
class Outcome:
    """How a button press ended (for tests; Excel ignores it)."""

    status: str
    """``done``; ``cancelled`` (the TD said no); ``error`` (the action refused, with a
    reason for the TD); ``failed`` (an unexpected exception: a bug); ``busy`` (another
    action was running on the same workbook: nothing was done)."""
    messages: list[str] = field(default_factory=list)
    document: Any = None
    """The document the window shows now, when the button replaced it (Undo, Redo)."""


class ParamError(Exception):
    """A parameter the TD gave (or did not give) cannot be used."""


def dispatch(
    control_id: str,
    book: Any,
    params: Mapping[str, object] | None,
    *,
    dialogs: Dialogs,
    yes: bool = False,
    gateway: Callable[..., XlwingsGateway],
    window: Callable[[Any], Window],
) -> Outcome:
    """Run the action behind a button on ``book``, the door's open workbook (an xlwings
    Book, or what the Calc door gives in its place: a name, a full name, an app).

    ``params`` given: nothing is asked, missing optional parameters are blank.
    ``yes``: accept warnings without asking, like ``--yes`` on the command line.
    Never raises: every failure becomes a dialog. ``gateway`` makes the gateway from
    ``book``, and ``window`` what the journal needs of the open workbook
    (:mod:`addin.door.window_journal`).
    """
    button = resolve(control_id)
    label = button.label if button else control_id
    with try_turn(_full_name(book)) as mine:
        if not mine:
            message = (
                f"An action is already running on {Path(str(book.name)).name}: nothing was done. "
                "Click again when it has finished."
            )
            dialogs.alert(message, title=label)
            return Outcome("busy", [message])
        return _dispatch(control_id, book, params, dialogs, yes, gateway, window, button)


def _full_name(book: Any) -> str:
    """The open workbook's full name (its file, or its window's name when unsaved)."""
    try:
        return str(book.fullname)
    except Exception:  # the remote engine and some unsaved books have no full name
        return str(book.name)


def _dispatch(
    control_id: str,
    book: Any,
    params: Mapping[str, object] | None,
    dialogs: Dialogs,
    yes: bool,
    gateway: Callable[..., XlwingsGateway],
    window: Callable[[Any], Window],
    button: Button | None,
) -> Outcome:
    """The press itself, while it holds the workbook's turn."""
    label = button.label if button else control_id
    written = False
    try:
        if button is None:
            raise ActionError(
                f"This add-in does not know the button {control_id!r}. "
                "Rebuild it with: python -m addin install-excel"
            )
        gw = gateway(
            book, confirm=(lambda m: True) if yes else dialogs.confirm, alert=dialogs.alert
        )
        runs = _parameter_sets(button, gw, params, dialogs, book)
        if runs is None:
            return Outcome("cancelled")
        if button.action == "new":
            return _new(book, runs[0], dialogs)
        if button.action == "history":
            text = history_text(local_file(book), book.name)
            dialogs.alert(_cut(text), title=label)
            return Outcome("done", [text])
        if button.action in ("undo", "redo"):
            message, document = take_back(
                window(book), button.action, lambda m: dialogs.confirm(m, title=label)
            )
            dialogs.alert(message, title=label)
            return Outcome("done", [message], document)
        session = Session(gw, button.action)
        changed = False
        for values in runs:  # one run per selected row, each logged as the command line logs it
            _run(button, session, values)
            changed = changed or bool(session.log)
            gw.append_log(session.log)
            session.log = []
        written = bool(gw.changes)
        unjournaled = commit_journaled(gw, window(book), button.action, runs, changed)
        if unjournaled:
            session.messages.append(unjournaled)
    except HandEditsKept:
        return Outcome("cancelled")
    except JournalError as err:
        dialogs.alert(f"{_cut(str(err))}\n\n{book.name} is unchanged.", title=label, error=True)
        return Outcome("error", [str(err)])
    except Cancelled as cancelled:
        warnings = "\n".join(f"- {w}" for w in cancelled.warnings)
        dialogs.alert(f"Nothing was written.\n\n{warnings}", title=label)
        return Outcome("cancelled", list(cancelled.warnings))
    except (ActionError, ParamError, RefusedValue, SaveRefused, SelectionError) as err:
        dialogs.alert(f"{_cut(str(err))}\n\n{book.name} is unchanged.", title=label, error=True)
        return Outcome("error", [str(err)])
    except Exception as err:  # the TD must never see a traceback
        with contextlib.suppress(OSError):
            ERROR_LOG.write_text(traceback.format_exc(), encoding="utf-8")
        state = "may be partly written" if written else "is unchanged"
        with contextlib.suppress(Exception):  # if even the dialog fails, stay quiet
            dialogs.alert(
                f"Something went wrong: {describe(err)}\n\n{book.name} {state}.\n"
                f"Details for a bug report: {ERROR_LOG}",
                title=label,
                error=True,
            )
        return Outcome("failed", [describe(err)])
    if button.preset is not None and params is None:
        open_file(report_file(book, *button.preset), book)
    if button.action == "lookup" and runs:
        session.messages += _select_matches(book, gw, str(runs[0].get("query") or ""))
    if session.messages:
        dialogs.alert(_cut("\n".join(session.messages)), title=label)
    return Outcome("done", list(session.messages))


def _select_matches(book: Any, gw: XlwingsGateway, query: str) -> list[str]:
    """Select the look-up's matches on the TDListA sheet, ready for Register player."""
    try:
        rows = selected.lookup_rows(gw, query)
        if not rows:
            return []
        last = get_column_letter(len(TDLISTA.columns))
        sheet = book.sheets[TDLISTA.sheet]
        sheet.activate()
        address = selected.rows_address(rows, last)
        if book.app.engine.name == "remote":  # no multi-area ranges there: the first run
            address = address.split(",")[0]
        sheet.range(address).select()
    except Exception:  # selecting is a convenience: the answer stands without it
        return []
    return ["The matches are selected on the TDListA sheet: click Register player to add them."]


def _parameter_sets(
    button: Button,
    gw: XlwingsGateway,
    given: Mapping[str, object] | None,
    dialogs: Dialogs,
    book: Any,
) -> list[dict[str, object]] | None:
    """One set of parameters per run: given, read from the selection, or asked for."""
    if given is None and button.preset is not None:
        given = report_preset(button.preset, book)
    if given is None and button.action in selected.PLANS:
        plans = selected.plan(button.action, gw, dialogs, button.label)
        if plans is None:
            return None
        runs = [collect(button.params, p, dialogs, button.label) for p in plans]
        return [r for r in runs if r is not None]
    values = collect(button.params, given, dialogs, button.label)
    return None if values is None else [values]


def _run(button: Button, session: Session, values: dict[str, object]) -> None:
    if button.action == "check":
        problems, notices, warnings = basic.check(session)
        lines = [f"problem: {p}" for p in problems] + [f"warning: {w}" for w in warnings]
        lines += [f"note: {n}" for n in notices]
        session.say(
            f"{len(problems)} problem(s), {len(warnings)} warning(s) to confirm, "
            f"{len(notices)} note(s)"
        )
        session.messages += lines
        return
    load_all()[button.action].run(session, values)


def _new(book: Any, values: dict[str, object], dialogs: Dialogs) -> Outcome:
    """Create the tournament file (as ``python -m addin new``) and open it in Excel."""
    path = Path(str(values["book"]))
    if path.suffix.lower() != ".xlsx":
        path = path.with_suffix(".xlsx")
    if not path.parent.is_dir():
        raise ParamError(f"there is no folder {path.parent}")
    settings = {k: values[k] for k in ("name", "rounds") if values.get(k) is not None}
    force = False
    if path.exists():
        if not dialogs.confirm(f"{path.name} exists. Replace it?", title="New tournament"):
            return Outcome("cancelled")
        force = True
    gw = basic.new_tournament(path, settings, force=force)
    gw.save()
    try:
        book.app.books.open(str(path))
    except Exception:  # the remote engine (and a sandboxed Mac Excel) cannot open files
        message = f"Created {path}. Open it with File > Open."
    else:
        message = f"Created {path.name}."
    dialogs.alert(message, title="New tournament")
    return Outcome("done", [message])


# --- parameters ---------------------------------------------------------------------------


def collect(
    params: Sequence[Param],
    given: Mapping[str, object] | None,
    dialogs: Dialogs,
    label: str,
) -> dict[str, object] | None:
    """Each parameter's value, from ``given`` or asked for; None when the TD cancelled."""
    values: dict[str, object] = {}
    for param in params:
        if given is not None:
            raw = given.get(param.name)
        elif not param.asked:
            raw = None
        else:
            try:
                raw = _ask(param, dialogs, label)
            except CannotAsk as err:
                raise ParamError(f"{label} needs {param.help} (it cannot be asked here)") from err
            if raw is None:
                return None
        values[param.name] = convert(param, raw)
        if param.required and values[param.name] is None:
            raise ParamError(f"{label} needs {param.help}")
    return values


SAVE_AS = {
    "book": "tournament.xlsx",
    "text": "aga-report.txt",
    "xml": "aga-report.xml",
    "out": "report.html",
}
"""The file name a save dialog proposes, by parameter name."""


def _ask(param: Param, dialogs: Dialogs, label: str) -> object:
    """The TD's answer; None when they cancelled the action.

    Cancel on a file dialog for an optional file leaves that file out (export only the
    XML report, say); OK/Cancel answers a yes/no option.
    """
    prompt = param.help[:1].upper() + param.help[1:]
    if param.kind in (ParamKind.FILE_IN, ParamKind.FILE_OUT):
        if param.kind is ParamKind.FILE_IN:
            answer = dialogs.ask_open_file(prompt, title=label)
        else:
            answer = dialogs.ask_save_file(prompt, SAVE_AS.get(param.name, param.name), title=label)
        return "" if answer is None and not param.required else answer
    if param.kind is ParamKind.FLAG:
        return dialogs.confirm(f"{prompt}?", title=label)
    if param.choices and not all(choice in param.help for choice in param.choices):
        prompt += f" ({', '.join(param.choices)})"
    if not param.required:
        prompt += "\n\nLeave blank if it does not apply."
    return dialogs.ask_text(prompt, title=label)


def convert(param: Param, raw: object) -> object:
    """A typed parameter value; blank is None. Raises ``ParamError`` naming the value."""
    if param.kind is ParamKind.FLAG:
        if isinstance(raw, str):
            return raw.strip().casefold() in {"1", "y", "yes", "true", "on", "x"}
        return bool(raw)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    text = str(raw).strip()
    if param.kind is ParamKind.INT:
        try:
            number = float(text)
        except ValueError:
            number = 0.5
        if not number.is_integer():
            raise ParamError(f"{param.help}: {shown(text)} is not a whole number")
        return int(number)
    if param.kind in (ParamKind.FILE_IN, ParamKind.FILE_OUT):
        return Path(text)
    if param.choices:
        for choice in param.choices:
            if choice.casefold() == text.casefold():
                return choice
        raise ParamError(f"{param.help}: {shown(text)} is not one of {', '.join(param.choices)}")
    return text


def _cut(text: str) -> str:
    lines = text.splitlines()
    if len(lines) <= MAX_LINES:
        return text
    rest = len(lines) - MAX_LINES
    return "\n".join([*lines[:MAX_LINES], f"... and {rest} more line(s)"])
