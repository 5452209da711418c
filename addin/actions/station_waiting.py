"""The stations' entries the workbook does not hold yet, named for the TD.

An entry a station sent waits beside the workbook (``addin.station.entries``) until the
writer runs it, or, while Excel or LibreOffice holds the workbook, until the TD takes it in
(``take-entries``); one that raised a question waits for its desk's answer. ``pair`` and
``check`` name each, so that nobody is left out of a round without the TD knowing (a
walk-in registered at a desk and not yet written is not paired).
"""

from __future__ import annotations

from collections.abc import Iterable

from addin.actions.change import Draft
from addin.core.model import Tournament
from addin.station.desk import describe
from addin.station.entries import ASKS, FINAL, EntryQueue, stations_folder
from addin.workbook.book import read_log

ENTRY_LINE = "Entry "
"""A signed entry's Log line begins so: ``Entry 7f3a9c... from Desk 2`` (``store.Signed``)."""


def waiting_entries(draft: Draft, t: Tournament | None) -> list[str]:
    """One line per station entry not in the workbook yet (its desk, what it is, why it
    waits), oldest first; none when the workbook has no stations."""
    if draft.path is None:
        return []
    folder = stations_folder(draft.path)
    if not folder.is_dir():
        return []
    queue = EntryQueue(folder)
    held = _entries_in(m for _, m in read_log(draft))
    lines = []
    for e in queue.entries():
        outcome = queue.outcome(e.id)
        if outcome.state in FINAL or e.id in held:
            continue
        if outcome.state == ASKS:
            asked = outcome.question.split("\n", 1)[-1].strip()  # below "please check"
            question = " ".join(asked.split()) or "a question"
            why = f"waits for the desk's answer to: {question}"
        else:
            why = "waits to be written" + (
                " (the workbook is open: Take station entries takes it in)"
                if "Take station entries" in outcome.message
                else ""
            )
        lines.append(f"{e.station}, {e.time}: {describe(e, t)}: {why}")
    return lines


def _entries_in(messages: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for message in messages:
        if message.startswith(ENTRY_LINE) and " from " in message:
            found.add(message[len(ENTRY_LINE) :].split(" ", 1)[0])
    return found
