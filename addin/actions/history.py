"""The journal's actions: ``history`` lists it, ``undo`` and ``redo`` take actions back.

They work on the journal beside the workbook's file (:mod:`addin.journal`), never on its
sheets: the store gives them the workbook's window (the file itself on the command line,
the open window in Excel or Calc, saved first so that hand edits are seen and asked
about), and puts back the state they choose, showing it again.
"""

from __future__ import annotations

from dataclasses import dataclass

from addin.actions.change import Ask, Change, Draft, Snapshot, Window
from addin.actions.registry import ParamKind, action, param
from addin.journal.commands import TakeBack, history_lines
from addin.journal.store import Journal, JournalError
from addin.journal.undo import plan

SHOWN = 25
"""A window lists the last entries (a dialog is short); a terminal lists them all."""


@dataclass(frozen=True, kw_only=True)
class HistoryParams:
    prune_before: int | None = param(
        "remove the snapshots only entries before N need (they can no longer be undone)",
        ParamKind.INT,
        asked=False,
        metavar="N",
    )


@action(
    "history",
    "History",
    "list the journal: every action that changed the workbook",
    HistoryParams,
    journal=True,
    changes=False,
)
def history(snapshot: Snapshot, p: HistoryParams) -> Change:
    draft = Draft(snapshot)
    path = _window(snapshot).on_disk()
    if path is None:
        draft.say(f"{snapshot.source} has no file yet: save it as .xlsx to start its journal.")
        return draft.change
    journal = Journal.load(path)
    if p.prune_before is not None:
        journal.entry(p.prune_before)  # an entry that is not there is refused here
        draft.change.prune_before = p.prune_before
        return draft.change
    lines = history_lines(journal)
    if not snapshot.terminal and len(journal.entries) > SHOWN:
        first = len(journal.entries) - SHOWN
        lines = [lines[0], f"... {first} earlier entries", *lines[1 + first :]]
    draft.change.messages += lines
    return draft.change


@dataclass(frozen=True, kw_only=True)
class UndoParams:
    to: int | None = param(
        "put the workbook back as it was before entry N (see history)",
        ParamKind.INT,
        asked=False,
        metavar="N",
    )
    lose_edits: bool = False
    """The TD's answer: go ahead although hand edits are lost."""


@action(
    "undo",
    "Undo",
    "take back the last action (an undo is itself an entry)",
    UndoParams,
    journal=True,
)
def undo(snapshot: Snapshot, p: UndoParams) -> Change:
    return take_back(snapshot, "undo", p.to, p.lose_edits)


@dataclass(frozen=True, kw_only=True)
class RedoParams:
    lose_edits: bool = False
    """The TD's answer: go ahead although hand edits are lost."""


@action("redo", "Redo", "take back the last undo", RedoParams, journal=True)
def redo(snapshot: Snapshot, p: RedoParams) -> Change:
    return take_back(snapshot, "redo", None, p.lose_edits)


def take_back(snapshot: Snapshot, kind: str, to: int | None, lose_edits: bool) -> Change:
    """The state before the entry ``kind`` (undo or redo) names, for the store to put back
    and show. Raises ``JournalError`` (nothing to undo, a broken journal, no file), or asks
    whether to lose the hand edits the undo would lose."""
    window = _window(snapshot)
    path = window.file()
    if path is None:
        raise JournalError(window.unavailable())
    planned = plan(path, kind, to)
    if planned.edits and not lose_edits:
        edits = planned.edits.message(path.name)
        raise Ask(f"{edits}.\n\n{kind.title()} anyway?", {"lose_edits": True}, cancelled=[edits])
    change = Change(kind)
    change.restore = TakeBack(planned, kind, to)
    return change


def _window(snapshot: Snapshot) -> Window:
    if snapshot.window is None:  # the store gives every journal action its window
        raise JournalError(f"{snapshot.source}: no file to keep a journal beside")
    return snapshot.window
