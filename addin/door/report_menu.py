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

from addin.reports.kinds import KINDS, sort_word


def report_folder(beside: Path | None) -> Path:
    """The workbook's folder, or the temporary folder when it has none on this disk."""
    return beside if beside is not None else Path(tempfile.gettempdir())


def report_file(folder: Path, book_name: str, kind: str, sort: str) -> Path:
    stem = Path(book_name).stem
    by = "" if len(KINDS[kind].sorts) == 1 else f" by {sort_word(sort)}"
    return folder / f"{stem} - {KINDS[kind].title}{by}.pdf"


def report_preset(preset: tuple[str, str], folder: Path, book_name: str) -> dict[str, object]:
    """The ``report`` action's parameters for a menu item: a sheet and a PDF."""
    kind, sort = preset
    return {
        "kind": kind,
        "sort": sort,
        "out": str(report_file(folder, book_name, kind, sort)),
        "sheet": True,
    }


def show_file(path: Path) -> None:
    """Show a report in the TD's viewer; quietly nothing where there is none (a viewer that
    will not start must not fail the report)."""
    if not path.exists():
        return
    with contextlib.suppress(Exception):
        if sys.platform == "win32":  # mypy checks os.startfile only for Windows
            os.startfile(path)
        elif sys.platform == "darwin":
            subprocess.Popen(["open", str(path)])
        else:
            subprocess.Popen(["xdg-open", str(path)])
