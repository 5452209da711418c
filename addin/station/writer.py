"""The stations' writer: each entry a station sent, run through the tournament store into
the workbook in the order they came, every entry waiting taken as one group.

The server (``serve``) starts it as a process of its own (``python -m addin.station BOOK``):
the store's work never slows the server's answers to the stations and phones. The entries
waiting are one group (``store.run_group``): one load, each entry as its own action with
its station's answers to that action's questions (``store.Answered``) and its station's
name and id (``store.Signed``), on what the earlier ones wrote, and one save for the group.
Each entry is still its own Log lines, its own journal entry (``undo`` takes it back
alone) and its own answer to its station, told once the save holds it. An entry the
workbook holds already is never run again, so a writer killed at any moment and started
again writes each entry once. It takes the workbook's turn like any command: the TD's own
commands wait for it, and it for them. The next group goes on from the workbook the last
one left in memory, while no other command has written the file since.

While Excel or LibreOffice holds the workbook open, nothing is written: each waiting entry
is checked against the workbook as last saved (the same action, on a copy in memory), so
its station hears at once of a refusal or a question, and the TD takes the entries in
from the window (``take-entries``). What that took in is found in the saved workbook.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from addin import store
from addin.station.entries import (
    ASKS,
    DECLINED,
    REFUSED,
    STATION_ACTIONS,
    WAITING,
    WRITTEN,
    Entry,
    EntryQueue,
    stations_folder,
)
from addin.workbook.file_store import FileStore
from addin.workbook.saving import file_identity, held_by, target_of

IDLE_SECONDS = 0.05
"""How often an idle writer looks for new entries (a few stat calls)."""
HELD_SECONDS = 1.0
"""How often it looks again while another program holds the workbook."""


@dataclass(frozen=True)
class Told:
    """What a station is told of its entry."""

    state: str
    message: str = ""
    question: str = ""


def write(book: Path, entry: Entry) -> Told | None:
    """Run ``entry`` into the workbook file; what its station is told (None: try again
    later: another action kept the workbook's turn too long, or another program holds it)."""
    ran = _run(entry, store.FileBook(book))
    if isinstance(ran, Told):
        return ran
    outcome, answers = ran
    if outcome.status == "busy" or (outcome.status == "error" and _holder(book)):
        return None
    return _told(outcome, answers)


def check(book: Path, entry: Entry, holder: str) -> Told:
    """What ``entry`` would do to the workbook as last saved (nothing is written): while
    another program holds the workbook, its station hears of a refusal or a question now."""
    ran = _run(entry, store.HeldBook(FileStore.open(book)))
    if isinstance(ran, Told):
        return ran
    outcome, answers = ran
    told = _told(outcome, answers)
    if told.state != WRITTEN or outcome.already:
        return told
    return Told(
        WAITING,
        f"checked, and waiting: {target_of(book).name} is open in {holder}; the TD takes it "
        "in with Take station entries",
    )


def _run(entry: Entry, workbook: store.Workbook) -> Told | tuple[store.Outcome, store.Answered]:
    """The entry through its action on ``workbook``, answered and signed as its station
    said; refused before anything runs when it names no action a station sends."""
    if entry.action not in STATION_ACTIONS:
        return Told(REFUSED, f"{entry.action!r} is not something a station sends")
    answers = store.Answered(entry.answers)
    signed = store.Signed(entry.station, entry.id)
    outcome = store.run(entry.action, [entry.params], workbook, answers, signed=signed)
    return outcome, answers


def _queued(entry: Entry) -> store.Queued:
    return store.Queued(
        entry.action, dict(entry.params), dict(entry.answers), entry.station, entry.id
    )


def _told(outcome: store.Outcome, answers: store.Answered) -> Told:
    if outcome.status == "done":
        if outcome.already:
            return Told(WRITTEN, "in the workbook")
        return Told(WRITTEN, "; ".join(outcome.messages))
    if outcome.status == "cancelled":
        if answers.unanswered is not None:
            return Told(ASKS, question=answers.unanswered)
        return Told(DECLINED, "not written: the station said no")
    if outcome.status == "failed":
        return Told(REFUSED, f"not written, something went wrong: {outcome.messages[0]}")
    return Told(REFUSED, "\n".join(outcome.messages))


def _holder(book: Path) -> str | None:
    return held_by(Path(book)) or held_by(target_of(Path(book)))


class Writer:
    """The writer of one workbook's station entries."""

    def __init__(self, book: Path, out: TextIO | None = None) -> None:
        self.book = Path(book)
        self.queue = EntryQueue(stations_folder(self.book))
        self.out = out or sys.stdout
        self._kept: store.Kept | None = None
        """The workbook as the last group left it (the next goes on from it)."""
        self._checked: dict[str, tuple[tuple[int, int, int] | None, Told]] = {}
        """Each waiting entry checked while the workbook was held: against which file."""

    def step(self) -> bool:
        """Write (or, while the workbook is held, check) the entries waiting; whether
        there were any."""
        pending = self.queue.pending()
        if not pending or not target_of(self.book).is_file():
            return False
        holder = _holder(self.book)
        if holder:
            for entry in pending:
                self._check(entry, holder)
            return True
        for entry in [e for e in pending if e.action not in STATION_ACTIONS]:
            self._tell(entry, Told(REFUSED, f"{entry.action!r} is not something a station sends"))
        taken = [e for e in pending if e.action in STATION_ACTIONS][: store.GROUP_BOUND]
        if taken:
            self.write_group(taken)
        return True

    def write_group(self, taken: list[Entry]) -> None:
        """The entries through the store as one group (one save); each told what became
        of it once that save holds it. An entry the group cannot take runs alone."""
        by_id = {e.id: e for e in taken}
        book = store.FileBook(self.book)
        group = store.run_group([_queued(e) for e in taken], book, self._kept)
        self._kept = group.kept
        for q, outcome, answers in group.decided:
            self._tell(by_id[q.entry], _told(outcome, answers))
        if group.left and group.alone:
            first = by_id[group.left[0].entry]
            told = write(self.book, first)
            if told is not None:
                self._tell(first, told)

    def _check(self, entry: Entry, holder: str) -> None:
        identity = file_identity(self.book)
        seen = self._checked.get(entry.id)
        if seen is not None and seen[0] == identity:
            return
        told = check(self.book, entry, holder)
        if seen is None or seen[1] != told:
            self._tell(entry, told)
        self._checked[entry.id] = (identity, told)

    def _tell(self, entry: Entry, told: Told) -> None:
        self.queue.record(entry.id, told.state, told.message, told.question)
        if told.state == REFUSED:
            print(f"{entry.station}: {entry.action} refused: {told.message}", file=self.out)

    def run(self, stop: Callable[[], bool]) -> None:
        """Write entries as they come until ``stop()`` says so."""
        while not stop():
            busy = self.step()
            if not busy:
                time.sleep(IDLE_SECONDS)
            elif _holder(self.book):
                time.sleep(HELD_SECONDS)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the entries of one workbook until the server that started it is gone."""
    parser = argparse.ArgumentParser(
        prog="python -m addin.station", description="Write the stations' entries."
    )
    parser.add_argument("book", type=Path)
    parser.add_argument("--parent", type=int, help="stop when this process is gone")
    args = parser.parse_args(argv)
    parent = args.parent

    def orphaned() -> bool:
        return parent is not None and os.getppid() != parent

    with contextlib.suppress(KeyboardInterrupt):  # the server's Ctrl-C reaches it too
        Writer(args.book).run(orphaned)
    return 0
