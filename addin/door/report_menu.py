"""The Reports menu: each item writes its report to a sheet and to a PDF beside the workbook.

Nothing is asked: the item says which report and sort order, the round is the last one
paired, and the PDF is named after the workbook and the report, in the workbook's folder
(a workbook never saved, or one the remote engine holds, writes to the temporary folder).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from addin.reports.kinds import KINDS

if TYPE_CHECKING:
    import xlwings as xw


def report_folder(book: xw.Book) -> Path:
    """The workbook's folder, or the temporary folder when it has none on this disk."""
    with contextlib.suppress(Exception):
        folder = Path(str(book.fullname)).parent
        if folder.is_absolute() and folder.is_dir():
            return folder
    return Path(tempfile.gettempdir())


def report_file(book: xw.Book, kind: str, sort: str) -> Path:
    stem = Path(str(book.name)).stem
    by = "" if len(KINDS[kind].sorts) == 1 else f" by {'name' if sort == 'alphabetical' else sort}"
    return report_folder(book) / f"{stem} - {KINDS[kind].title}{by}.pdf"


def report_preset(preset: tuple[str, str], book: xw.Book) -> dict[str, object]:
    """The ``report`` action's parameters for a menu item: a sheet and a PDF."""
    kind, sort = preset
    return {"kind": kind, "sort": sort, "out": str(report_file(book, kind, sort)), "sheet": True}


def open_file(path: Path, book: xw.Book) -> None:
    """Show the PDF in the TD's viewer; quietly nothing where there is none (remote engine)."""
    if book.app.engine.name == "remote" or not path.exists():
        return
    with contextlib.suppress(Exception):  # a viewer that will not start must not fail the report
        if sys.platform == "win32":  # mypy checks os.startfile only for Windows
            os.startfile(path)
        elif sys.platform == "darwin":
            subprocess.Popen(["open", str(path)])
        else:
            subprocess.Popen(["xdg-open", str(path)])
