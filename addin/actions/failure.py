"""One line for a failure nobody foresaw, the same at both front doors.

The command line prints it (the traceback only with ``--debug``); Excel shows it in a
dialog. A failure foreseen is an ``ActionError`` with its own message; this is the net
under everything else, so a TD never sees a traceback nor a value echoed at length.
"""

from __future__ import annotations

from addin.core.limits import shown

MAX_TEXT = 300
"""Characters of an exception's own text kept in the line."""


def describe(err: BaseException) -> str:
    """What went wrong, in one line of at most a few hundred characters."""
    if isinstance(err, MemoryError):
        return "out of memory: an input is far larger than a tournament needs"
    if isinstance(err, RecursionError):
        return "an input is nested too deeply to read"
    if isinstance(err, OSError) and err.strerror:
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}{err.strerror}"
    text = " ".join(str(err).split())
    if type(err).__name__ == "IllegalCharacterError":  # openpyxl, named without importing it
        value = text.removesuffix(" cannot be used in worksheets.")
        return f"{shown(value)} holds control characters, which no Excel cell may hold"
    if len(text) > MAX_TEXT:
        text = f"{text[:MAX_TEXT]}... ({len(text):,} characters)"
    return f"{type(err).__name__}: {text}" if text else type(err).__name__
