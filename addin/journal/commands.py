"""The command line's ``history``, ``undo`` and ``redo``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from addin.journal.store import Entry, Journal, JournalError
from addin.journal.undo import describe, hand_edits, plan, replay, restore
from addin.workbook.open_elsewhere import (
    WorkbookBusy,
    WorkbookLocked,
    check_not_open,
    one_at_a_time,
)
from addin.workbook.saving import SaveRefused, target_of

EXIT_OK, EXIT_ERROR, EXIT_CONFIRM = 0, 1, 3
Command = Callable[[str, Callable[[argparse.Namespace], int], str], argparse.ArgumentParser]


def add_commands(command: Command) -> None:
    p = command("history", cmd_history, "list the journal: every action that changed the workbook")
    p.add_argument("book", type=Path)
    p.add_argument(
        "--prune-before",
        type=int,
        metavar="N",
        help="remove the snapshots only entries before N need (they can no longer be undone)",
    )
    p = command("undo", cmd_undo, "take back the last action (an undo is itself an entry)")
    p.add_argument("book", type=Path)
    p.add_argument(
        "--to",
        type=int,
        metavar="N",
        help="put the workbook back as it was before entry N (see history)",
    )
    _options(p)
    p = command("redo", cmd_redo, "take back the last undo")
    p.add_argument("book", type=Path)
    _options(p)


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--yes", action="store_true", help="go ahead although hand edits are lost")
    p.add_argument(
        "--force",
        action="store_true",
        help="write although Excel or LibreOffice has the workbook open",
    )


def _error(message: object, book: Path | None = None) -> int:
    """One line on stderr, saying the workbook was left as it was."""
    kept = f"; {book.name} is unchanged" if book is not None else ""
    print(f"error: {message}{kept}", file=sys.stderr)
    return EXIT_ERROR


def cmd_undo(args: argparse.Namespace) -> int:
    return take_back(args, "undo", args.to)


def cmd_redo(args: argparse.Namespace) -> int:
    return take_back(args, "redo", None)


def take_back(args: argparse.Namespace, kind: str, to: int | None) -> int:
    book: Path = args.book
    try:
        with one_at_a_time(target_of(book)):
            p = plan(book, kind, to)
            if p.edits and not args.yes:
                print(f"{kind}: needs confirmation (nothing was written):", file=sys.stderr)
                print(f"  warning: {p.edits.message(book.name)}", file=sys.stderr)
                print("Run again with --yes to go ahead.", file=sys.stderr)
                return EXIT_CONFIRM
            if not args.force:
                check_not_open(target_of(book))
            entry = restore(p)
    except WorkbookBusy as err:
        return _error(err)
    except (JournalError, SaveRefused, WorkbookLocked) as err:
        return _error(err, book)
    except OSError as err:
        return _error(f"could not write {book}: {err.strerror or err}", book)
    print(done_message(p.journal, book.name, kind, to, entry.number))
    return EXIT_OK


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


def cmd_history(args: argparse.Namespace) -> int:
    book: Path = args.book
    if not target_of(book).is_file():
        return _error(f"{book} does not exist (or is not a file); expected a tournament workbook")
    try:
        if args.prune_before is not None:
            with one_at_a_time(target_of(book)):
                journal = Journal.load(book)
                journal.entry(args.prune_before)
                removed = journal.prune_before(args.prune_before)
            print(
                f"Removed {removed} snapshot(s): entries before {args.prune_before} "
                "can no longer be undone."
            )
            return EXIT_OK
        journal = Journal.load(book)
        for line in history_lines(journal):
            print(line)
    except WorkbookBusy as err:
        return _error(err)
    except JournalError as err:
        return _error(err)
    except OSError as err:
        return _error(f"could not prune the journal of {book}: {err.strerror or err}")
    return EXIT_OK


def history_lines(journal: Journal) -> list[str]:
    """The journal as the TD reads it: one line an entry, then what undo and redo would do."""
    if not journal.entries:
        return [f"{journal.book.name} has no journal yet: no action has changed it."]
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
    return lines


def _what(e: Entry) -> str:
    if e.is_undo:
        return f"{e.action}: back to the state before entry {e.restores}"
    args = " ".join(f"{k}={v}" for k, v in e.arguments.items())
    return f"{e.action} {args}".rstrip()
