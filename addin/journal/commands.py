"""What ``history``, ``undo`` and ``redo`` tell the TD (the actions are in
:mod:`addin.actions.history`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from addin.journal.store import Entry, Journal
from addin.journal.undo import Plan, describe, hand_edits, replay, restore


def done_message(journal: Journal, name: str, kind: str, to: int | None, number: int) -> str:
    """What an undo or redo did, in the TD's words, and how to take it back."""
    taken = journal.entry(journal.entry(number).restores or 0)
    back = f"This {kind} is entry {number}; undo --to {number} takes it back."
    was = replay([e for e in journal.entries if e.number < number]).in_effect
    now = replay([e for e in journal.entries if e.number <= number]).in_effect
    gone = [journal.entry(n) for n in was if n not in now]
    again = [journal.entry(n) for n in now if n not in was]
    if kind == "redo" and again and not gone:
        return f"Redid {_entries(again)}, which undo entry {taken.number} took back. {back}"
    if kind == "undo" and to is None and [taken] == gone and not again:
        return f"Took back entry {describe(taken)}: {name} is as it was before it. {back}"
    moved = [f"took back {_entries(gone)}"] if gone else []
    moved += [f"brought back {_entries(again)}"] if again else []
    told = f"; that {' and '.join(moved)}" if moved else ""
    return f"{name} is as it was before entry {describe(taken)}{told}. {back}"


def _entries(entries: list[Entry]) -> str:
    """``entry 7 (pair round=3)``, or ``3 entries: 7 (...), 8 (...) and 9 (...)``."""
    if len(entries) == 1:
        return f"entry {describe(entries[0])}"
    if len(entries) > 4:
        first, last = describe(entries[0]), describe(entries[-1])
        return f"{len(entries)} entries, {first} to {last}"
    named = [describe(e) for e in entries]
    return f"{len(entries)} entries: {', '.join(named[:-1])} and {named[-1]}"


def history_lines(journal: Journal) -> list[str]:
    """The journal as the TD reads it: one line an entry, then what undo and redo would do."""
    if not journal.entries:
        told = [f"note: {warning}" for warning in journal.warnings]
        return [f"{journal.book.name} has no journal yet: no action has changed it.", *told]
    state = replay(journal.entries)
    lines = [f"{'#':>4}  {'time':19}  {'door':5}  action"]
    for e in journal.entries:
        taken_back = "" if e.is_undo or e.number in state.in_effect else "   [taken back]"
        lines.append(f"{e.number:>4}  {e.time:19}  {e.door:5}  {_what(e)}{taken_back}")
    if state.in_effect and journal.entry(state.in_effect[-1]).before is not None:
        lines.append(f"undo would take back entry {describe(journal.entry(state.in_effect[-1]))}")
    if state.redoable:
        lines.append(f"redo would take back entry {state.redoable[-1]}")
    if journal.book.is_file():
        edits = hand_edits(journal, journal.book.read_bytes())
        if edits:
            lines.append(f"note: {edits.message(journal.book.name)}")
    lines += [f"note: {warning}" for warning in journal.warnings]
    return lines


def _what(e: Entry) -> str:
    if e.is_undo:
        return f"{e.action}: back to the state before entry {e.restores}"
    args = " ".join(f"{k}={v}" for k, v in e.arguments.items())
    return f"{e.action} {args}".rstrip()


@dataclass(frozen=True)
class TakeBack:
    """An undo or redo as decided: the plan, and how the TD asked for it."""

    plan: Plan
    kind: str
    """``undo`` or ``redo``."""
    to: int | None
    """``undo --to N``; None: the last entry."""


def take_back(what: TakeBack, window: Any) -> tuple[str, Any]:
    """Put back the state ``what`` plans, in the file, and show it again in ``window``
    (``addin.actions.change.Window``); the sentence for the TD, and the document the
    window now shows (None on the command line)."""
    done: list[int] = []

    def put_back() -> None:
        done.append(restore(what.plan, door=window.door).number)

    document = window.reopen(put_back)
    name = what.plan.journal.book.name
    return done_message(what.plan.journal, name, what.kind, what.to, done[0]), document
