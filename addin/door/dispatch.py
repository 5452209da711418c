"""The window doors' single dispatcher: every button of the Excel ribbon and of the Calc
toolbar runs ``dispatch(control_id, book, ...)`` with its door's parts (``addin.excel.entry``,
``addin.calc.entry``).

Here the id is looked up (``addin.door.buttons``), and the action runs through the one
runner (:mod:`addin.actions.runner`) exactly as the command line runs it on a file, with
this door's hooks (:class:`WindowDoor`): the turn without waiting (a second click is
busy), the door's gateway on the open workbook, its dialogs for questions, and its
journal (:mod:`addin.door.window_journal`). The parameters come from the TD's selection
(``addin.door.selected``: one run per selected row, a box only for a value the workbook
cannot give), from the Reports menu item (``addin.door.report_menu``), or are asked for
(file dialog, input box). The outcome is rendered here: a readable dialog, never a
traceback; the runner's requests (select rows, open a file) done as a window can.

Tests (and scripts) call a door's ``dispatch(id, book=..., params={...})``: with ``params``
given nothing is asked, which is also the only way on xlwings' remote engine.
"""

from __future__ import annotations

import contextlib
import tempfile
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from openpyxl.utils import get_column_letter

from addin.actions.registry import Param, ParamKind
from addin.actions.runner import Outcome, run
from addin.actions.session import OpenFile, ParamError, Request, SelectRows
from addin.core.limits import shown
from addin.door import selected
from addin.door.buttons import Button, resolve
from addin.door.dialogs import CannotAsk, Dialogs
from addin.door.report_menu import open_file, report_file, report_preset
from addin.door.selected import SelectionError
from addin.door.window_journal import Window, commit_journaled
from addin.workbook.gateway import Gateway
from addin.workbook.open_elsewhere import WorkbookBusy, try_turn
from addin.workbook.xlwings_gateway import XlwingsGateway

__all__ = ["SAVE_AS", "Outcome", "ParamError", "WindowDoor", "collect", "convert", "dispatch"]

MAX_LINES = 30
"""Longer messages are cut (the Log sheet and ``Check workbook`` have the rest)."""
ERROR_LOG = Path(tempfile.gettempdir()) / "aga-mcmahon-error.log"


class WindowDoor:
    """A window door's hooks for the runner: the open workbook ``book``, its dialogs, its
    gateway and its journal (``window``)."""

    in_terminal = False
    force = False
    selects = True

    def __init__(
        self,
        book: Any,
        dialogs: Dialogs,
        label: str,
        *,
        yes: bool,
        gateway: Callable[..., XlwingsGateway],
        window: Callable[[Any], Window],
    ) -> None:
        self.book, self.dialogs, self.label, self.yes = book, dialogs, label, yes
        self.gateway = gateway
        self._window = window(book)
        self.name = self._window.door
        self.book_name = str(book.name)
        self.book_path = _full_name(book)

    @contextlib.contextmanager
    def turn(self) -> Iterator[object]:
        """The turn, without waiting: a second click while an action runs does nothing."""
        with try_turn(self.book_path) as mine:
            if not mine:
                raise WorkbookBusy(
                    f"An action is already running on {Path(self.book_name).name}: nothing "
                    "was done. Click again when it has finished."
                )
            yield mine

    def confirm(self, question: str) -> bool:
        """A question of the action itself (replace a file? lose hand edits?) is always
        asked, under the button's label; ``yes`` accepts only warnings (the gateway's)."""
        return self.dialogs.confirm(question, title=self.label)

    def alert(self, message: str) -> None:
        self.dialogs.alert(message, title=self.label)

    def open(self, reads_only: Sequence[str] | None) -> Gateway:
        """The whole open workbook (a window has every sheet in hand)."""
        confirm = (lambda m: True) if self.yes else self.dialogs.confirm
        gw: Gateway = self.gateway(self.book, confirm=confirm, alert=self.dialogs.alert)
        return gw

    def window(self) -> Window:
        return self._window

    def keep(
        self,
        gw: Gateway,
        action: str,
        arguments: Mapping[str, object],
        changed: bool,
        wrote_sheet: bool,
    ) -> list[str]:
        note = commit_journaled(gw, self._window, action, arguments, changed)
        return [note] if note else []


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
    if button is None:
        message = (
            f"This add-in does not know the button {control_id!r}. "
            "Rebuild it with: python -m addin install-excel"
        )
        dialogs.alert(f"{_cut(message)}\n\n{book.name} is unchanged.", title=control_id, error=True)
        return Outcome("error", [message])
    door = WindowDoor(book, dialogs, button.label, yes=yes, gateway=gateway, window=window)

    def parameter_sets(gw: Gateway) -> list[dict[str, object]] | None:
        try:
            return _parameter_sets(button, gw, params, dialogs, book)
        except SelectionError as err:
            raise ParamError(str(err)) from err

    outcome = run(button.action, parameter_sets, door)
    return _shown(outcome, button, book, params, dialogs)


def _full_name(book: Any) -> str:
    """The open workbook's full name (its file, or its window's name when unsaved)."""
    try:
        return str(book.fullname)
    except Exception:  # the remote engine and some unsaved books have no full name
        return str(book.name)


def _shown(
    outcome: Outcome,
    button: Button,
    book: Any,
    params: Mapping[str, object] | None,
    dialogs: Dialogs,
) -> Outcome:
    """Tell the TD how the press ended, and do what the runner asks of a window."""
    label = button.label
    if outcome.status == "busy":
        dialogs.alert("\n".join(outcome.messages), title=label)
    elif outcome.status == "cancelled":
        if outcome.warnings and not outcome.quiet:
            warnings = "\n".join(f"- {w}" for w in outcome.warnings)
            dialogs.alert(f"Nothing was written.\n\n{warnings}", title=label)
    elif outcome.status == "error":
        reason = _cut("\n".join(outcome.messages))
        dialogs.alert(f"{reason}\n\n{book.name} is unchanged.", title=label, error=True)
    elif outcome.status == "failed":
        _failed(outcome, book, dialogs, label)
    else:
        for request in outcome.requests:
            outcome.messages += _fulfil(request, book)
        if button.preset is not None and params is None:
            open_file(report_file(book, *button.preset), book)
        if outcome.messages:
            dialogs.alert(_cut("\n".join(outcome.messages)), title=label)
    return outcome


def _failed(outcome: Outcome, book: Any, dialogs: Dialogs, label: str) -> None:
    """An unexpected exception: a short dialog; the details go to a file for a bug report."""
    err = outcome.error
    with contextlib.suppress(OSError):
        details = traceback.format_exception(err) if err is not None else []
        ERROR_LOG.write_text("".join(details), encoding="utf-8")
    state = "may be partly written" if outcome.written else "is unchanged"
    with contextlib.suppress(Exception):  # if even the dialog fails, stay quiet
        dialogs.alert(
            f"Something went wrong: {outcome.messages[0]}\n\n{book.name} {state}.\n"
            f"Details for a bug report: {ERROR_LOG}",
            title=label,
            error=True,
        )


def _fulfil(request: Request, book: Any) -> list[str]:
    """Do what the runner asks of the window; what to tell the TD about it."""
    if isinstance(request, SelectRows):
        try:
            sheet = book.sheets[request.sheet]
            sheet.activate()
            address = selected.rows_address(list(request.rows), get_column_letter(request.columns))
            if book.app.engine.name == "remote":  # no multi-area ranges there: the first run
                address = address.split(",")[0]
            sheet.range(address).select()
        except Exception:  # selecting is a convenience: the answer stands without it
            return []
        return [request.message]
    if isinstance(request, OpenFile):
        try:
            book.app.books.open(str(request.path))
        except Exception:  # the remote engine (and a sandboxed Mac Excel) cannot open files
            return ["Open it with File > Open."]
    return []


def _parameter_sets(
    button: Button,
    gw: Gateway,
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
        instead = given.get(param.alternative) if given and param.alternative else None
        if param.required and values[param.name] is None and not instead:
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
        if param.bounds and not param.bounds[0] <= number <= param.bounds[1]:
            low, high = param.bounds
            raise ParamError(f"{param.help}: {int(number)} is not between {low} and {high}")
        return int(number)
    if param.kind is ParamKind.DATE:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise ParamError(f"{param.help}: {shown(text)} is not a date (YYYY-MM-DD)") from None
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
