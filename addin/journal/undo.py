"""Taking actions back: which entry an undo or redo restores, hand edits, the restore.

Every entry is either an action (it adds itself to the actions in effect) or an undo
(``restores`` N: the workbook is put back as it was before entry N, so the actions in
effect are those that were in effect before N). ``undo`` takes back the last action in
effect; repeated, it steps further back. ``redo`` takes back the last undo that no
action or redo has followed. ``undo --to N`` puts back the state before entry N, any
entry, an undo included (which redoes what that undo took back).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from addin.journal.sheets import sheets_that_differ
from addin.journal.store import Entry, Journal, JournalError, now, put_back, sha256
from addin.workbook.saving import save_atomically


@dataclass
class Replay:
    in_effect: list[int] = field(default_factory=list)
    """The actions whose changes the workbook holds, oldest first."""
    redoable: list[int] = field(default_factory=list)
    """Undo entries that ``redo`` can take back, the next one last."""


def replay(entries: list[Entry]) -> Replay:
    state = Replay()
    before: dict[int, list[int]] = {}
    for e in entries:
        before[e.number] = list(state.in_effect)
        if e.restores is None:
            state.in_effect.append(e.number)
            state.redoable = []
            continue
        state.in_effect = list(before.get(e.restores, []))
        if e.action == "redo":
            if state.redoable:
                state.redoable.pop()
        else:
            state.redoable.append(e.number)
    return state


def describe(entry: Entry) -> str:
    """``7 (pair round=3)``: an entry in a message."""
    if entry.restores is not None:
        return f"{entry.number} ({entry.action} to the state before {entry.restores})"
    args = " ".join(f"{k}={v}" for k, v in entry.arguments.items())
    return f"{entry.number} ({entry.action}{' ' + args if args else ''})"


def target(journal: Journal, kind: str, to: int | None = None) -> int:
    """The entry whose *before* state the undo (``kind`` undo/redo) puts back."""
    if not journal.entries:
        raise JournalError(
            f"{journal.book.name} has no journal yet ({journal.folder.name} does not exist "
            "or is empty): there is nothing to undo"
        )
    if to is not None:
        journal.entry(to)
        return to
    state = replay(journal.entries)
    if kind == "redo":
        if not state.redoable:
            raise JournalError("there is no undo to redo (an action was done since, or none)")
        return state.redoable[-1]
    if not state.in_effect:
        raise JournalError("there is nothing left to undo: the journal is back at its start")
    return state.in_effect[-1]


@dataclass
class HandEdits:
    after: Entry
    sheets: list[str]
    """The sheets whose values differ from what ``after`` left; empty: unknown which."""

    def message(self, book: str) -> str:
        where = f" (sheets {', '.join(self.sheets)})" if self.sheets else ""
        return (
            f"{book} was changed after entry {self.after.number}{where}: "
            "undo puts back a saved state, so those hand edits would be lost"
        )


def hand_edits(journal: Journal, current: bytes, since: Entry | None = None) -> HandEdits | None:
    """What the TD changed since entry ``since`` (the last one), by sheet; None: nothing."""
    last = since or journal.entries[-1]
    if sha256(current) == last.after:
        return None
    try:
        left = journal.read_state(last.after, f"the workbook after entry {last.number}")
    except JournalError:
        return HandEdits(last, [])
    sheets = sheets_that_differ(left, current)
    return HandEdits(last, sheets) if sheets else None


@dataclass
class Plan:
    journal: Journal
    restores: int
    kind: str
    data: bytes
    current: bytes
    edits: HandEdits | None


def plan(book: Path, kind: str, to: int | None = None) -> Plan:
    """Everything an undo needs, checked, before anything is written."""
    journal = Journal.load(book)
    number = target(journal, kind, to)
    entry = journal.entry(number)
    if entry.before is None:
        raise JournalError(
            f"entry {describe(entry)} made the workbook; there is no state before it to put back"
        )
    data = journal.read_state(entry.before, f"the workbook before entry {number}")
    if not journal.book.is_file():
        raise JournalError(f"{journal.book} does not exist; nothing to undo in")
    current = journal.book.read_bytes()
    # Stepping back, the workbook should be as the action taken back left it: anything
    # else was typed after it (perhaps before a later action, since taken back).
    since = entry if kind == "undo" and to is None else None
    return Plan(journal, number, kind, data, current, hand_edits(journal, current, since))


def restore(p: Plan, *, door: str = "CLI") -> Entry:
    """Put the state back in one rename and add the undo's entry; all or nothing."""
    journal, book = p.journal, p.journal.book
    before, wrote = journal.keep_state(p.current)

    def write(tmp: Path) -> None:
        tmp.write_bytes(p.data)

    try:
        save_atomically(write, book)
    except BaseException:
        journal.drop_state(wrote)
        raise
    notes = [p.edits.message(book.name)] if p.edits else []
    entry = Entry(
        journal.next_number,
        p.kind,
        {"to": p.restores},
        now(),
        door,
        before,
        sha256(p.data),
        restores=p.restores,
        notes=notes,
    )
    put: list[Path] = []
    try:
        # Kept already (it was just read), unless it was written again member by member.
        _, put = journal.keep_state(p.data, entry.before)
        journal.append(entry)
    except BaseException:
        put_back(book, p.current)
        journal.drop_state(put)
        journal.drop_state(wrote)
        raise
    return entry
