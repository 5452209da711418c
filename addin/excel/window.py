"""The open Excel workbook as the journal needs it (:class:`addin.door.window_journal.Window`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from addin.door.window_journal import JOURNALED, NO_FILE
from addin.workbook.xlwings_gateway import local_file


class ExcelWindow:
    """An xlwings Book: ``book.save()`` keeps its file and format; to put a snapshot back
    Excel must close the file first (Windows does not replace a file Excel holds)."""

    door = "Excel"

    def __init__(self, book: Any) -> None:
        self.book = book

    def file(self) -> Path | None:
        if self._remote():
            return None
        path = self._path()
        return path if path is not None and path.suffix.lower() in JOURNALED else None

    def on_disk(self) -> Path | None:
        return self._path()

    def unavailable(self) -> str:
        path = self._path()
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

    def _path(self) -> Path | None:
        return local_file(self.book)

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
