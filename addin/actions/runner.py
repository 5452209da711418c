"""The one runner every door uses: an action's whole run, the same way for all.

A door (the command line, the Excel ribbon, the Calc toolbar) gives :func:`run` an action
id, its parameter sets (or how to find them once the workbook is open: a window reads
the TD's selection) and a :class:`Door`: its hooks. The runner then

1. takes the workbook's turn (``door.turn``: a second action on it waits, or is busy);
2. opens it: the door's gateway, told which sheets an action that only reads needs
   (``reads_only``); an action that creates its file or works on the journal gets no
   sheets, only the door's questions and, for the journal, ``door.window()``;
3. runs the action once per parameter set: it computes, asks the TD to accept any
   warnings (``Cancelled`` when they do not: nothing is written) and writes; each run's
   Log lines are appended after it; a door that can select runs the action's follow-up
   (``registry.FOLLOW_UPS``);
4. keeps what it did: a created workbook is saved and journaled here; anything else
   goes to ``door.keep`` (a file is journaled and saved; a window is written, journaled
   and saved);
5. returns an :class:`Outcome`: done, cancelled, error, failed or busy, with the messages,
   the warnings and the requests (select rows, open a file, the document was replaced)
   that each door renders its own way: the command line prints and exits 0/1/2/3, a
   window shows dialogs.

No door names an action: what differs between actions is declared in the registry.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from addin.actions.registry import ACTIONS, FOLLOW_UPS, Action, load_all, load_one
from addin.actions.session import (
    ActionError,
    Cancelled,
    ParamError,
    Replaced,
    Request,
    Session,
    Window,
)
from addin.workbook.cell_gate import RefusedValue
from addin.workbook.gateway import Gateway, LogEntry, Selection, TableData, WorkbookError
from addin.workbook.layout import Table
from addin.workbook.open_elsewhere import WorkbookBusy, WorkbookLocked
from addin.workbook.saving import SaveRefused

Params = Mapping[str, object]
Runs = Sequence[Params] | Callable[[Gateway], Sequence[Params] | None]
"""The parameter sets, one per run; or, given the open workbook, how to find them (None:
the TD cancelled a question)."""

REFUSED = (ActionError, RefusedValue, SaveRefused, WorkbookError)
"""What an action raises to refuse, with a reason for the TD: nothing was written (and a
``JournalError``: the journal, imported only when needed, refused)."""
NOT_SAVED = (RefusedValue, SaveRefused, WorkbookLocked)
"""Why a save was refused before it began (the refusal says so itself)."""


class Door(Protocol):
    """What a door gives the runner."""

    name: str
    """Who acts, as the journal records it: ``CLI``, ``Excel``, ``Calc``."""
    book_name: str
    """The workbook's name, for messages (``t.xlsx``)."""
    book_path: str
    """The workbook as the TD named it (a path), for messages about writing it."""
    in_terminal: bool
    force: bool
    """``--force``: write although another program holds the file; outputs may replace
    another tournament workbook (a backup is kept)."""
    selects: bool
    """The door can select rows for the TD (a window): follow-ups run."""

    def turn(self) -> contextlib.AbstractContextManager[object]:
        """Hold the workbook's turn; raise ``WorkbookBusy`` when it cannot be had."""
        ...

    def confirm(self, question: str) -> bool: ...

    def alert(self, message: str) -> None: ...

    def open(self, reads_only: Sequence[str] | None) -> Gateway:
        """The gateway on the workbook (``reads_only``: the only sheets the action reads)."""
        ...

    def window(self) -> Window:
        """The workbook's file and what shows it, for an action on the journal."""
        ...

    def keep(
        self,
        gw: Gateway,
        action: str,
        arguments: Mapping[str, object],
        changed: bool,
        wrote_sheet: bool,
    ) -> list[str]:
        """Write what the runs did to the workbook for good: journaled when they changed
        the tournament (``changed``), saved when a report sheet was written. Returns notes
        for the TD; raises when nothing could be kept (the workbook is as it was)."""
        ...


@dataclass
class Outcome:
    """How a run ended, for the door to render."""

    status: str
    """``done``; ``cancelled`` (the TD said no); ``error`` (refused, with a reason for the
    TD: the workbook is as it was); ``failed`` (an unexpected exception: a bug); ``busy``
    (another action has the workbook: nothing was done)."""
    messages: list[str] = field(default_factory=list)
    """Done: what to tell the TD. Error, failed, busy: the reason, first."""
    warnings: list[str] = field(default_factory=list)
    """Cancelled: the warnings the TD did not accept."""
    requests: list[Request] = field(default_factory=list)
    quiet: bool = False
    """Cancelled: the question said it all (a window says nothing more)."""
    stage: str = ""
    """Error: where it stopped: ``usage`` (a parameter), ``open``, ``run`` (the action
    refused) or ``save`` (the workbook could not be kept)."""
    unchanged: str = ""
    """Error: ``t.xlsx is unchanged`` where the door should say so; empty where there is
    no workbook to speak of or the reason says it."""
    error: BaseException | None = None
    """Failed: the exception (the command line raises it again)."""
    written: bool = False
    """Failed: a window may be partly written."""
    problems_found: bool = False
    """Done, and the answer is no (``check`` found problems)."""
    afterwards: Callable[[], int] | None = None
    """Done on the command line: what to run once the workbook is free (``serve``)."""

    @property
    def document(self) -> Any:
        """The document a window shows now, when the action replaced it (undo, redo)."""
        return next((r.document for r in self.requests if isinstance(r, Replaced)), None)


def find(action_id: str) -> Action | None:
    """The registered action ``action_id``, importing only its module when it can."""
    return ACTIONS.get(action_id) or load_one(action_id) or load_all().get(action_id)


def run(action_id: str, runs: Runs, door: Door) -> Outcome:
    """Run ``action_id`` through ``door``: lock, open, run, keep; never raises but for an
    interrupt (an unexpected exception is a ``failed`` outcome holding it)."""
    spec = find(action_id)
    if spec is None:
        return Outcome("error", [f"there is no action {action_id!r}"], stage="usage")
    try:
        with door.turn():
            return _run(spec, runs, door)
    except WorkbookBusy as err:
        return Outcome("busy", [str(err)])


def _run(spec: Action, runs: Runs, door: Door) -> Outcome:
    stage, written = "open", False
    try:
        window = door.window() if spec.journal else None
        gw: Gateway = NoSheets(door, spec.id)
        if not (spec.journal or spec.creates):
            gw = door.open(spec.reads_only)
        stage = "run"
        given = runs(gw) if callable(runs) else runs
        if given is None:
            return Outcome("cancelled")
        sets = [dict(values) for values in given]
        session = Session(
            gw, spec.id, force=door.force, in_terminal=door.in_terminal, window=window
        )
        changed = False
        for values in sets:  # one run per selected row, each logged as it is done
            spec.run(session, values)
            changed = changed or bool(session.log)
            gw.append_log(session.log)
            session.log = []
        if door.selects and sets:
            _follow_up(spec, session, sets[0])
        stage = "save"
        written = bool(getattr(gw, "changes", None))
        notes = _keep(spec, session, sets, door, gw, changed)
    except Cancelled as cancelled:
        return Outcome("cancelled", warnings=cancelled.warnings, quiet=cancelled.quiet)
    except ParamError as err:
        return Outcome("error", [str(err)], stage="usage")
    except Exception as err:
        refusal = _refusal(err, spec, stage, door)
        if refusal is not None:
            return refusal
        return Outcome("failed", [_describe(err)], error=err, written=written)
    return Outcome(
        "done",
        [*session.messages, *notes],
        requests=list(session.requests),
        problems_found=session.problems_found,
        afterwards=session.afterwards,
    )


def _follow_up(spec: Action, session: Session, values: Params) -> None:
    """The action's follow-up, on the same session: a convenience whose failure is quiet."""
    then = FOLLOW_UPS.get(spec.id)
    follow = find(then) if then else None
    if follow is not None:
        with contextlib.suppress(Exception):
            follow.run(session, values)


def _keep(
    spec: Action,
    session: Session,
    sets: list[dict[str, object]],
    door: Door,
    gw: Gateway,
    changed: bool,
) -> list[str]:
    if session.made is not None:
        from addin.journal.recorder import record

        record(session.made.path, spec.id, arguments(sets), session.made.save, door=door.name)
        return []
    if spec.journal:  # the action kept its own work: the journal is its file
        return []
    return door.keep(gw, spec.id, arguments(sets), changed, session.wrote_sheet)


def _refusal(err: Exception, spec: Action, stage: str, door: Door) -> Outcome | None:
    """The error outcome for a refusal with a reason; None for a bug."""
    from addin.journal.store import JournalError  # a desk look-up never loads the journal

    name = "" if spec.creates or not spec.changes else f"{door.book_name} is unchanged"
    verb = "write" if spec.creates or spec.journal else "save"
    if isinstance(err, OSError) and (stage == "save" or spec.journal):
        reason = f"could not {verb} {door.book_path}: {err.strerror or err}"
        return Outcome("error", [reason], stage="save", unchanged=name)
    if spec.journal and isinstance(err, (JournalError, SaveRefused, WorkbookLocked)):
        return Outcome("error", [str(err)], stage="save", unchanged=name)
    if stage == "open" and isinstance(err, WorkbookError):
        return Outcome("error", [str(err)], stage="open")
    if stage == "save" and isinstance(err, NOT_SAVED):
        return Outcome("error", [str(err)], stage="save")
    if stage == "save" and isinstance(err, JournalError):
        return Outcome("error", [str(err)], stage="save", unchanged=name)
    if isinstance(err, (*REFUSED, JournalError)):
        return Outcome("error", [str(err)], stage="run", unchanged=name)
    return None


def _describe(err: BaseException) -> str:
    from addin.actions.failure import describe

    return describe(err)


def arguments(runs: Sequence[Mapping[str, object]]) -> dict[str, object]:
    """The runs' parameters as one journal entry's arguments: a press that ran once per
    selected row lists each value (``aga=1234, 5678``). The file an action creates is the
    journal's own book, not an argument."""
    if len(runs) == 1:
        return {k: v for k, v in runs[0].items() if k != "book"}
    merged: dict[str, object] = {}
    for values in runs:
        for key, value in values.items():
            if value is None or value is False:
                continue
            text = str(value)
            merged[key] = f"{merged[key]}, {text}" if key in merged else text
    return merged


class NoSheets:
    """The gateway of an action that opens no sheet (``new``, the journal's actions): the
    door's questions, and the workbook's name; a sheet asked for is a bug."""

    def __init__(self, door: Door, action: str) -> None:
        self.door = door
        self.action = action

    @property
    def source(self) -> str:
        return self.door.book_name

    @property
    def path(self) -> Path | None:
        return None

    def _none(self) -> ActionError:
        return ActionError(f"{self.action} opens no sheet of {self.source}")

    def sheet_names(self) -> list[str]:
        raise self._none()

    def read_table(self, table: Table) -> TableData:
        raise self._none()

    def write_table(self, table: Table, rows: Sequence[object]) -> None:
        raise self._none()

    def remove_sheet(self, sheet: str) -> None:
        raise self._none()

    def selection(self) -> Selection | None:
        return None

    def append_log(self, entries: Sequence[LogEntry]) -> None:
        if entries:
            raise self._none()

    def alert(self, message: str) -> None:
        self.door.alert(message)

    def confirm(self, message: str) -> bool:
        return self.door.confirm(message)

    def commit(self) -> None:
        """Nothing is ever queued."""
