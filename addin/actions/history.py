"""The journal's actions: ``history`` lists it, ``undo`` and ``redo`` take actions back.

They work on the journal beside the workbook's file (:mod:`addin.journal`), never on its
sheets, and reach the file through ``session.window``: the file itself on the command
line, the open window in Excel or Calc (saved first, so hand edits are seen and asked
about, and shown again once the file is put back).
"""

from __future__ import annotations

from collections.abc import Mapping

from addin.actions.registry import Param, ParamKind, action
from addin.actions.session import Cancelled, Replaced, Session, Window
from addin.journal.commands import done_message, history_lines
from addin.journal.store import Journal, JournalError
from addin.journal.undo import plan, restore

SHOWN = 25
"""A window lists the last entries (a dialog is short); a terminal lists them all."""


@action(
    "history",
    "History",
    "list the journal: every action that changed the workbook",
    Param(
        "prune_before",
        "remove the snapshots only entries before N need (they can no longer be undone)",
        ParamKind.INT,
        asked=False,
        metavar="N",
    ),
    journal=True,
    changes=False,
)
def history(session: Session, params: Mapping[str, object]) -> None:
    path = _window(session).on_disk()
    if path is None:
        session.say(f"{session.gw.source} has no file yet: save it as .xlsx to start its journal.")
        return
    journal = Journal.load(path)
    prune = params.get("prune_before")
    if prune is not None:
        journal.entry(int(prune))  # type: ignore[call-overload]
        try:
            removed = journal.prune_before(int(prune))  # type: ignore[call-overload]
        except OSError as err:
            raise JournalError(
                f"could not prune the journal of {path}: {err.strerror or err}"
            ) from err
        session.say(
            f"Removed {removed} snapshot(s): entries before {prune} can no longer be undone."
        )
        return
    lines = history_lines(journal)
    if not session.in_terminal and len(journal.entries) > SHOWN:
        first = len(journal.entries) - SHOWN
        lines = [lines[0], f"... {first} earlier entries", *lines[1 + first :]]
    session.messages += lines


@action(
    "undo",
    "Undo",
    "take back the last action (an undo is itself an entry)",
    Param(
        "to",
        "put the workbook back as it was before entry N (see history)",
        ParamKind.INT,
        asked=False,
        metavar="N",
    ),
    journal=True,
)
def undo(session: Session, params: Mapping[str, object]) -> None:
    to = params.get("to")
    take_back(session, "undo", None if to is None else int(to))  # type: ignore[call-overload]


@action("redo", "Redo", "take back the last undo", journal=True)
def redo(session: Session, params: Mapping[str, object]) -> None:
    take_back(session, "redo", None)


def take_back(session: Session, kind: str, to: int | None) -> None:
    """Put back the state before the entry ``kind`` (undo or redo) names, and show it.

    Raises ``JournalError`` (nothing to undo, a broken journal, no file), or ``Cancelled``
    when the TD keeps hand edits the undo would lose."""
    window = _window(session)
    path = window.file()
    if path is None:
        raise JournalError(window.unavailable())
    if window.modified():
        window.save()
    p = plan(path, kind, to)
    if p.edits:
        edits = p.edits.message(path.name)
        if not session.gw.confirm(f"{edits}.\n\n{kind.title()} anyway?"):
            raise Cancelled([edits], quiet=True)
    done: list[int] = []

    def put_back() -> None:
        done.append(restore(p, door=window.door).number)

    document = window.reopen(put_back)
    if document is not None:
        session.requests.append(Replaced(document))
    session.say(done_message(p.journal, path.name, kind, to, done[0]))


def _window(session: Session) -> Window:
    if session.window is None:  # the runner gives every journal action its window
        raise JournalError(f"{session.gw.source}: no file to keep a journal beside")
    return session.window
