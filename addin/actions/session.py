"""What every action has in hand: the gateway, warnings to confirm, and the log.

An action computes first, then calls ``session.warn(...)`` with anything that
breaks a rule. The front door asks the TD (a dialog in Excel, ``--yes`` on the
command line); if the TD declines, ``Cancelled`` is raised before anything is
written. Only then does the action write its tables. Every warning the TD
accepted and every action done is appended to the Log sheet. The runner
(:mod:`addin.actions.runner`) makes the session, and takes back what the action
leaves in it: messages, requests for the door, a workbook it created.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

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


class ParamError(ActionError):
    """A parameter the TD gave (or did not give) cannot be used: on the command line a
    usage error (exit 2)."""


class Cancelled(Exception):
    """The TD did not confirm a warning; nothing was written."""

    def __init__(self, warnings: Sequence[str], *, quiet: bool = False) -> None:
        super().__init__("; ".join(warnings))
        self.warnings = list(warnings)
        self.quiet = quiet
        """The question said it all: a window does not say again that nothing was done."""


class Window(Protocol):
    """The workbook's file and what shows it: the window of a spreadsheet application
    (:mod:`addin.door.window_journal`), or on the command line the file alone. Actions
    that work on the journal (history, undo) reach the workbook only through this."""

    door: str
    """Who acted, as the journal records it: ``CLI``, ``Excel`` or ``Calc``."""

    def file(self) -> Path | None:
        """The .xlsx file the window shows and can save, or None (not saved yet, another
        format, an engine that cannot save)."""

    def on_disk(self) -> Path | None:
        """The workbook's file on this machine, if any (its journal can be read)."""

    def unavailable(self) -> str:
        """Why :meth:`file` is None, and what the TD can do instead."""

    def save(self) -> None:
        """Save the window to :meth:`file`, in its own format."""

    def modified(self) -> bool:
        """Whether the window holds changes its file does not (True when unsure)."""

    def reopen(self, between: Callable[[], None]) -> Any:
        """Let go of the file, run ``between`` (which may replace it), and show the file
        again; the document now shown (even when ``between`` failed)."""


@dataclass(frozen=True)
class SelectRows:
    """A request to the door: select these rows of this sheet (a file has no selection)."""

    sheet: str
    rows: tuple[int, ...]
    columns: int
    """How many columns, from A, the selection spans."""
    message: str
    """What to tell the TD once they are selected."""


@dataclass(frozen=True)
class OpenFile:
    """A request to the door: show this workbook (a window opens it; a terminal cannot)."""

    path: Path


@dataclass(frozen=True)
class Replaced:
    """A request to the door: the window now shows this document (undo reopened the file)."""

    document: Any


Request = SelectRows | OpenFile | Replaced


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
    window: Window | None = None
    """The workbook's file and window, for an action that works on the journal."""
    made: Any = None
    """The gateway of a workbook the action created (``new``): the runner saves it to its
    path and journals it."""
    requests: list[Request] = field(default_factory=list)
    """What the action asks the door to do once it is done (select rows, open a file)."""
    problems_found: bool = False
    """The action ran and its answer is no (``check`` found problems): the command line
    exits 1; nothing else changes."""

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
