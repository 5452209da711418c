"""What every action has in hand: the gateway, warnings to confirm, and the log.

An action computes first, then calls ``session.warn(...)`` with anything that
breaks a rule. The front door asks the TD (a dialog in Excel, ``--yes`` on the
command line); if the TD declines, ``Cancelled`` is raised before anything is
written. Only then does the action write its tables. Every warning the TD
accepted and every action done is appended to the Log sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from addin.workbook.gateway import Gateway, LogEntry, Problem
from addin.workbook.saving import SaveRefused, write_bytes_safely


class ActionError(Exception):
    """The action cannot be done; the workbook is left unchanged."""

    def __init__(self, message: str, problems: Sequence[Problem] = ()) -> None:
        super().__init__(message)
        self.problems = list(problems)

    def __str__(self) -> str:
        lines = [super().__str__()]
        lines += [f"  {p}" for p in self.problems]
        return "\n".join(lines)


class Cancelled(Exception):
    """The TD did not confirm a warning; nothing was written."""

    def __init__(self, warnings: Sequence[str]) -> None:
        super().__init__("; ".join(warnings))
        self.warnings = list(warnings)


MAX_INPUT_BYTES = 100 * 1024 * 1024
"""The largest file an action reads (the whole AGA membership list is 1.4 MB)."""


def read_input(path: Path) -> bytes:
    """The bytes of a file the TD named, or an ActionError saying why not."""
    try:
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise ActionError(
                f"{path}: {size:,} bytes is more than the {MAX_INPUT_BYTES // 2**20} MB "
                "this reads; is it the right file?"
            )
        return path.read_bytes()
    except OSError as err:
        raise ActionError(f"cannot read {path}: {err.strerror}") from err


@dataclass
class Session:
    gw: Gateway
    action: str
    log: list[LogEntry] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    """What the action reports to the TD when it is done."""
    force: bool = False
    """``--force``: an output may replace another tournament workbook (a backup is kept)."""
    in_terminal: bool = False
    """The command line: an action may keep running after the workbook is released."""
    afterwards: Callable[[], int] | None = None
    """What the command line runs once the workbook is released and the messages printed
    (``serve``'s server, until Ctrl-C; ``import-tdlista``'s index of the new list); its
    result is the exit code."""
    wrote_sheet: bool = False
    """The action wrote a sheet that is not tournament data (a report sheet): the workbook
    is saved, but nothing goes to the Log and the undo backups are left alone."""

    def warn(self, warnings: Sequence[str]) -> None:
        """Ask the TD to accept ``warnings``; raise ``Cancelled`` if they do not."""
        warnings = list(dict.fromkeys(warnings))
        if not warnings:
            return
        text = "\n".join(f"- {w}" for w in warnings)
        if not self.gw.confirm(f"{self.action}: please check before going on:\n{text}"):
            raise Cancelled(warnings)
        self.log += [LogEntry("Warning", self.action, w) for w in warnings]
        self.log.append(LogEntry("Confirmed", self.action, "TD accepted the warnings above"))

    def done(self, message: str) -> None:
        self.messages.append(message)
        self.log.append(LogEntry("Action", self.action, message))

    def wrote(self, message: str) -> None:
        """Tell the TD a report sheet was written; it changes no tournament data, so no Log."""
        self.messages.append(message)
        self.wrote_sheet = True

    def say(self, message: str) -> None:
        """Tell the TD something without logging it (lookup results, for instance)."""
        self.messages.append(message)

    def write_output(self, path: Path, data: bytes) -> None:
        """Write an output file safely; never over the workbook itself, and over another
        tournament workbook only with ``force``. Refusals are ``ActionError``."""
        workbook = getattr(self.gw, "path", None)
        try:
            write_bytes_safely(path, data, workbook=workbook, force=self.force)
        except SaveRefused as err:
            raise ActionError(str(err)) from err
        except OSError as err:
            raise ActionError(f"could not write {path}: {err.strerror or err}") from err

    def require_no_problems(self, problems: Sequence[Problem], what: str) -> None:
        if problems:
            raise ActionError(f"{self.gw.source}: {what}", problems)
