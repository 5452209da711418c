"""Where the journal lives, how it is read and written, and how an action is recorded in it
around the save that makes it real (``record``: the tournament store's only way in).

Beside ``NAME.xlsx`` a folder ``NAME.history/`` holds ``journal.json`` (the entries)
and ``snapshots/``: each state of the workbook an entry saw, before and after, as the
.xlsx bytes (already zip-compressed), named by their SHA-256. The state after one
action is the state before the next, so each is stored once. Every file is written
to a temporary file and renamed into place; nothing is removed except by the TD
(``history --prune-before N``).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from addin.workbook.saving import save_atomically, target_of

FORMAT = 1
JOURNAL_FILE = "journal.json"
SNAPSHOTS = "snapshots"


class JournalError(RuntimeError):
    """The journal or one of its snapshots cannot be used; nothing was changed."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_of(book: Path) -> str | None:
    """The state the journal would name the workbook file by as it is now (what an entry's
    ``before`` and ``after`` hold); None when it cannot be read."""
    try:
        return sha256(target_of(Path(book)).read_bytes())
    except OSError:
        return None


def folder_of(book: Path) -> Path:
    """``tournament.history`` beside ``tournament.xlsx`` (a symbolic link followed)."""
    book = target_of(Path(book))
    return book.with_name(f"{book.stem}.history")


def now() -> str:
    return datetime.now().replace(microsecond=0).isoformat(sep=" ")


@dataclass
class Entry:
    number: int
    action: str
    arguments: dict[str, object]
    time: str
    door: str
    """Who did it: ``CLI``, ``Excel`` or ``Calc``."""
    before: str | None
    """SHA-256 of the workbook before the entry (its snapshot); None: there was none."""
    after: str
    """SHA-256 of the workbook right after the entry."""
    restores: int | None = None
    """An undo or redo: the entry whose *before* state it put back."""
    notes: list[str] = field(default_factory=list)

    @property
    def is_undo(self) -> bool:
        return self.restores is not None


_FIELDS: dict[str, tuple[type, ...]] = {
    "number": (int,),
    "action": (str,),
    "arguments": (dict,),
    "time": (str,),
    "door": (str,),
    "before": (str, type(None)),
    "after": (str,),
    "restores": (int, type(None)),
    "notes": (list,),
}


def _entry(raw: object, where: str) -> Entry:
    if not isinstance(raw, dict):
        raise JournalError(f"{where}: an entry is not an object")
    for name, kinds in _FIELDS.items():
        if name not in raw and name not in ("restores", "notes"):
            raise JournalError(f"{where}: an entry has no {name!r}")
        if name in raw and not isinstance(raw[name], kinds):
            raise JournalError(f"{where}: entry {raw.get('number')!r} has a bad {name!r}")
    return Entry(**{k: v for k, v in raw.items() if k in _FIELDS})


def _write_file(path: Path, data: bytes) -> None:
    def write(tmp: Path) -> None:
        tmp.write_bytes(data)

    save_atomically(write, path, keep=0)


class Journal:
    """The entries of one workbook's journal; read with ``load``, grown with ``append``."""

    def __init__(self, book: Path, entries: list[Entry]) -> None:
        self.book = target_of(Path(book))
        self.folder = folder_of(self.book)
        self.entries = entries

    @property
    def file(self) -> Path:
        return self.folder / JOURNAL_FILE

    @classmethod
    def load(cls, book: Path) -> Journal:
        """The journal of ``book``; empty when it has none yet. Never creates anything."""
        folder = folder_of(book)
        journal = cls(book, [])
        if folder.exists() and not folder.is_dir():
            raise JournalError(f"{folder} is a file, not the journal's folder; rename it")
        if not journal.file.exists():
            if any((folder / SNAPSHOTS).glob("*.xlsx")):
                raise JournalError(f"{journal.file} is missing; the journal cannot be read")
            return journal
        where = str(journal.file)
        try:
            raw = json.loads(journal.file.read_text(encoding="utf-8"))
        except OSError as err:
            raise JournalError(f"{where}: cannot be read: {err.strerror or err}") from err
        except ValueError as err:  # not UTF-8, not JSON, a number of 5,000 digits
            raise JournalError(f"{where}: damaged, not the journal's JSON ({err})") from err
        except RecursionError:
            raise JournalError(f"{where}: damaged, nested too deeply to be the journal") from None
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise JournalError(f"{where}: not a journal of format {FORMAT}")
        listed = raw.get("entries") or []
        if not isinstance(listed, list):
            raise JournalError(f"{where}: damaged, its entries are not a list")
        entries = [_entry(e, where) for e in listed]
        numbers = [e.number for e in entries]
        if numbers != list(range(1, len(entries) + 1)):
            raise JournalError(f"{where}: the entries are not numbered 1, 2, 3 ...")
        journal.entries = entries
        return journal

    def entry(self, number: int) -> Entry:
        if not 1 <= number <= len(self.entries):
            last = len(self.entries)
            raise JournalError(
                f"there is no entry {number} in the journal of {self.book.name} "
                f"(entries 1 to {last})"
                if last
                else f"{self.book.name} has no journal entries"
            )
        return self.entries[number - 1]

    @property
    def next_number(self) -> int:
        return len(self.entries) + 1

    # --- snapshots ----------------------------------------------------------------------

    def snapshot_path(self, digest: str) -> Path:
        return self.folder / SNAPSHOTS / f"{digest}.xlsx"

    def keep_snapshot(self, data: bytes) -> tuple[str, bool]:
        """Store ``data`` (once); its digest, and whether this call wrote it."""
        digest = sha256(data)
        path = self.snapshot_path(digest)
        if path.is_file() and path.stat().st_size == len(data):
            return digest, False
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_file(path, data)
        return digest, True

    def drop_snapshot(self, digest: str | None, written: bool) -> None:
        """Take back a snapshot this run wrote (the action it was for failed)."""
        if digest and written:
            self.snapshot_path(digest).unlink(missing_ok=True)

    def tidy(self) -> None:
        """Remove the journal's folders when a failed first action left them empty."""
        for folder in (self.folder / SNAPSHOTS, self.folder):
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty

    def read_snapshot(self, digest: str, what: str) -> bytes:
        """The bytes of a snapshot, checked against its digest."""
        path = self.snapshot_path(digest)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise JournalError(f"{path}, the snapshot of {what}, is missing") from None
        except OSError as err:
            raise JournalError(f"{path}: cannot be read: {err.strerror or err}") from err
        if sha256(data) != digest:
            raise JournalError(f"{path}, the snapshot of {what}, is damaged (digest differs)")
        return data

    # --- entries ------------------------------------------------------------------------

    def append(self, entry: Entry) -> None:
        """Add ``entry`` and write the journal file in one rename."""
        self._write([*self.entries, entry])
        self.entries.append(entry)

    def rewrite(self) -> None:
        """Write the journal file as ``entries`` now stand (an entry taken back)."""
        self._write(self.entries)

    def _write(self, entries: list[Entry]) -> None:
        document = {
            "format": FORMAT,
            "workbook": self.book.name,
            "entries": [asdict(e) for e in entries],
        }
        self.folder.mkdir(exist_ok=True)
        text = json.dumps(document, indent=1, ensure_ascii=False, default=str)
        _write_file(self.file, text.encode("utf-8"))

    def prune_before(self, number: int) -> int:
        """Remove the snapshots only entries before ``number`` need; how many were removed."""
        needed = {d for e in self.entries[number - 1 :] for d in (e.before, e.after) if d}
        removed = 0
        folder = self.folder / SNAPSHOTS
        for path in sorted(folder.glob("*.xlsx")) if folder.is_dir() else []:
            if path.stem not in needed:
                os.unlink(path)
                removed += 1
        return removed


# --- recording an action around the save that makes it real ---------------------------


def plain_arguments(arguments: Mapping[str, object]) -> dict[str, object]:
    """The arguments as JSON keeps them: paths and dates as text, unset ones left out."""
    plain: dict[str, object] = {}
    for key, value in arguments.items():
        if value is None or value is False:
            continue
        plain[key] = value if isinstance(value, bool | int | float | str) else str(value)
    return plain


def _next_entry(
    journal: Journal,
    action: str,
    arguments: Mapping[str, object],
    door: str,
    before: str | None,
    after: str,
) -> Entry:
    """The next entry of ``journal``: the action, its arguments, now, and both snapshots."""
    return Entry(
        journal.next_number, action, plain_arguments(arguments), now(), door, before, after
    )


def record(
    book: Path,
    action: str,
    arguments: Mapping[str, object],
    save: Callable[[], None],
    *,
    door: str = "CLI",
) -> Entry:
    """Keep the workbook as it is, call ``save()``, and add the journal entry.

    All or nothing: when the snapshot cannot be kept the save does not happen; when the
    save fails the snapshot written for it is removed; when the journal cannot be written
    after the save, the workbook is put back as it was. ``JournalError`` or the save's
    own exception says why.
    """
    book = target_of(Path(book))
    journal = Journal.load(book)
    before = book.read_bytes() if book.exists() else None
    digest, wrote = journal.keep_snapshot(before) if before is not None else (None, False)
    if _takes_ready(save):
        return _record_before_replacing(journal, action, arguments, save, door, digest, wrote)
    try:
        save()
    except BaseException:
        journal.drop_snapshot(digest, wrote)
        if not journal.entries:
            journal.tidy()
        raise
    after_digest, wrote_after = None, False
    try:
        after = book.read_bytes()
        after_digest, wrote_after = journal.keep_snapshot(after)
        entry = _next_entry(journal, action, arguments, door, digest, after_digest)
        journal.append(entry)
    except BaseException:
        put_back(book, before)
        journal.drop_snapshot(after_digest, wrote_after and after_digest != digest)
        journal.drop_snapshot(digest, wrote)
        if not journal.entries:
            journal.tidy()
        raise
    return entry


def _takes_ready(save: Callable[..., None]) -> bool:
    """Whether ``save`` lets the journal see the new file before it replaces the old
    (the command line's gateway does; a window's own save does not)."""
    try:
        return "ready" in inspect.signature(save).parameters
    except (TypeError, ValueError):
        return False


def _record_before_replacing(
    journal: Journal,
    action: str,
    arguments: Mapping[str, object],
    save: Callable[..., None],
    door: str,
    digest: str | None,
    wrote: bool,
) -> Entry:
    """Everything that can fail first, then the save: the entry is written while the new
    file waits beside the workbook, so a journal that cannot be written refuses the action
    before the workbook is replaced and before the backups roll (they stay as they were)."""
    snapshot: list[tuple[str, bool]] = []
    """The "after" snapshot kept, and whether this run wrote it."""
    entries: list[Entry] = []

    def ready(new_file: Path) -> None:
        after_digest, wrote_after = journal.keep_snapshot(new_file.read_bytes())
        snapshot.append((after_digest, wrote_after and after_digest != digest))
        entry = _next_entry(journal, action, arguments, door, digest, after_digest)
        journal.append(entry)
        entries.append(entry)

    try:
        save(ready=ready)
    except BaseException:
        if entries:  # the new file was not swapped in: the entry goes again
            with contextlib.suppress(OSError, JournalError):
                journal.entries.pop()
                journal.rewrite()
        for after_digest, written in snapshot:
            journal.drop_snapshot(after_digest, written)
        journal.drop_snapshot(digest, wrote)
        if not journal.entries:
            journal.tidy()
        raise
    return entries[0]


def put_back(book: Path, data: bytes | None) -> None:
    """Leave ``book`` as it was before a step that could not be journaled."""
    with contextlib.suppress(OSError):
        if data is None:
            book.unlink(missing_ok=True)
        else:

            def write(tmp: Path) -> None:
                tmp.write_bytes(data)

            save_atomically(write, book, keep=0)
    if data is not None and (not book.exists() or sha256(book.read_bytes()) != sha256(data)):
        raise OSError(f"{book} could not be put back as it was")


# --- a group of actions, one save (the stations' writer) -------------------------------


@dataclass(frozen=True)
class Step:
    """One action of a group saved at once: what ``record`` is told of it, and the package
    right after it (the state its own undo goes back past)."""

    action: str
    arguments: Mapping[str, object]
    door: str
    after: bytes


def record_group(book: Path, steps: list[Step], save: Callable[..., None]) -> list[Entry]:
    """One journal entry per step, one save: ``save(ready=...)`` writes the last step's
    package beside the workbook, calls ``ready`` and replaces the workbook.

    Each step's state is kept (the first's *before* is the file now; each later one's is
    the step before's *after*), so every entry is undone alone as if it had been saved
    alone. The entries are written in one append while the new file waits, before it
    replaces the workbook: all or nothing, as ``record``. An entry whose state never was
    the workbook (a kill before the new file replaced the old) is told apart by
    ``addin.store`` (the states the workbook went through, followed back from the file).
    """
    book = target_of(Path(book))
    journal = Journal.load(book)
    before = book.read_bytes()
    first, wrote_first = journal.keep_snapshot(before)
    kept: list[tuple[str, bool]] = []
    try:
        for step in steps:
            digest, wrote = journal.keep_snapshot(step.after)
            kept.append((digest, wrote and digest != first))
    except BaseException:
        for digest, written in kept:
            journal.drop_snapshot(digest, written)
        journal.drop_snapshot(first, wrote_first)
        raise
    made: list[Entry] = []
    start = journal.next_number
    previous = first
    for i, (step, (digest, _)) in enumerate(zip(steps, kept, strict=True)):
        plain = plain_arguments(step.arguments)
        made.append(Entry(start + i, step.action, plain, now(), step.door, previous, digest))
        previous = digest
    appended: list[bool] = []

    def ready(new_file: Path) -> None:
        if sha256(new_file.read_bytes()) != previous:
            raise JournalError(f"{new_file} is not the state the journal keeps for it")
        journal._write([*journal.entries, *made])
        journal.entries.extend(made)
        appended.append(True)

    try:
        save(ready=ready)
    except BaseException:
        if appended:  # the new file was not swapped in: the entries go again
            with contextlib.suppress(OSError, JournalError):
                del journal.entries[-len(made) :]
                journal.rewrite()
        for digest, written in kept:
            journal.drop_snapshot(digest, written)
        journal.drop_snapshot(first, wrote_first)
        if not journal.entries:
            journal.tidy()
        raise
    return made
