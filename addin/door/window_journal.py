"""The journal from the ribbon: button actions are journal entries, Undo and Redo act on
the open window, History lists the journal.

The journal keeps whole-workbook snapshots of the *file* beside it (:mod:`addin.journal`).
A button changes the open window, not the file, so a journaled button action saves the
window to its file just before its change is written (the state before, the TD's hand
edits included, exactly as the command line finds them in the file; skipped when the
window holds nothing its file does not) and just after (the state it leaves). Undo and
Redo save the window (so hand edits since the last action are seen and asked about), put
the snapshot back in the file as the command line's ``undo`` does, and show the file
again in the same window.

What a door must give for this is a :class:`Window`: the Excel one is
:class:`addin.excel.window.ExcelWindow` (through xlwings), the Calc one is in
:mod:`addin.calc.entry`.
A workbook with no .xlsx file yet (never saved, or xlwings' remote engine) runs its actions
unjournaled; History says how to start the journal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from addin.journal.commands import done_message, history_lines
from addin.journal.recorder import record
from addin.journal.store import Journal, JournalError
from addin.journal.undo import plan, restore
from addin.workbook.gateway import Gateway
from addin.workbook.saving import SaveRefused

SHOWN = 25
"""History shows the last entries; the command line lists them all."""
JOURNALED = (".xlsx", ".xlsm")
"""Files whose snapshots the journal can compare sheet by sheet (openpyxl reads them)."""
NO_FILE = (
    "This workbook has no .xlsx file yet: the journal is kept beside the saved file, "
    "from the first action after it is saved as .xlsx."
)


class Window(Protocol):
    """A workbook open in a spreadsheet application, as the journal needs it."""

    door: str
    """Who acted, as the journal records it: ``Excel`` or ``Calc``."""

    def file(self) -> Path | None:
        """The .xlsx file the window shows, or None (not saved yet, another format)."""

    def unavailable(self) -> str:
        """Why :meth:`file` is None, and what the TD can do instead."""

    def save(self) -> None:
        """Save the window to :meth:`file`, in its own format."""

    def modified(self) -> bool:
        """Whether the window holds changes its file does not (True when unsure)."""

    def reopen(self, between: Callable[[], None]) -> Any:
        """Let go of the file, run ``between`` (which may replace it), and show the file
        in the window again; the document now shown (even when ``between`` failed)."""


def arguments(runs: Sequence[Mapping[str, object]]) -> dict[str, object]:
    """One button press's parameters as one journal entry's arguments: a press that ran
    once per selected row lists each value (``aga=1234, 5678``)."""
    if len(runs) == 1:
        return dict(runs[0])
    merged: dict[str, object] = {}
    for run in runs:
        for key, value in run.items():
            if value is None or value is False:
                continue
            text = str(value)
            merged[key] = f"{merged[key]}, {text}" if key in merged else text
    return merged


def commit_journaled(
    gw: Gateway,
    window: Window,
    action: str,
    runs: Sequence[Mapping[str, object]],
    changed_tournament: bool,
) -> str | None:
    """Write the action's changes to the window; journal them when it changed the
    tournament and the window has a file.

    Raises ``JournalError`` before anything is written when the journal cannot be read.
    Returns a sentence for the TD when the journal could not keep the action after all
    (the snapshot or the journal could not be written): the change is kept, in the window
    and in the file, and only Undo cannot take it back.
    """
    path = window.file() if changed_tournament else None
    if path is None:
        gw.commit()
        return None
    Journal.load(path)  # a damaged journal refuses the action, as on the command line
    if window.modified():
        window.save()
    gw.commit()
    try:
        record(path, action, arguments(runs), window.save, door=window.door)
    except (JournalError, OSError, SaveRefused) as err:
        window.save()  # the file holds the action even when the journal cannot
        return f"Done, but not in the journal (Undo cannot take it back): {err}"
    return None


def take_back(window: Window, kind: str, confirm: Callable[[str], bool]) -> tuple[str, Any]:
    """Undo (``kind`` ``undo``) or redo the last action in the open window.

    Returns the message and the document now shown. Raises ``JournalError`` (nothing to
    undo, a broken journal) or ``Cancelled`` when the TD keeps hand edits undo would lose.
    """
    path = window.file()
    if path is None:
        raise JournalError(window.unavailable())
    if window.modified():
        window.save()
    p = plan(path, kind)
    if p.edits and not confirm(f"{p.edits.message(path.name)}.\n\n{kind.title()} anyway?"):
        raise HandEditsKept(p.edits.message(path.name))
    done: list[int] = []

    def put_back() -> None:
        done.append(restore(p, door=window.door).number)

    document = window.reopen(put_back)
    return done_message(p.journal, path.name, kind, None, done[0]), document


class HandEditsKept(Exception):
    """The TD chose to keep hand edits an undo would have lost: nothing changed."""


def history_text(path: Path | None, name: str) -> str:
    """The History dialog: the last entries of the journal beside the workbook's file
    (``path``: :func:`addin.workbook.xlwings_gateway.local_file`)."""
    if path is None:
        return f"{name} has no file yet: save it as .xlsx to start its journal."
    try:
        journal = Journal.load(path)
    except JournalError as err:
        return f"The journal cannot be read: {err}"
    lines = history_lines(journal)
    if len(journal.entries) > SHOWN:
        first = len(journal.entries) - SHOWN
        lines = [lines[0], f"... {first} earlier entries", *lines[1 + first :]]
    return "\n".join(lines)
