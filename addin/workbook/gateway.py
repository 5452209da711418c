"""The tables of a workbook as its readers and writers see them: rows of typed values,
and the problems found reading them, each pinned to its cell.

A reader takes a ``TableSource`` and a writer a ``TableSink``: an action's draft
(``addin.actions.change``) or a storage (:class:`Storage`). Each table is read
once as a block and written once as a block.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Protocol, TypeVar

from addin.workbook import gateway
from addin.workbook.layout import Table

T = TypeVar("T")


class WorkbookError(RuntimeError):
    """The file cannot be used as a tournament workbook at all."""


@dataclass(frozen=True)
class Part:
    """The part of the tournament a cell feeds, so an action can tell whether it needs it.

    ``kind`` is ``player`` (``key``: the AGA #, ``None`` for a row that is no player yet;
    ``column``: the Players column key), ``round`` (``key``: its number), ``requests``
    (``key``: the request's round, ``None`` for every round), ``bands`` or ``setting``
    (``key``: the setting's key).
    """

    kind: str
    key: object = None
    column: str | None = None


@dataclass(frozen=True)
class Problem:
    """Something in the workbook that cannot be understood, pinned to its cell."""

    sheet: str
    message: str
    cell: str | None = None
    """An A1 reference such as ``E7``; ``None`` when the problem is the whole sheet."""
    column: str | None = None
    affects: Part | None = None
    """What the bad cell feeds; ``None``: the whole tournament (every action stops)."""
    missing_player: int | None = None
    """The AGA # the cell names that is not (yet) a player: completing that Players row
    answers the problem."""
    unreadable: bool = False
    """The cell holds a value of the wrong kind (text in a number, an error value...)."""

    def __str__(self) -> str:
        where = f"{self.sheet}!{self.cell}" if self.cell else self.sheet
        if self.column:
            where += f" ({self.column})"
        return f"{where}: {self.message}"


@dataclass
class Row:
    """One data row: typed values by column key, and the TD's own columns untouched."""

    values: dict[str, object]
    number: int | None = None
    """The sheet row it was read from (for messages)."""
    extra: dict[str, object] = field(default_factory=dict)
    """Values of columns the layout does not know, by header."""
    cells: dict[str, str] = field(default_factory=dict)
    """A1 reference of each known column's cell, by key (for messages)."""
    unread: dict[str, object] = field(default_factory=dict)
    """Cells that could not be read, as typed, by key: written back unchanged while the
    row's value stays ``None``, so rewriting a table never erases what the TD typed."""

    def __getitem__(self, key: str) -> object:
        return self.values.get(key)

    def get(self, key: str, default: object = None) -> object:
        value = self.values.get(key)
        return default if value is None else value

    # Each value as its column's kind types it (``whole``... below: another type is a bug).

    def whole(self, key: str) -> int | None:
        return gateway.whole(self.values, key)

    def numeric(self, key: str) -> float | None:
        return gateway.numeric(self.values, key)

    def day(self, key: str) -> date | None:
        return gateway.day(self.values, key)

    def text(self, key: str) -> str:
        """``""`` when blank."""
        return gateway.text(self.values, key)

    def flag(self, key: str) -> bool:
        """``False`` when blank."""
        return gateway.flag(self.values, key)

    def typed(self, key: str, kind: type[T]) -> T | None:
        return gateway.typed(self.values, key, kind)

    def where(self, table: Table, key: str) -> Problem:
        """A Problem template naming this row's cell in column ``key``."""
        return Problem(table.sheet, "", self.cells.get(key), table.column(key).header)


@dataclass
class TableData:
    table: Table
    rows: list[Row]
    problems: list[Problem]
    present: bool = True
    """False when the sheet or the table is missing altogether."""
    notices: list[Problem] = field(default_factory=list)
    """Things read tolerantly that a TD may want to tidy: blank rows, numbers stored as text."""

    def problem(self, row: Row, key: str, message: str) -> Problem:
        where = row.where(self.table, key)
        return Problem(where.sheet, message, where.cell, where.column)


@dataclass(frozen=True)
class LogEntry:
    level: str
    action: str
    message: str
    timestamp: datetime = field(default_factory=lambda: datetime.now().replace(microsecond=0))


WriteRow = Row | Mapping[str, object]


@dataclass(frozen=True)
class Selection:
    """The cells the TD selected before clicking a button: a sheet and its selected rows."""

    sheet: str
    rows: tuple[int, ...]
    """Sheet row numbers, ascending, each once (a multi-area selection is merged)."""


def selected_rows(address: str) -> tuple[int, ...]:
    """The rows of an A1 address such as ``$A$3:$C$5,$A$8`` or ``4:6`` (whole rows)."""
    rows: set[int] = set()
    for area in address.replace("$", "").split(","):
        area = area.strip().split("!")[-1]
        if not area:
            continue
        ends = [int("".join(ch for ch in end if ch.isdecimal()) or 0) for end in area.split(":")]
        if 0 in ends:  # a whole column (A:A): no row in particular
            continue
        rows.update(range(min(ends), max(ends) + 1))
    return tuple(sorted(rows))


class TableSource(Protocol):
    """Where the workbook's readers read tables: an action's draft, or a storage."""

    @property
    def source(self) -> str:
        """The workbook's name, for messages."""
        ...

    def sheet_names(self) -> list[str]: ...

    def read_table(self, table: Table) -> TableData: ...


class TableSink(Protocol):
    """Where the workbook's writers write tables: an action's draft, or a storage."""

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        """Replace the table's data rows; the TD's extra columns travel with ``Row.extra``."""
        ...

    def remove_sheet(self, sheet: str) -> None: ...


class Tables(TableSource, TableSink, Protocol):
    """Tables read and written: the readers' and writers' view of an action's draft."""


class Storage(Protocol):
    """The workbook as the tournament store reads and writes it, whatever holds it: a file
    on disk (``addin.workbook.file_store``), Excel's open window (``XlwingsGateway``) or
    Calc's (``addin.calc.uno_gateway``). Tables read and written as blocks, sheets
    removed, Log lines appended."""

    @property
    def source(self) -> str:
        """The workbook's name, for messages."""
        ...

    @property
    def path(self) -> Path | None:
        """Its file on this machine, if any."""
        ...

    def sheet_names(self) -> list[str]: ...

    def read_table(self, table: Table) -> TableData: ...

    def write_table(self, table: Table, rows: Sequence[WriteRow]) -> None:
        """Replace the table's data rows; the TD's extra columns travel with ``Row.extra``."""
        ...

    def remove_sheet(self, sheet: str) -> None: ...

    def append_log(self, entries: Sequence[LogEntry]) -> None: ...

    def commit(self) -> None:
        """Send the queued writes to the workbook (an open window's storage queues them; a
        file's changes it in memory, and saving writes the file)."""
        ...


# --- a value read from a table, as its column's kind types it -----------------------------
# A value read from a table, as the type its column's kind gives it, checked.
#
# The cell parser (``cells.parse``) has typed each value by its column's kind: an ``int``
# in a whole-number or AGA # column, a ``float`` in a number, rating or money column, a
# ``date`` in a date column, a ``bool`` in a Yes/No column, a ``str`` in a text or choice
# column. A cell the TD typed otherwise is a problem naming the cell, never a value, so a
# value of another type here is a bug in the code that put it there: it raises TypeError
# instead of flowing on as a wrong number. ``None`` is a blank cell.
#
# The same accessors read a row (``Row.whole``...) and the Settings values by key.


class WrongType(TypeError):
    """A value of another type than its column's kind gives (a bug, not the TD's typing)."""

    def __init__(self, key: str, value: object, expected: str) -> None:
        super().__init__(f"{key!r} holds {type(value).__name__} {value!r}, not {expected}")


def whole(values: Mapping[str, object], key: str) -> int | None:
    """A whole number (a count, a round, an AGA #); ``None`` when blank."""
    value = values.get(key)
    if value is None or type(value) is int:
        return value
    if isinstance(value, int) and not isinstance(value, bool):  # an int of a subclass
        return int(value)
    raise WrongType(key, value, "a whole number")


def numeric(values: Mapping[str, object], key: str) -> float | None:
    """A number (a rating, a score, komi, dollars), a whole one as a float; ``None`` when
    blank."""
    value = values.get(key)
    if value is None or type(value) is float:
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise WrongType(key, value, "a number")


def day(values: Mapping[str, object], key: str) -> date | None:
    """A date; ``None`` when blank."""
    value = values.get(key)
    if value is None or isinstance(value, date):
        return value
    raise WrongType(key, value, "a date")


def text(values: Mapping[str, object], key: str) -> str:
    """Text, or a choice; ``""`` when blank."""
    value = values.get(key)
    if type(value) is str:
        return value
    if value is None:
        return ""
    if isinstance(value, str):  # a formula the TD typed (``Formula``): its text, plain
        return str(value)
    raise WrongType(key, value, "text")


def flag(values: Mapping[str, object], key: str) -> bool:
    """Yes (True) or No; ``False`` when blank."""
    value = values.get(key)
    if value is None or isinstance(value, bool):
        return bool(value)
    raise WrongType(key, value, "Yes or No")


def typed(values: Mapping[str, object], key: str, kind: type[T]) -> T | None:
    """A value of ``kind`` (a game's ``Result``, a set of rounds); ``None`` when blank."""
    value = values.get(key)
    if value is None or isinstance(value, kind):
        return value
    raise WrongType(key, value, kind.__name__)
