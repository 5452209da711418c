"""The window doors' single dispatcher: every button of the Excel ribbon and of the Calc
toolbar runs ``dispatch(control_id, window, ...)`` with its door's open window
(``addin.excel.entry``, ``addin.calc.entry``).

Here the id is looked up (``addin.door.buttons``), and the action runs through the
tournament store (:mod:`addin.store`) exactly as the command line runs it on a file. The
store gets the window's two sides: where the tournament is (:class:`WindowBook`: the
window's storage, its turn without waiting, its file for the journal) and how to talk
with the TD (:class:`WindowConversation`: the door's dialogs, its selection). The
parameters come from the TD's selection (``addin.door.selected``: one run per selected
row, a box only for a value the workbook cannot give), from the Reports menu item
(``addin.door.report_menu``), or are asked for (file dialog, input box). The outcome is
rendered here: a readable dialog, never a traceback.

Tests (and scripts) call a door's ``dispatch(id, ..., params={...})``: with ``params``
given nothing is asked, which is also the only way on xlwings' remote engine.
"""

from __future__ import annotations

import contextlib
import tempfile
import traceback
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from addin.actions.change import OpenFile, ParamError, SelectRows, Snapshot, Window
from addin.actions.registry import Param, ParamKind
from addin.door import selected
from addin.door.buttons import Button, resolve
from addin.door.dialogs import CannotAsk, Dialogs
from addin.door.report_menu import report_file, report_preset
from addin.door.selected import SelectionError
from addin.station.entries import EntryQueue, stations_folder
from addin.store import Outcome, Storage, run
from addin.workbook.gateway import Selection
from addin.workbook.saving import WorkbookBusy, try_turn

__all__ = ["SAVE_AS", "OpenWindow", "Outcome", "ParamError", "collect", "dispatch"]

MAX_LINES = 30
"""Longer messages are cut (the Log sheet and ``Check workbook`` have the rest)."""
ERROR_LOG = Path(tempfile.gettempdir()) / "aga-mcmahon-error.log"


class OpenWindow(Protocol):
    """An open spreadsheet window, as a window door gives it: Excel's through xlwings
    (``addin.excel.window``), Calc's through UNO (``addin.calc.window``)."""

    dialogs: Dialogs

    @property
    def name(self) -> str:
        """The workbook's name (``t.xlsx``)."""
        ...

    @property
    def full_name(self) -> str:
        """Its file, or the window's name when it has none."""
        ...

    def storage(self) -> Storage:
        """The window's tables, read and written as blocks."""
        ...

    def journal_view(self) -> Window:
        """The window as the journal sees it: its file, saving it, showing it again."""
        ...

    def selection(self) -> Selection | None:
        """What the TD selected before clicking."""
        ...

    def select(self, request: SelectRows) -> bool:
        """Select these rows for the TD; False where it cannot."""
        ...

    def open_workbook(self, path: Path) -> bool:
        """Show another workbook (``new`` made it); False where this window cannot."""
        ...

    def show_file(self, path: Path) -> None:
        """Show a report in the TD's viewer, where there is one."""
        ...

    def report_folder(self) -> Path:
        """Where the Reports menu writes: beside the workbook, else the temporary folder."""
        ...


class WindowBook:
    """The open window as the store keeps the tournament in it: its storage, its turn
    (a second click while an action runs does nothing), its file for the journal."""

    in_window = True
    force = False

    def __init__(self, window: OpenWindow) -> None:
        self.open_window = window
        self.name, self.where = window.name, window.full_name
        self._journal = window.journal_view()

    @contextlib.contextmanager
    def turn(self) -> Iterator[object]:
        with try_turn(self.where) as mine:
            if not mine:
                raise WorkbookBusy(
                    f"An action is already running on {Path(self.name).name}: nothing was "
                    "done. Click again when it has finished."
                )
            yield mine

    def open(self, sheets: Sequence[str] | None, *, writes: bool) -> Storage:
        """The whole open workbook (a window has every sheet in hand)."""
        return self.open_window.storage()

    def window(self) -> Window:
        return self._journal


class WindowConversation:
    """The TD at the window: the door's dialogs under the button's label, its selection."""

    terminal = False
    selects = True

    def __init__(self, window: OpenWindow, label: str) -> None:
        self.open_window, self.label = window, label

    def confirm(self, question: str) -> bool:
        return self.open_window.dialogs.confirm(question, title=self.label)

    def tell(self, message: str) -> None:
        self.open_window.dialogs.alert(message, title=self.label)

    def select(self, request: SelectRows) -> bool:
        return self.open_window.select(request)

    def progress(self, fraction: float, text: str) -> None:
        """Not shown: a window has no line to draw it on while the action runs (Excel and
        Calc wait for the button's macro to return), so a slow download shows nothing until
        its dialog says what came of it."""


def dispatch(
    control_id: str,
    window: OpenWindow,
    params: Mapping[str, object] | None,
    *,
    yes: bool = False,
) -> Outcome:
    """Run the action behind a button on the door's open ``window``.

    ``params`` given: nothing is asked, missing optional parameters are blank.
    ``yes``: accept warnings without asking, like ``--yes`` on the command line (an
    action's own questions are still asked). Never raises: every failure becomes a dialog.
    """
    dialogs = window.dialogs
    button = resolve(control_id)
    if button is None:
        message = (
            f"This add-in does not know the button {control_id!r}. "
            "Rebuild it with: python -m addin install-excel"
        )
        dialogs.alert(
            f"{_cut(message)}\n\n{window.name} is unchanged.", title=control_id, error=True
        )
        return Outcome("error", [message])

    def parameter_sets(snapshot: Snapshot) -> list[dict[str, object]] | None:
        try:
            return _parameter_sets(button, snapshot, params, window)
        except SelectionError as err:
            raise ParamError(str(err)) from err

    outcome = run(
        button.action,
        parameter_sets,
        WindowBook(window),
        WindowConversation(window, button.label),
        warnings_accepted=yes,
    )
    return _shown(outcome, button, window, params)


def _shown(
    outcome: Outcome,
    button: Button,
    window: OpenWindow,
    params: Mapping[str, object] | None,
) -> Outcome:
    """Tell the TD how the press ended, and open what the action asks a window to open."""
    dialogs, label = window.dialogs, button.label
    if outcome.status == "busy":
        dialogs.alert("\n".join(outcome.messages), title=label)
    elif outcome.status == "cancelled":
        if outcome.warnings and not outcome.quiet:
            warnings = "\n".join(f"- {w}" for w in outcome.warnings)
            dialogs.alert(f"Nothing was written.\n\n{warnings}", title=label)
    elif outcome.status == "error":
        reason = _cut("\n".join(outcome.messages))
        dialogs.alert(f"{reason}\n\n{window.name} is unchanged.", title=label, error=True)
    elif outcome.status == "failed":
        _failed(outcome, window, label)
    else:
        for request in outcome.requests:
            if isinstance(request, OpenFile) and not window.open_workbook(request.path):
                outcome.messages.append("Open it with File > Open.")
        if button.preset is not None and params is None:
            window.show_file(report_file(window.report_folder(), window.name, *button.preset))
        if outcome.summary:
            outcome.messages.insert(0, outcome.summary)
        outcome.messages += _stations_waiting(window)
        if outcome.messages:
            dialogs.alert(_cut("\n".join(outcome.messages)), title=label)
    return outcome


def _stations_waiting(window: OpenWindow) -> list[str]:
    """How many of the stations' entries wait for the TD (the workbook is open here, so
    the server's writer leaves them), said after every press that went through."""
    with contextlib.suppress(Exception):  # a count is a convenience
        path = window.journal_view().on_disk()
        if path is not None and stations_folder(path).is_dir():
            count = EntryQueue(stations_folder(path)).waiting_count()
            if count:
                entries = "entry waits" if count == 1 else "entries wait"
                return [f"{count} station {entries}: Take station entries takes them in."]
    return []


def _failed(outcome: Outcome, window: OpenWindow, label: str) -> None:
    """An unexpected exception: a short dialog; the details go to a file for a bug report."""
    err = outcome.error
    with contextlib.suppress(OSError):
        details = traceback.format_exception(err) if err is not None else []
        ERROR_LOG.write_text("".join(details), encoding="utf-8")
    state = "may be partly written" if outcome.written else "is unchanged"
    with contextlib.suppress(Exception):  # if even the dialog fails, stay quiet
        window.dialogs.alert(
            f"Something went wrong: {outcome.messages[0]}\n\n{window.name} {state}.\n"
            f"Details for a bug report: {ERROR_LOG}",
            title=label,
            error=True,
        )


def _parameter_sets(
    button: Button,
    snapshot: Snapshot,
    given: Mapping[str, object] | None,
    window: OpenWindow,
) -> list[dict[str, object]] | None:
    """One set of parameters per run: given, read from the selection, or asked for."""
    dialogs = window.dialogs
    if given is None and button.preset is not None:
        given = report_preset(button.preset, window.report_folder(), window.name)
    if given is None and button.action in selected.PLANS:
        plans = selected.plan(button.action, snapshot, window.selection(), dialogs, button.label)
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
    """Each parameter's value, from ``given`` or asked for (the store checks them, once);
    None when the TD cancelled."""
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
        values[param.name] = raw
        instead = given.get(param.alternative) if given and param.alternative else None
        blank = raw is None or (isinstance(raw, str) and not raw.strip())
        if param.required and blank and not instead:
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
    if param.kind in (ParamKind.FILE_IN, ParamKind.FILE_OUT, ParamKind.FOLDER):
        if param.kind is ParamKind.FILE_OUT:
            answer = dialogs.ask_save_file(prompt, SAVE_AS.get(param.name, param.name), title=label)
        else:
            answer = dialogs.ask_open_file(prompt, title=label)
        return "" if answer is None and not param.required else answer
    if param.kind is ParamKind.FLAG:
        return dialogs.confirm(f"{prompt}?", title=label)
    if param.choices and not all(choice in param.help for choice in param.choices):
        prompt += f" ({', '.join(param.choices)})"
    if not param.required:
        prompt += "\n\nLeave blank if it does not apply."
    return dialogs.ask_text(prompt, title=label)


def _cut(text: str) -> str:
    lines = text.splitlines()
    if len(lines) <= MAX_LINES:
        return text
    rest = len(lines) - MAX_LINES
    return "\n".join([*lines[:MAX_LINES], f"... and {rest} more line(s)"])
