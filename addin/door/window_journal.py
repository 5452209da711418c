"""The window doors' journal: a button action that changes the tournament is a journal
entry, as a command is.

The journal keeps whole-workbook snapshots of the *file* beside it (:mod:`addin.journal`).
A button changes the open window, not the file, so a journaled button action saves the
window to its file just before its change is written (the state before, the TD's hand
edits included, exactly as the command line finds them in the file; skipped when the
window holds nothing its file does not) and just after (the state it leaves). History,
Undo and Redo are ordinary actions (:mod:`addin.actions.history`) that reach the file
through the same :class:`Window`.

What a door must give for this is a :class:`Window`: the Excel one is
:class:`addin.excel.window.ExcelWindow` (through xlwings), the Calc one is in
:mod:`addin.calc.entry`.
A workbook with no .xlsx file yet (never saved, or xlwings' remote engine) runs its actions
unjournaled; History says how to start the journal.
"""

from __future__ import annotations

from collections.abc import Mapping

from addin.actions.session import Window
from addin.journal.recorder import record
from addin.journal.store import Journal, JournalError
from addin.workbook.gateway import Gateway
from addin.workbook.saving import SaveRefused

__all__ = ["JOURNALED", "NO_FILE", "Window", "commit_journaled"]

JOURNALED = (".xlsx", ".xlsm")
"""Files whose snapshots the journal can compare sheet by sheet (openpyxl reads them)."""
NO_FILE = (
    "This workbook has no .xlsx file yet: the journal is kept beside the saved file, "
    "from the first action after it is saved as .xlsx."
)


def commit_journaled(
    gw: Gateway,
    window: Window,
    action: str,
    arguments: Mapping[str, object],
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
        record(path, action, arguments, window.save, door=window.door)
    except (JournalError, OSError, SaveRefused) as err:
        window.save()  # the file holds the action even when the journal cannot
        return f"Done, but not in the journal (Undo cannot take it back): {err}"
    return None
