"""The open Excel workbook, as the window doors' dispatcher and the store need it
(:class:`addin.door.dispatch.OpenWindow`): its storage through xlwings, the journal's view
of its file, its dialogs and its selection."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from openpyxl.utils import get_column_letter

from addin.actions.change import SelectRows
from addin.door.dialogs import Dialogs
from addin.door.journal_file import JOURNALED, NO_FILE, beside
from addin.door.report_menu import report_folder, show_file
from addin.door.selected import rows_address
from addin.workbook.gateway import Selection, selected_rows
from addin.workbook.xlwings_gateway import XlwingsGateway, local_file, visible_address


class ExcelWindow:
    """An xlwings Book: ``book.save()`` keeps its file and format; to put a snapshot back
    Excel must close the file first (Windows does not replace a file Excel holds)."""

    door = "Excel"

    def __init__(self, book: Any, dialogs: Dialogs) -> None:
        self.book = book
        self.dialogs = dialogs
        self.name = str(book.name)
        self.full_name = _full_name(book)

    # --- the store's side ---------------------------------------------------------------

    def storage(self) -> XlwingsGateway:
        return XlwingsGateway(self.book)

    def journal_view(self) -> ExcelWindow:
        return self

    # --- the journal's view: Window -----------------------------------------------------

    def file(self) -> Path | None:
        if self._remote():
            return None
        path = local_file(self.book)
        return path if path is not None and path.suffix.lower() in JOURNALED else None

    def on_disk(self) -> Path | None:
        return local_file(self.book)

    def unavailable(self) -> str:
        path = local_file(self.book)
        if self._remote() and path is not None:
            return (
                "Undo cannot reach the workbook's file from xlwings' remote engine. "
                f'Save and close the workbook, then run: python -m addin undo "{path}"'
            )
        return NO_FILE

    def _remote(self) -> bool:
        try:
            return bool(self.book.app.engine.name == "remote")
        except Exception:
            return False

    def save(self) -> None:
        self.book.save()

    def modified(self) -> bool:
        try:
            return not bool(self.book.api.Saved)  # Excel's own "no changes since saved"
        except Exception:
            return True

    def reopen(self, between: Callable[[], None]) -> Any:
        app, path = self.book.app, str(self.book.fullname)
        self.book.close()
        try:
            between()
        finally:
            self.book = app.books.open(path)
        return self.book

    # --- the TD's side: selection, opening files ----------------------------------------

    def selection(self) -> Selection | None:
        """The selected range's sheet and rows, read from Excel with one call or two."""
        try:
            rng = self.book.selection
            if rng is None:
                raise LookupError("nothing is selected")
            sheet, address = str(rng.sheet.name), visible_address(rng)
        except Exception:  # a multi-area selection on the remote engine, a shape, nothing
            if not self._remote():
                return None
            snapshot = self.book.api["book"]
            sheet = self.book.sheets[int(snapshot["active_sheet_index"])].name
            address = str(snapshot.get("selection") or "")
        rows = selected_rows(address)
        return Selection(sheet, rows) if rows else None

    def select(self, request: SelectRows) -> bool:
        try:
            sheet = self.book.sheets[request.sheet]
            sheet.activate()
            address = rows_address(list(request.rows), get_column_letter(request.columns))
            if self._remote():  # no multi-area ranges there: the first run
                address = address.split(",")[0]
            sheet.range(address).select()
        except Exception:  # selecting is a convenience: the answer stands without it
            return False
        return True

    def open_workbook(self, path: Path) -> bool:
        try:
            self.book.app.books.open(str(path))
        except Exception:  # the remote engine (and a sandboxed Mac Excel) cannot open files
            return False
        return True

    def show_file(self, path: Path) -> None:
        """Show the PDF in the TD's viewer; nothing on the remote engine (no viewer there)."""
        if not self._remote():
            show_file(path)

    def report_folder(self) -> Path:
        return report_folder(beside(self.full_name))


def _full_name(book: Any) -> str:
    """The open workbook's full name (its file, or its window's name when unsaved)."""
    try:
        return str(book.fullname)
    except Exception:  # the remote engine and some unsaved books have no full name
        return str(book.name)
