"""Where the journal lives, how it is read and written, and how an action is recorded in it
around the save that makes it real (``record``: the tournament store's only way in).

Beside ``NAME.xlsx`` a folder ``NAME.history/`` holds ``journal.jsonl``, the entries, one
JSON line each, appended and flushed to disk (never rewritten), and the states the entries
saw, before and after, kept as parts (:mod:`addin.journal.parts`): each member of the
package once, by its SHA-256, and each state a small manifest. The state after one action
is the state before the next, so each is stored once; a state that differs from the one
before in one sheet costs that sheet. Nothing is removed except by the TD
(``history --prune-before N``).

A journal of format 1 (``journal.json``, rewritten whole at every entry, beside
``snapshots/``, whole copies of the workbook) is read as it is and continued: its file is
never written again, and ``journal.jsonl`` holds the entries after it. See docs/journal.md.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from addin.journal.errors import JournalError
from addin.journal.parts import SNAPSHOTS, STATES, States, sha256
from addin.workbook.saving import check_writable, save_atomically, target_of

__all__ = ["Entry", "Journal", "JournalError", "folder_of", "now", "put_back", "record", "sha256"]

FORMAT = 2
JOURNAL_FILE = "journal.jsonl"
OLD_FORMAT = 1
OLD_JOURNAL_FILE = "journal.json"
"""Format 1: the entries in one JSON document, rewritten whole at every entry."""

try:
    import fcntl
except ImportError:  # Windows: the workbook's turn lock alone keeps writers apart
    fcntl = None  # type: ignore[assignment]


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
    """SHA-256 of the workbook before the entry (its state); None: there was none."""
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
        self.states = States(self.folder)
        self.warnings: list[str] = []
        """What reading found and set aside (a torn last line), in the TD's words."""
        self.old_entries = 0
        """How many entries a format 1 journal holds (they come first)."""
        self._size: int | None = None
        """The length of ``journal.jsonl`` as read (None: there is none)."""
        self._good = 0
        """Where its last whole line ends: an append starts there."""
        self._appended: list[tuple[int, int]] = []
        """(length before, entries) of each append this object made, last on top."""
        """The length before each entry this object appended (to take one back)."""

    @property
    def file(self) -> Path:
        return self.folder / JOURNAL_FILE

    @property
    def old_file(self) -> Path:
        return self.folder / OLD_JOURNAL_FILE

    @classmethod
    def load(cls, book: Path) -> Journal:
        """The journal of ``book``; empty when it has none yet. Never creates anything."""
        folder = folder_of(book)
        journal = cls(book, [])
        if folder.exists() and not folder.is_dir():
            raise JournalError(f"{folder} is a file, not the journal's folder; rename it")
        old = journal.old_file.exists()
        if old:
            journal.entries = journal._read_old()
            journal.old_entries = len(journal.entries)
        if journal.file.exists():
            journal.entries += journal._read_lines()
        elif not old and any(
            name.endswith(suffix)
            for kept, suffix in ((STATES, ".json.gz"), (SNAPSHOTS, ".xlsx"))
            for name in _names_in(folder / kept)
        ):
            raise JournalError(f"{journal.file} is missing; the journal cannot be read")
        numbers = [e.number for e in journal.entries]
        if numbers != list(range(1, len(numbers) + 1)):
            where = journal.file if journal.file.exists() else journal.old_file
            raise JournalError(f"{where}: the entries are not numbered 1, 2, 3 ...")
        return journal

    def _read_old(self) -> list[Entry]:
        """A format 1 journal, as it is."""
        where = str(self.old_file)
        try:
            raw = json.loads(self.old_file.read_text(encoding="utf-8"))
        except OSError as err:
            raise JournalError(f"{where}: cannot be read: {err.strerror or err}") from err
        except ValueError as err:  # not UTF-8, not JSON, a number of 5,000 digits
            raise JournalError(f"{where}: damaged, not the journal's JSON ({err})") from err
        except RecursionError:
            raise JournalError(f"{where}: damaged, nested too deeply to be the journal") from None
        if not isinstance(raw, dict) or raw.get("format") != OLD_FORMAT:
            raise JournalError(f"{where}: not a journal of format {OLD_FORMAT}")
        listed = raw.get("entries") or []
        if not isinstance(listed, list):
            raise JournalError(f"{where}: damaged, its entries are not a list")
        return [_entry(e, where) for e in listed]

    def _read_lines(self) -> list[Entry]:
        """``journal.jsonl``: a header line, then one line an entry. A last line cut short
        (the program was stopped while writing it) is set aside with a warning; any other
        line that cannot be read refuses the journal."""
        where = str(self.file)
        try:
            data = self.file.read_bytes()
        except OSError as err:
            raise JournalError(f"{where}: cannot be read: {err.strerror or err}") from err
        self._size = len(data)
        lines = data.split(b"\n")
        tail = lines.pop()  # after the last newline: empty unless the last line is torn
        records: list[object] = []
        position = 0
        for number, line in enumerate(lines, start=1):
            try:
                records.append(json.loads(line))
            except (ValueError, RecursionError) as err:
                if number == len(lines) and not tail and number > 1:
                    tail = line + b"\n"  # the last line, garbled as it was cut: set aside
                    break
                raise JournalError(
                    f"{where}: damaged at line {number}, not an entry ({err})"
                ) from err
            position += len(line) + 1
        self._good = position
        if tail:
            self.warnings.append(
                f"{where}: its last line was cut short (the program was stopped while "
                f"writing it) and is left out: {len(tail)} bytes, an entry never completed"
            )
        if not records:
            raise JournalError(f"{where}: damaged, it has no header line")
        header = records.pop(0)
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise JournalError(f"{where}: not a journal of format {FORMAT}")
        after = header.get("after", 0)
        if after != len(self.entries):
            raise JournalError(
                f"{where}: continues a journal of {after} entries, but "
                f"{self.old_file.name} holds {len(self.entries)}"
            )
        return [_entry(r, f"{where}, line {n}") for n, r in enumerate(records, start=2)]

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

    # --- states -------------------------------------------------------------------------

    def keep_state(self, data: bytes, base: str | None = None) -> tuple[str, list[Path]]:
        """Keep ``data`` as a state (its new parts and its manifest); its digest, and the
        files written for it (for ``drop_state`` when the action fails). ``base``: the state
        it follows (the last entry's when not given), against which its changed members
        are kept as chunks."""
        if base is None and self.entries:
            base = self.entries[-1].after
        return self.states.keep(data, base)

    def drop_state(self, written: list[Path]) -> None:
        """Take back the files ``keep_state`` wrote for an action that failed."""
        self.states.drop(written)

    def read_state(self, digest: str, what: str) -> bytes:
        """The workbook as it was in a state, rebuilt from its parts and checked."""
        return self.states.read(digest, what)

    def tidy(self) -> None:
        """Remove the journal's folders when a failed first action left them empty (and a
        ``journal.jsonl`` holding its header alone)."""
        self.states.tidy()
        with contextlib.suppress(OSError):
            if not self.entries and self.file.read_bytes().count(b"\n") <= 1:
                self.file.unlink()
        with contextlib.suppress(OSError):
            self.folder.rmdir()  # only when empty

    # --- entries ------------------------------------------------------------------------

    def append(self, entry: Entry) -> None:
        """Add ``entry``: one line at the end of ``journal.jsonl``, flushed to disk. A torn
        last line found when reading is cut away first; a file another program grew since
        it was read refuses the entry."""
        self.append_all([entry])

    def append_all(self, entries: list[Entry]) -> None:
        """Add ``entries``, a line each, in one write and one flush (a group's entries,
        saved at once: all of them are on disk, or none)."""
        data = "".join(
            json.dumps(asdict(e), ensure_ascii=False, default=str) + "\n" for e in entries
        ).encode("utf-8")
        if self._size is None:
            self._create()
        check_writable(self.file)
        fd = os.open(self.file, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            size = os.fstat(fd).st_size
            if size != self._size:
                raise JournalError(
                    f"{self.file} was written by another program while this action ran: "
                    "nothing was written; run it again"
                )
            if size != self._good:
                os.ftruncate(fd, self._good)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)  # the lock goes with it
        self._appended.append((self._good, len(entries)))
        self._good += len(data)
        self._size = self._good
        self.entries.extend(entries)

    def _create(self) -> None:
        """A new ``journal.jsonl``, holding its header line only (written whole, renamed)."""
        header = {"format": FORMAT, "workbook": self.book.name}
        if self.old_entries:
            header |= {"continues": OLD_JOURNAL_FILE, "after": self.old_entries}
        text = json.dumps(header, ensure_ascii=False) + "\n"
        self.folder.mkdir(exist_ok=True)
        if self.file.exists():  # made since this journal was read: never replaced
            raise JournalError(
                f"{self.file} was written by another program while this action ran: "
                "nothing was written; run it again"
            )
        _write_file(self.file, text.encode("utf-8"))
        self._size = self._good = len(text.encode("utf-8"))

    def take_back_last(self) -> None:
        """Remove the entries this object appended last, in one append (their workbook was
        not saved after all): the file is cut back to its length before them."""
        if not self._appended:
            return
        length, count = self._appended.pop()
        os.truncate(self.file, length)
        self._good = self._size = length
        del self.entries[-count:]

    def prune_before(self, number: int) -> int:
        """Remove the states only entries before ``number`` need, and every part no state
        kept is made of; how many states were removed."""
        needed = {d for e in self.entries[number - 1 :] for d in (e.before, e.after) if d}
        removed, _parts = self.states.prune(needed)
        return removed


def _names_in(folder: Path) -> list[str]:
    """The names in ``folder`` (none when it is not there): no pattern to compile."""
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


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
    """The next entry of ``journal``: the action, its arguments, now, and both states;
    what reading the journal set aside, in its notes."""
    return Entry(
        journal.next_number,
        action,
        plain_arguments(arguments),
        now(),
        door,
        before,
        after,
        notes=list(journal.warnings),
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

    All or nothing: when the state cannot be kept the save does not happen; when the
    save fails the parts written for it are removed; when the journal cannot be written
    after the save, the workbook is put back as it was. ``JournalError`` or the save's
    own exception says why. What reading the journal set aside (a torn last line) is in
    the entry's notes.
    """
    book = target_of(Path(book))
    journal = Journal.load(book)
    before = book.read_bytes() if book.exists() else None
    digest, wrote = journal.keep_state(before) if before is not None else (None, [])
    if _takes_ready(save):
        return _record_before_replacing(journal, action, arguments, save, door, digest, wrote)
    try:
        save()
    except BaseException:
        journal.drop_state(wrote)
        if not journal.entries:
            journal.tidy()
        raise
    wrote_after: list[Path] = []
    try:
        after = book.read_bytes()
        after_digest, wrote_after = journal.keep_state(after, digest)
        entry = _next_entry(journal, action, arguments, door, digest, after_digest)
        journal.append(entry)
    except BaseException:
        put_back(book, before)
        journal.drop_state(wrote_after)
        journal.drop_state(wrote)
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
    wrote: list[Path],
) -> Entry:
    """Everything that can fail first, then the save: the entry is written while the new
    file waits beside the workbook, so a journal that cannot be written refuses the action
    before the workbook is replaced and before the backups roll (they stay as they were)."""
    written: list[Path] = [*wrote]
    """The files kept for the state before, and (by ``ready``) for the state after."""
    entries: list[Entry] = []

    def ready(new_file: Path) -> None:
        after_digest, wrote_after = journal.keep_state(new_file.read_bytes(), digest)
        written.extend(wrote_after)
        entry = _next_entry(journal, action, arguments, door, digest, after_digest)
        journal.append(entry)
        entries.append(entry)

    _save_while_new_file_waits(journal, save, ready, lambda: bool(entries), written)
    return entries[0]


def _save_while_new_file_waits(
    journal: Journal,
    save: Callable[..., None],
    ready: Callable[[Path], None],
    appended: Callable[[], bool],
    written: list[Path],
) -> None:
    """``save(ready=ready)``; when it fails, the entries ``ready`` appended go again (the new
    file was not swapped in: ``appended()`` says whether it got that far) and so do the
    files kept for them (``written``, which ``ready`` may still grow)."""
    try:
        save(ready=ready)
    except BaseException:
        if appended():
            with contextlib.suppress(OSError, JournalError):
                journal.take_back_last()
        journal.drop_state(written)
        if not journal.entries:
            journal.tidy()
        raise


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
    first, written = journal.keep_state(book.read_bytes())
    made: list[Entry] = []
    previous = first
    try:
        for i, step in enumerate(steps):
            digest, wrote = journal.keep_state(step.after, previous)
            written += wrote
            plain = plain_arguments(step.arguments)
            notes = list(journal.warnings) if i == 0 else []
            number = journal.next_number + i
            made.append(
                Entry(number, step.action, plain, now(), step.door, previous, digest, notes=notes)
            )
            previous = digest
    except BaseException:
        journal.drop_state(written)
        if not journal.entries:
            journal.tidy()
        raise
    appended: list[bool] = []

    def ready(new_file: Path) -> None:
        if sha256(new_file.read_bytes()) != previous:
            raise JournalError(f"{new_file} is not the state the journal keeps for it")
        journal.append_all(made)
        appended.append(True)

    _save_while_new_file_waits(journal, save, ready, lambda: bool(appended), written)
    return made
