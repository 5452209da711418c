"""The ribbon's History and Undo buttons.

History shows the journal beside the workbook's file in a dialog (the last entries;
``python -m addin history BOOK`` lists them all). Undo cannot yet take an action back
inside the open window: it would have to replace the workbook Excel holds, and an action
done with the ribbon changes the open window, not the file the journal keeps. So the
button says exactly how to undo: save and close, run ``undo`` on the file, open it again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from addin.journal.commands import history_lines
from addin.journal.store import Journal, JournalError
from addin.journal.undo import describe, replay

SHOWN = 25
"""History shows the last entries; the command line lists them all."""


def _journal(book: Any) -> tuple[Path, Journal] | str:
    """The workbook's file and its journal, or the sentence that says why there is none."""
    try:
        path = Path(str(book.fullname))
    except Exception:  # the remote engine and an unsaved book have no local file
        path = None
    if path is None or not path.is_file():
        return f"{book.name} has no file yet: save it to start its journal."
    try:
        return path, Journal.load(path)
    except JournalError as err:
        return f"The journal cannot be read: {err}"


def history_text(book: Any) -> str:
    found = _journal(book)
    if isinstance(found, str):
        return found
    _, journal = found
    lines = history_lines(journal)
    if len(journal.entries) > SHOWN:
        first = len(journal.entries) - SHOWN
        lines = [lines[0], f"... {first} earlier entries", *lines[1 + first :]]
    return "\n".join(lines)


def undo_text(book: Any) -> str:
    found = _journal(book)
    if isinstance(found, str):
        return found
    path, journal = found
    state = replay(journal.entries)
    if not state.in_effect:
        return f"{path.name} has nothing to undo yet."
    last = describe(journal.entry(state.in_effect[-1]))
    return (
        f"The last action in the journal is entry {last}.\n\n"
        "Undo works on the saved file, not yet inside this window. To take it back:\n"
        "1. Save and close this workbook.\n"
        f'2. Run: python -m addin undo "{path}"\n'
        "3. Open the workbook again.\n\n"
        "Actions done with the ribbon are not journal entries yet: undo sees them as "
        "changes made by hand after the last entry, and asks before losing them."
    )
