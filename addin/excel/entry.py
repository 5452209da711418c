"""The Excel add-in's dispatcher: every ribbon button runs ``dispatch(control_id)``.

The VBA behind every button is one line, ``RunPython "import addin.excel.entry as
e;e.dispatch('<control id>')"``. The work is the window doors' shared dispatcher
(:func:`addin.door.dispatch.dispatch`) with Excel's open window
(:class:`addin.excel.window.ExcelWindow`: its storage through xlwings, its dialogs, its
selection, the journal's view of its file).

Tests (and scripts) call ``dispatch(id, book=..., params={...})``: with ``params``
given nothing is asked, which is also the only way on xlwings' remote engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from addin.door import dispatch as shared
from addin.door.dialogs import Dialogs
from addin.door.dispatch import SAVE_AS, Outcome
from addin.excel.dialogs import ExcelDialogs
from addin.excel.window import ExcelWindow

if TYPE_CHECKING:
    import xlwings as xw

__all__ = ["SAVE_AS", "Outcome", "dispatch"]


def dispatch(
    control_id: str,
    book: xw.Book | None = None,
    params: Mapping[str, object] | None = None,
    *,
    dialogs: Dialogs | None = None,
    yes: bool = False,
) -> Outcome:
    """Run the action behind a ribbon button on ``book`` (default: the calling workbook).

    ``params`` given: nothing is asked, missing optional parameters are blank.
    ``yes``: accept warnings without asking, like ``--yes`` on the command line.
    Never raises: every failure becomes a dialog.
    """
    if book is None:
        import xlwings as xw

        book = xw.Book.caller()
    window = ExcelWindow(book, dialogs or ExcelDialogs(book.app))
    return shared.dispatch(control_id, window, params, yes=yes)
