"""What the window doors share about the workbook's file: which files the journal keeps,
and where a window's reports go."""

from __future__ import annotations

from pathlib import Path

JOURNALED = (".xlsx", ".xlsm")
"""Files whose snapshots the journal can compare sheet by sheet (openpyxl reads them)."""
NO_FILE = (
    "This workbook has no .xlsx file yet: the journal is kept beside the saved file, "
    "from the first action after it is saved as .xlsx."
)


def beside(full_name: str) -> Path | None:
    """The folder of a window's file, when it has one on this disk."""
    folder = Path(full_name).parent
    return folder if folder.is_absolute() and folder.is_dir() else None
