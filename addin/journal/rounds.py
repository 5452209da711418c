"""A round as a state the journal keeps holds it: who played when it was stamped."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path

from addin.core.consistency import pairing_digest
from addin.core.model import PlayerId, Round
from addin.journal.store import Journal, JournalError
from addin.workbook.snapshot_round import round_in_file

TRIED = 8
"""States looked at, newest first: the stamp is almost always the last action's."""


def round_as_stamped(
    book: Path, number: int, digest: str
) -> tuple[Round, Mapping[PlayerId, str]] | None:
    """Round ``number`` as in the newest state the journal keeps whose pairing digest is
    ``digest``, with its players' names; None when the journal has no such state (or none
    at all)."""
    try:
        journal = Journal.load(book)
    except (JournalError, OSError):
        return None
    seen: set[str] = set()
    for entry in reversed(journal.entries):
        if len(seen) >= TRIED:
            break
        if entry.after in seen:
            continue
        seen.add(entry.after)
        try:
            data = journal.read_state(entry.after, f"the workbook after entry {entry.number}")
        except (JournalError, OSError):
            continue
        found = round_in_file(io.BytesIO(data), number)
        if found is not None and pairing_digest(found[0]) == digest:
            return found
    return None
