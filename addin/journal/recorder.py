"""Recording an action in the journal around the save that makes it real."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Mapping
from pathlib import Path

from addin.journal.store import Entry, Journal, JournalError, now, sha256
from addin.workbook.saving import save_atomically, target_of


def plain_arguments(arguments: Mapping[str, object]) -> dict[str, object]:
    """The arguments as JSON keeps them: paths and dates as text, unset ones left out."""
    plain: dict[str, object] = {}
    for key, value in arguments.items():
        if value is None or value is False:
            continue
        plain[key] = value if isinstance(value, bool | int | float | str) else str(value)
    return plain


def _entry(
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
        entry = _entry(journal, action, arguments, door, digest, after_digest)
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
        entry = _entry(journal, action, arguments, door, digest, after_digest)
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
