"""What an action reads, and the change it makes: the one shape of every TD action.

An action is a function ``(Snapshot, its parameters) -> Change``. The store
(:mod:`addin.store`) loads the :class:`Snapshot`: the sections of the workbook the action
declares it reads (``addin.actions.registry``), each read when the action first asks for
it, as it stood when loaded. The action computes, and returns a :class:`Change`: the
tables it writes and the sheets it removes, its warnings for the TD to accept, its Log
lines, its messages, the files it writes beside the workbook and its requests to the door
(select these rows, open this file). It never opens, locks, saves or journals anything:
the store commits the change, once, for every door.

An action builds its change in a :class:`Draft`: the snapshot to read, the change to
write. The workbook's readers and writers (``addin.workbook``) take the draft as they
take any table source or sink.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from addin.workbook.gateway import LogEntry, Problem, TableData, WriteRow
from addin.workbook.layout import Section, Table, section_of, section_of_sheet

# --- refusals and questions -------------------------------------------------------------


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


class Ask(Exception):
    """The action needs the TD's answer to go on (replace a file? stop the server?): the
    store asks the door and runs the action again with the parameters the answer gives
    (``yes`` or ``no``); an answer with no parameters cancels, quietly."""

    def __init__(
        self,
        question: str,
        yes: dict[str, object],
        no: dict[str, object] | None = None,
        *,
        cancelled: Sequence[str] = (),
    ) -> None:
        super().__init__(question)
        self.question, self.yes, self.no = question, yes, no
        self.cancelled = list(cancelled)
        """What a "no" that cancels says was not done (empty: the question said it)."""


class Fetch(Exception):
    """The action needs a file from the web (a rating list): the store downloads ``url``
    before anything is written, showing the door its progress, and runs the action again
    with the download (``addin.download.Downloaded``) as the parameter ``into``. A download
    that fails refuses the action in one line: the workbook stays as it was. An action
    never opens a socket itself, as it never opens a file (``registry.InputFile``)."""

    def __init__(self, url: str, into: str) -> None:
        super().__init__(url)
        self.url, self.into = url, into


class UndeclaredAccess(AssertionError):
    """An action read or wrote a section it did not declare: a bug in its declaration."""


# --- requests to the door ---------------------------------------------------------------


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


# --- what an action reads ---------------------------------------------------------------


class Tables(Protocol):
    """Where a snapshot's tables come from: the store's storage of the workbook."""

    @property
    def source(self) -> str: ...

    def sheet_names(self) -> list[str]: ...

    def read_table(self, table: Table) -> TableData: ...


class Window(Protocol):
    """The workbook's file and what shows it: a spreadsheet application's window, or on
    the command line the file alone. The store saves and journals through it; the
    journal's actions (history, undo) read the journal beside its file."""

    door: str
    """Who acts, as the journal records it: ``CLI``, ``Excel``, ``Calc``, a station's name."""

    def file(self) -> Path | None:
        """The .xlsx file the window shows and can save, or None (not saved yet, another
        format, an engine that cannot save)."""
        ...

    def on_disk(self) -> Path | None:
        """The workbook's file on this machine, if any (its journal can be read)."""
        ...

    def unavailable(self) -> str:
        """Why :meth:`file` is None, and what the TD can do instead."""
        ...

    def save(self) -> None:
        """Save the window to :meth:`file`, in its own format."""
        ...

    def modified(self) -> bool:
        """Whether the window holds changes its file does not (True when unsure)."""
        ...

    def reopen(self, between: Callable[[], None]) -> Any:
        """Let go of the file, run ``between`` (which may replace it), and show the file
        again; the document now shown (even when ``between`` failed)."""
        ...


EarlierRound = Callable[[int, str], Any]
"""``(round number, pairing digest) ->`` that round as the journal kept it when the Log
stamped that digest (``addin.journal.rounds``), or None."""


class Snapshot:
    """The workbook as an action reads it: the sections it declared, each table read when
    first asked for (a desk action whose Players rows are settled never reads the
    22,000-member TDListA), through the store's storage, as loaded."""

    def __init__(
        self,
        tables: Tables,
        action: str,
        reads: Collection[Section],
        writes: Collection[Section] = (),
        *,
        path: Path | None = None,
        earlier_round: EarlierRound | None = None,
        window: Window | None = None,
        terminal: bool = False,
        force: bool = False,
    ) -> None:
        self._tables = tables
        self.action = action
        self.reads = frozenset(reads)
        self.writes = frozenset(writes)
        """What the action declares it may write (a draft holds it to that)."""
        self.path = path
        """The workbook's file, where there is one (outputs go beside it)."""
        self._earlier_round = earlier_round
        self.window = window
        """The journal's actions only: the workbook's file and window."""
        self.terminal = terminal
        """The door is a terminal: its messages are printed once the action is done, and a
        server may run in the foreground (a window's runs in the background)."""
        self.force = force
        """``--force``: the TD overrides what it overrides (an export the AGA would reject;
        a file held open elsewhere is written)."""

    @property
    def source(self) -> str:
        """The workbook's name, for messages."""
        return self._tables.source

    def sheet_names(self) -> list[str]:
        return self._tables.sheet_names()

    def read_table(self, table: Table) -> TableData:
        self._declared(table)
        return self._tables.read_table(table)

    def _declared(self, table: Table) -> None:
        section = section_of(table)
        if section not in self.reads:
            raise UndeclaredAccess(
                f"{self.action} read {table.name} ({section.value}), which it does not declare"
            )

    def content_keys(self, table: Table) -> Iterator[str]:
        """Keys of ``table``'s content as stored (the member index's cache key), where the
        storage can tell them without reading the table."""
        self._declared(table)
        keys = getattr(self._tables, "content_keys", None)
        if keys is not None:
            yield from keys(table)

    def earlier_round(self, number: int, digest: str) -> Any:
        """Round ``number`` as the journal kept it when the Log stamped ``digest``; None
        where the workbook has no journal."""
        return self._earlier_round(number, digest) if self._earlier_round else None


# --- the change -------------------------------------------------------------------------


@dataclass(frozen=True)
class NewWorkbook:
    """A workbook ``new`` makes: the template with these settings, at ``path``."""

    path: Path
    values: dict[str, object]
    replace: bool
    """Replace a file already there (``--force``, or the TD said so)."""


class Effect(Protocol):
    """Something an action makes outside the workbook (a site folder), made by the store
    when it commits the change, never before the TD accepted its warnings."""

    def make(self) -> None:
        """Make it; ``ActionError`` says why not (nothing of the workbook is written then)."""
        ...


@dataclass(frozen=True)
class Output:
    """A file the action writes beside the workbook (a report, an export, a poster)."""

    path: Path
    data: bytes


@dataclass(frozen=True)
class WriteTable:
    """A table written whole: its rows replace the table's data rows."""

    table: Table
    rows: list[WriteRow]


@dataclass(frozen=True)
class RemoveSheet:
    sheet: str


Edit = WriteTable | RemoveSheet


@dataclass(frozen=True)
class Queued:
    """An entry sent from elsewhere (a station), for the store to run after the action that
    takes it in (``take-entries``), in the same turn and commit: its own action and
    parameters, its sender's answers to the questions it was asked (by the question's
    text), who sent it and the entry's id."""

    action: str
    params: dict[str, object]
    answers: dict[str, bool]
    by: str
    entry: str


@dataclass
class Change:
    """What an action does, for the store to commit: nothing of it is real until then."""

    action: str
    edits: list[Edit] = field(default_factory=list)
    """The tables written and the sheets removed, in order (a report's sheet is removed,
    then written again with its new columns)."""
    warnings: list[str] = field(default_factory=list)
    """What the TD must accept before anything is written (each once)."""
    log: list[LogEntry] = field(default_factory=list)
    """The Log lines, in order; the warnings' own lines where they were raised."""
    messages: list[str] = field(default_factory=list)
    """What to tell the TD when it is done."""
    outputs: list[Output] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    report_sheet: bool = False
    """A sheet that is no tournament data (a report) was written: the workbook is saved,
    without a journal entry."""
    problems_found: bool = False
    """The action ran and its answer is no (``check`` found problems)."""
    summary: str = ""
    """The line that sums the answer up (``check``'s count): a terminal prints it last,
    under the list; a dialog first."""
    afterwards: Callable[[], int] | None = None
    """What the command line runs once the workbook is released and the messages printed
    (``serve``'s server, until Ctrl-C); its result is the exit code."""
    creates: NewWorkbook | None = None
    """``new``: the workbook to make (the store saves and journals it)."""
    restore: Any = None
    """``undo``, ``redo``: the journal's plan of the state to put back (the store puts it
    back and shows it again)."""
    prune_before: int | None = None
    """``history --prune-before N``: the store removes the snapshots only entries before
    N need."""
    queued: list[Queued] = field(default_factory=list)
    """``take-entries``: the entries the store runs next, each through its own action, as
    its sender answered (one not taken is said, and waits no more)."""

    @property
    def changes_tournament(self) -> bool:
        """Whether committing it changes the tournament: a table or sheet of the tournament
        written or removed, or a Log line (a report's sheet alone is a printout)."""
        return bool(self.log) or any(_section(e) is not Section.REPORT_SHEETS for e in self.edits)


class Draft:
    """An action's workspace: it reads the snapshot and records the change. The workbook's
    readers take it as a table source and its writers as a table sink."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.change = Change(snapshot.action)
        self._written: set[str] = set()

    @property
    def action(self) -> str:
        return self.change.action

    # --- the table source and sink ----------------------------------------------------

    @property
    def source(self) -> str:
        return self.snapshot.source

    @property
    def path(self) -> Path | None:
        return self.snapshot.path

    def sheet_names(self) -> list[str]:
        return self.snapshot.sheet_names()

    def read_table(self, table: Table) -> TableData:
        if table.name in self._written:
            raise UndeclaredAccess(f"read {table.name} after writing it: read first, then write")
        return self.snapshot.read_table(table)

    def content_keys(self, table: Table) -> Iterator[str]:
        return self.snapshot.content_keys(table)

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        self._may(section_of(table), table.name)
        self._written.add(table.name)
        self.change.edits.append(WriteTable(table, list(rows)))

    def remove_sheet(self, sheet: str) -> None:
        section = section_of_sheet(sheet)
        if section is not None:
            self._may(section, sheet)
        self.change.edits.append(RemoveSheet(sheet))

    def _may(self, section: Section, what: str) -> None:
        if section not in self.snapshot.writes:
            raise UndeclaredAccess(
                f"{self.action} wrote {what} ({section.value}), which it does not declare"
            )

    # --- what the action says -----------------------------------------------------------

    def warn(self, warnings: Sequence[str]) -> None:
        """Warnings the TD must accept before the change is written (asked by the store,
        all at once); their Log lines stand here, where they were raised."""
        new = [w for w in dict.fromkeys(warnings) if w not in self.change.warnings]
        if not new:
            return
        self.change.warnings += new
        self.change.log += [LogEntry("Warning", self.action, w) for w in new]
        self.change.log.append(LogEntry("Confirmed", self.action, "TD accepted the warnings above"))

    def done(self, message: str) -> None:
        """Tell the TD what was done, and log it."""
        self.change.messages.append(message)
        self.change.log.append(LogEntry("Action", self.action, message))

    def note(self, message: str) -> None:
        """Log a line without telling the TD (a stamp, a note on what was filled in)."""
        self.change.log.append(LogEntry("Action", self.action, message))

    def say(self, message: str) -> None:
        """Tell the TD something without logging it (lookup results, for instance)."""
        self.change.messages.append(message)

    def wrote(self, message: str) -> None:
        """Tell the TD a report sheet was written: it changes no tournament data, so no Log."""
        self.change.messages.append(message)
        self.change.report_sheet = True

    def output(self, path: Path, data: bytes) -> None:
        """A file to write beside the workbook: written safely by the store, never over the
        workbook itself, and over another tournament workbook only with ``--force``."""
        self.change.outputs.append(Output(path, data))

    def request(self, request: Request) -> None:
        self.change.requests.append(request)

    def require_no_problems(self, problems: Sequence[Problem], what: str) -> None:
        if problems:
            raise ActionError(f"{self.source}: {what}", problems)


def _section(edit: Edit) -> Section | None:
    if isinstance(edit, WriteTable):
        return section_of(edit.table)
    return section_of_sheet(edit.sheet)
