"""The tournament store: the one code that loads the workbook for an action and commits
the change it makes, the same way for every door.

A door (the command line, the Excel ribbon, the Calc toolbar, the demo, the served
stations) gives :func:`run` an action id, its parameters (or how to find them once the
workbook is loaded: a window reads the TD's selection), where the tournament is (a
:class:`Workbook`: the file, or the open window) and how to talk with the TD (a
:class:`Conversation`). The store then

1. takes the workbook's turn (a second action on it waits, or is busy);
2. loads a :class:`~addin.actions.change.Snapshot` of the sections the action declares
   (``addin.actions.registry``), through the workbook's storage: python-calamine and
   sheet edits for a file, xlwings for Excel, UNO for Calc;
3. runs the action, a function of the snapshot and its parameters to a
   :class:`~addin.actions.change.Change`; asks the TD to accept the change's warnings
   (declined: nothing is written) and the action's own questions, and downloads what it
   needs from the web (a rating list);
4. commits the change: checks that the file is as it was loaded, writes the outputs, the
   tables and the Log, records the journal entry and saves, atomically;
5. returns an :class:`Outcome` for the door to render: done, cancelled, error, failed or
   busy, with the messages, the warnings and the requests (select rows, open a file).

No door names an action, and nothing but this module saves a workbook or writes its
journal (tests/test_one_store.py).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from addin.actions.change import (
    ActionError,
    Ask,
    Cancelled,
    Change,
    Draft,
    Fetch,
    OpenFile,
    ParamError,
    Queued,
    Replaced,
    Request,
    SelectRows,
    Snapshot,
    Window,
    WriteTable,
)
from addin.actions.registry import ACTIONS, FOLLOW_UPS, Action, arguments, load_all, load_one, parse
from addin.workbook.cells import RefusedValue
from addin.workbook.gateway import LogEntry, Storage, TableData, WorkbookError
from addin.workbook.layout import Table, section_sheets
from addin.workbook.saving import (
    SaveRefused,
    WorkbookBusy,
    WorkbookLocked,
    file_identity,
    write_bytes_safely,
)

__all__ = [
    "Answered",
    "Conversation",
    "FileBook",
    "Kept",
    "Outcome",
    "Queued",
    "Signed",
    "Storage",
    "Window",
    "Workbook",
    "find",
    "run",
]

Params = Mapping[str, object]


class Conversation(Protocol):
    """How a door talks with the TD: a terminal, a spreadsheet window's dialogs, a
    station's page."""

    terminal: bool
    """A terminal: messages are printed once the action is done."""
    selects: bool
    """The door can select rows for the TD (a window): an action's follow-up runs."""

    def confirm(self, question: str) -> bool:
        """Ask a yes/no question; True for yes."""
        ...

    def tell(self, message: str) -> None:
        """Say something now (a window shows a dialog; a terminal prints at the end)."""
        ...

    def select(self, request: SelectRows) -> bool:
        """Select these rows for the TD; False where the door cannot (a file)."""
        ...

    def progress(self, fraction: float, text: str) -> None:
        """How far a long step is (0 to 1), and what it does now, said whole in ``text``
        (a terminal draws it as is, on one line); 1 ends the step."""
        ...


class Workbook(Protocol):
    """Where the tournament is kept, as a door gives it to the store."""

    name: str
    """The workbook's name, for messages (``t.xlsx``)."""
    where: str
    """The workbook as the TD named it (a path), for messages about writing it."""
    force: bool
    """``--force``: write although another program holds the file; outputs may replace
    another tournament workbook (a backup is kept)."""
    in_window: bool
    """An open spreadsheet window: writes are queued and the window saves its own file."""

    def turn(self) -> contextlib.AbstractContextManager[object]:
        """Hold the workbook's turn; raise ``WorkbookBusy`` when it cannot be had."""
        ...

    def open(self, sheets: Sequence[str] | None, *, writes: bool) -> Storage:
        """The storage of the workbook (``sheets``: the only sheets an action that writes
        nothing reads, where they are known; ``writes``: whether it may write)."""
        ...

    def window(self) -> Window: ...


@dataclass
class Outcome:
    """How a run ended, for the door to render."""

    status: str
    """``done``; ``cancelled`` (the TD said no); ``error`` (refused, with a reason for the
    TD: the workbook is as it was); ``failed`` (an unexpected exception: a bug); ``busy``
    (another action has the workbook: nothing was done)."""
    messages: list[str] = field(default_factory=list)
    """Done: what to tell the TD. Error, failed, busy: the reason, first."""
    warnings: list[str] = field(default_factory=list)
    """Cancelled: the warnings the TD did not accept."""
    requests: list[Request] = field(default_factory=list)
    quiet: bool = False
    """Cancelled: the question said it all (a window says nothing more)."""
    stage: str = ""
    """Error: where it stopped: ``usage`` (a parameter), ``open``, ``run`` (the action
    refused) or ``save`` (the workbook could not be kept)."""
    unchanged: str = ""
    """Error: ``t.xlsx is unchanged`` where the door should say so; empty where there is
    no workbook to speak of or the reason says it."""
    error: BaseException | None = None
    """Failed: the exception (the command line raises it again)."""
    written: bool = False
    """Failed: a window may be partly written."""
    problems_found: bool = False
    """Done, and the answer is no (``check`` found problems)."""
    afterwards: Callable[[], int] | None = None
    """Done on the command line: what to run once the workbook is free (``serve``)."""
    summary: str = ""
    """Done: the line that sums the answer up (``check``'s count): a terminal prints it
    last, under the list; a dialog first."""
    already: bool = False
    """Done long ago: the signed entry is in the workbook already (kept once; nothing run)."""
    taken: list[str] = field(default_factory=list)
    """Done, taking entries in: the ids of the entries written."""

    @property
    def document(self) -> Any:
        """The document a window shows now, when the action replaced it (undo, redo)."""
        return next((r.document for r in self.requests if isinstance(r, Replaced)), None)


REFUSED = (ActionError, RefusedValue, SaveRefused, WorkbookError)
"""What an action or a save raises to refuse, with a reason for the TD: nothing was
written (and a ``JournalError``: the journal, imported only when needed, refused)."""
NOT_SAVED = (RefusedValue, SaveRefused, WorkbookLocked)
"""Why a save was refused before it began (the refusal says so itself)."""
MAX_QUESTIONS = 4
"""An action asks at most this many questions of its own in one run (each answer runs it
again with that answer): more is a bug, not a conversation."""


@dataclass(frozen=True)
class Signed:
    """Who acts, where a door speaks for someone else (a station at the event): their name
    stands in the Log's Action column (``register (Desk 2)``) and in the journal, and the
    entry's id in a Log line written with the change, in the same save. So the workbook
    itself says whether an entry is in: the store runs an entry at most once."""

    by: str
    entry: str = ""

    def line(self, action: str) -> LogEntry:
        return LogEntry("Action", self.action(action), f"{ENTRY_WORD} {self.entry} from {self.by}")

    def action(self, action: str) -> str:
        return f"{action} ({self.by})"


ENTRY_WORD = "Entry"
"""A signed entry's Log line: ``Entry 7f3a9c... from Desk 2``."""


def entries_in(messages: Iterable[str]) -> set[str]:
    """The ids of the signed entries these Log messages record."""
    found: set[str] = set()
    for message in messages:
        word, _, rest = message.partition(" ")
        if word == ENTRY_WORD and " from " in rest:
            found.add(rest.split(" ", 1)[0])
    return found


def find(action_id: str) -> Action | None:
    """The registered action ``action_id``, importing only its module when it can."""
    return ACTIONS.get(action_id) or load_one(action_id) or load_all().get(action_id)


Runs = Sequence[Params | object] | Callable[[Snapshot], Sequence[Params] | None]
"""The parameter sets, one per run (as a door was given them, or already of the action's
parameter class); or, given the loaded workbook, how to find them (a window reads the
TD's selection; None: the TD cancelled a question)."""


def run(
    action_id: str | Action,
    runs: Runs,
    workbook: Workbook,
    conversation: Conversation,
    *,
    warnings_accepted: bool = False,
    signed: Signed | None = None,
) -> Outcome:
    """Run ``action_id`` on ``workbook``, talking with the TD through ``conversation``:
    lock, load, run, ask, commit. ``warnings_accepted``: the door accepted the warnings
    in advance (``--yes``): they are logged, not asked. ``signed``: the door speaks for
    someone, and an entry the workbook holds already is not run again. Never raises but
    for an interrupt (an unexpected exception is a ``failed`` outcome holding it)."""
    spec = action_id if isinstance(action_id, Action) else find(action_id)
    if spec is None:
        return Outcome("error", [f"there is no action {action_id!r}"], stage="usage")
    store = TournamentStore(spec, workbook, conversation, warnings_accepted, signed)
    try:
        with workbook.turn():
            return store.run(runs)
    except WorkbookBusy as err:
        return Outcome("busy", [str(err)])


@dataclass
class Group:
    """What became of a group of entries (``run_group``)."""

    decided: list[tuple[Queued, Outcome, Answered]] = field(default_factory=list)
    """The entries the group decided, in order: written (after the save that holds them),
    in the workbook already, refused, or asking a question."""
    left: list[Queued] = field(default_factory=list)
    """The entries not decided: to take again (the first of them alone, when ``alone``)."""
    alone: bool = False
    """The first entry left needs the one-entry path (a write this group cannot mirror)."""
    reason: str = ""
    """Why the entries left were left (busy, time up, the save refused)."""
    unsaved: bool = False
    """The group's save was refused (``reason`` says why): nothing of it was written."""
    kept: Kept | None = None
    """The workbook as the group left it, for the next group to go on from."""


@dataclass
class Kept:
    """The workbook as a group left it in memory (what it read, what it wrote, the entries
    it holds), and the file it saved: the next group goes on from here while the file is
    still that one (no other command wrote it since), without loading it again."""

    storage: Any
    identity: tuple[int, int, int] | None
    seen: set[str]


GROUP_BOUND = 200
"""Entries taken into one group at most."""
GROUP_SECONDS = 2.0
"""A group takes no further entry once it has worked this long (processor time: on a busy
laptop a group is not cut short before it has done anything); its save, and each desk's
answer, come within a few seconds even at a morning rush (the entries not taken wait for
the next group, a moment later)."""
GROUP_WALL_SECONDS = 10.0
"""... nor once it has taken this long by the clock, however busy the laptop."""


def run_group(queued: Sequence[Queued], workbook: FileBook, kept: Kept | None = None) -> Group:
    """Run entries sent from elsewhere (the stations') into a workbook file as one group:
    one load; each entry through its own action, as its sender answered, on what the
    earlier ones wrote (its own Log lines, signed; its own refusal or question); the
    package kept after each (its own journal entry, undone alone); one save for them all.
    An entry is "done" only once that save holds it; an entry the workbook holds already
    (its id in the Log or the journal) is never run again. Never raises but for an
    interrupt. ``kept``: the workbook as the group before left it (``Group.kept``)."""
    try:
        with workbook.turn():
            return _GroupRun(workbook).run(queued, kept)
    except WorkbookBusy as err:
        return Group(left=list(queued), reason=str(err))


class _GroupRun:
    def __init__(self, workbook: FileBook) -> None:
        self.workbook = workbook

    def run(self, queued: Sequence[Queued], kept: Kept | None = None) -> Group:
        from addin.journal.store import JournalError, Step, record_group
        from addin.workbook.book import read_log
        from addin.workbook.group_file import GroupFile, GroupUnsupported

        group = Group()
        path = self.workbook.path
        try:
            identity = _identity_of(path)
            if kept is not None and kept.identity == identity and identity is not None:
                storage, seen = kept.storage, set(kept.seen)
            else:
                storage = GroupFile(path)
                seen = entries_in(message for _, message in read_log(storage))
                seen |= _journaled_entries(path)
        except (GroupUnsupported, *REFUSED, JournalError, OSError) as err:
            return Group(left=list(queued), alone=True, reason=str(err))
        steps: list[Step] = []
        done: list[tuple[Queued, Change, Answered]] = []
        started, worked = time.monotonic(), time.process_time()
        for number, q in enumerate(queued):
            if (
                time.process_time() - worked > GROUP_SECONDS
                or time.monotonic() - started > GROUP_WALL_SECONDS
            ):
                group.left, group.reason = list(queued[number:]), "the group's time is up"
                break
            answers = Answered(q.answers)
            spec = find(q.action)
            if q.entry in seen:
                name = Path(self.workbook.name).name
                message = f"entry {q.entry} is in {name} already"
                group.decided.append((q, Outcome("done", [message], already=True), answers))
                continue
            if spec is None or spec.creates or spec.journal or not spec.changes:
                message = f"{q.action!r} is no entry a station sends"
                group.decided.append((q, Outcome("error", [message], stage="usage"), answers))
                continue
            sub = TournamentStore(spec, self.workbook, answers, False, Signed(q.by, q.entry))
            sub.storage, sub._identity = storage, identity
            try:
                params = parse(spec, q.params)
                change = sub.decide(sub.load(), params)
            except Cancelled as cancelled:
                outcome = Outcome("cancelled", warnings=cancelled.warnings, quiet=cancelled.quiet)
                group.decided.append((q, outcome, answers))
                continue
            except ParamError as err:
                group.decided.append((q, Outcome("error", [str(err)], stage="usage"), answers))
                continue
            except GroupUnsupported as err:
                group.left, group.alone, group.reason = list(queued[number:]), True, str(err)
                break
            except Exception as err:
                outcome = sub._refusal(err, "run") or Outcome("failed", [_describe(err)], error=err)
                group.decided.append((q, outcome, answers))
                continue
            if change.outputs or change.effects or change.report_sheet:
                group.left, group.alone = list(queued[number:]), True
                group.reason = f"{q.action} writes more than the workbook"
                break
            try:
                sub.apply(change)
                after = storage.package()
            except Exception as err:  # the storage may hold part of it: the group ends here
                group.left, group.alone, group.reason = list(queued[number:]), True, str(err)
                break
            arguments = _merged([params])
            arguments["entry"] = q.entry
            steps.append(Step(spec.id, arguments, q.by, after))
            done.append((q, change, answers))
            seen.add(q.entry)
        if steps:
            try:
                self._save(storage, identity, steps, record_group)
            except Exception as err:  # nothing was saved: nothing is told but what stood
                reason = str(err) if isinstance(err, (*REFUSED, OSError)) else _describe(err)
                stood = [d for d in group.decided if d[1].already]
                left = [d[0] for d in group.decided if not d[1].already]
                ran = {q.entry for q in left} | {q.entry for q, _, _ in done}
                group.left = [q for q in queued if q.entry in ran] + group.left
                group.decided, group.alone, group.reason = stood, False, reason
                group.unsaved = True
                return group
        for q, change, answers in done:
            group.decided.append((q, Outcome("done", list(change.messages)), answers))
        if not group.alone:  # nothing of a refused write is in memory: the next goes on
            group.kept = Kept(storage, _identity_of(path) if steps else identity, seen)
        return group

    def _save(
        self,
        storage: Any,
        identity: tuple[int, int, int] | None,
        steps: Sequence[Any],
        record_group: Callable[..., Any],
    ) -> None:
        """The last step's package saved for good, the steps journaled around the save."""
        from addin.workbook.saving import check_not_open, save_atomically, target_of

        path = self.workbook.path
        if _identity_of(path) != identity:
            raise ActionError(
                f"{self.workbook.name} was saved by another program while the entries ran: "
                "nothing was written; they run again"
            )
        check_not_open(path)
        check_not_open(target_of(path))
        data = steps[-1].after

        def write(tmp: Path) -> None:
            with open(tmp, "wb") as f:
                f.write(data)

        def save(ready: Callable[[Path], None]) -> None:
            save_atomically(write, path, ready=ready)

        record_group(path, list(steps), save)


class TournamentStore:
    """One action's loading and committing, on one workbook, through one door."""

    def __init__(
        self,
        spec: Action,
        workbook: Workbook,
        conversation: Conversation,
        warnings_accepted: bool,
        signed: Signed | None = None,
    ) -> None:
        self.spec, self.workbook, self.conversation = spec, workbook, conversation
        self.warnings_accepted = warnings_accepted
        self.signed = signed
        self.storage: Storage | None = None
        self._identity: tuple[int, int, int] | None = None
        self._applied: set[int] = set()
        self._entries: set[str] | None = None
        self._taken: list[Queued] = []
        self._grouped: list[Queued] = []
        """Entries taken in by groups, each its own journal entry (``_take_in_groups``)."""

    # --- the whole run ----------------------------------------------------------------

    def run(self, runs: Runs) -> Outcome:
        spec, stage = self.spec, "open"
        changes: list[Change] = []
        notes: list[str] = []
        try:
            snapshot = self.load()
            if self.signed and self.signed.entry and self.signed.entry in self.entries():
                name = Path(self.workbook.name).name
                return Outcome(
                    "done", [f"entry {self.signed.entry} is in {name} already"], already=True
                )
            stage = "run"
            given = runs(self._door_view(snapshot)) if callable(runs) else runs
            if given is None:
                return Outcome("cancelled")
            sets = [
                parse(spec, values) if isinstance(values, Mapping) else values for values in given
            ]
            for number, params in enumerate(sets):
                if number:  # a later run reads what the earlier ones wrote
                    self._apply_pending(changes)
                    snapshot = self.load()
                changes.append(self.decide(snapshot, params))
            if changes and changes[-1].queued:
                queued = changes[-1].queued
                if isinstance(self.workbook, FileBook):  # as the stations' writer does
                    said, queued = self._take_in_groups(queued)
                    notes += said
                    if queued and self._grouped:  # the file changed: read it afresh
                        self.storage, self._entries = None, None
                        self.load()
                notes += self._take_in(queued, changes)
            stage = "save"
            notes += self.commit(changes, sets)
        except Cancelled as cancelled:
            return Outcome("cancelled", warnings=cancelled.warnings, quiet=cancelled.quiet)
        except ParamError as err:
            return Outcome("error", [str(err)], stage="usage")
        except Exception as err:
            refusal = self._refusal(err, stage)
            if refusal is not None:
                return refusal
            return Outcome("failed", [_describe(err)], error=err, written=stage == "save")
        last = changes[-1] if changes else Change(spec.id)
        messages = [m for c in changes for m in c.messages]
        requests = [r for c in changes for r in c.requests]
        if sets and self.conversation.selects and (then := FOLLOW_UPS.get(spec.id)):
            requests += self._follow_up(then, sets[0])
        for request in [r for r in requests if isinstance(r, SelectRows)]:
            with contextlib.suppress(Exception):  # selecting is a convenience
                if self.conversation.select(request):
                    messages.append(request.message)
        return Outcome(
            "done",
            [*messages, *notes],
            requests=requests,
            problems_found=any(c.problems_found for c in changes),
            afterwards=last.afterwards,
            summary=last.summary,
            taken=[q.entry for q in [*self._grouped, *self._taken]],
        )

    # --- loading ----------------------------------------------------------------------

    def load(self) -> Snapshot:
        """The snapshot of what the action declares it reads."""
        spec = self.spec
        terminal = self.conversation.terminal
        if spec.creates or spec.journal:
            window = self.workbook.window() if spec.journal else None
            if window is not None and spec.changes and window.file() and window.modified():
                window.save()  # what the TD typed is seen, and asked about, by undo and redo
            return Snapshot(
                _NoSheets(self.workbook.name),
                spec.id,
                (),
                window=window,
                terminal=terminal,
                force=self.workbook.force,
            )
        if self.storage is None:
            self.storage = self.workbook.open(section_sheets(spec.reads), writes=spec.changes)
            self._identity = _identity_of(self.storage.path)
        storage = self.storage
        path = storage.path
        return Snapshot(
            storage,
            spec.id,
            spec.reads,
            spec.writes,
            path=path,
            earlier_round=_earlier_round(path) if path else None,
            terminal=terminal,
            force=self.workbook.force,
        )

    def _door_view(self, snapshot: Snapshot) -> Snapshot:
        """What a door reads to find an action's parameters (the rows the TD selected):
        any section of the workbook, never written."""
        if self.storage is None:
            return snapshot
        from addin.actions.sections import EVERYTHING

        return Snapshot(self.storage, self.spec.id, EVERYTHING, path=self.storage.path)

    # --- running ----------------------------------------------------------------------

    def decide(self, snapshot: Snapshot, params: object) -> Change:
        """Run the action; ask about its warnings and its own questions."""
        for _ in range(MAX_QUESTIONS):
            try:
                change = self.spec.run(snapshot, params)
            except Ask as asked:
                answer = self.conversation.confirm(asked.question)
                values = asked.yes if answer else asked.no
                if values is None:
                    raise Cancelled(asked.cancelled, quiet=not asked.cancelled) from None
                params = _replaced(params, values)
                continue
            except Fetch as wanted:
                params = _replaced(params, {wanted.into: self.fetch(wanted.url)})
                continue
            self._accept(change)
            if self.signed is not None and change.changes_tournament:
                _sign(change, self.signed)
            return change
        raise ActionError(f"{self.spec.id} asked more than {MAX_QUESTIONS} questions")

    def fetch(self, url: str) -> object:
        """The file at ``url``, downloaded for the action, its progress told to the door;
        ``ActionError`` saying in one line why it could not be had."""
        from addin.download import DownloadError, Told, fetch

        progress = Told(url, self.conversation.progress)
        try:
            return fetch(url, progress=progress)
        except DownloadError as err:
            raise ActionError(str(err)) from None
        finally:
            progress.end()

    def _accept(self, change: Change) -> None:
        if change.warnings and self.warnings_accepted:  # said too, not only logged
            change.messages += [f"warning (accepted): {w}" for w in change.warnings]
        if not change.warnings or self.warnings_accepted:
            return
        text = "\n".join(f"- {w}" for w in change.warnings)
        if not self.conversation.confirm(f"{change.action}: please check before going on:\n{text}"):
            raise Cancelled(change.warnings)

    def _follow_up(self, action_id: str, values: object) -> list[Request]:
        """The action's follow-up where the door can select (lookup's matches): a
        convenience whose failure is quiet."""
        follow = find(action_id)
        if follow is None or self.storage is None:
            return []
        with contextlib.suppress(Exception):
            snapshot = Snapshot(self.storage, follow.id, follow.reads, path=self.storage.path)
            return follow.run(snapshot, parse(follow, arguments(values))).requests
        return []

    # --- committing -------------------------------------------------------------------

    def apply(self, change: Change) -> None:
        assert self.storage is not None
        apply(self.storage, change)

    def _apply_pending(self, changes: Sequence[Change]) -> None:
        """Write the changes not written to the storage yet (each once, in order)."""
        for change in changes:
            if id(change) not in self._applied:
                self._applied.add(id(change))
                self.apply(change)

    # --- entries sent from elsewhere (stations) --------------------------------------

    def entries(self) -> set[str]:
        """The ids of the signed entries the workbook holds: in its Log, or in its journal
        (an entry the TD took back with ``undo`` was in: it is not run again)."""
        if self._entries is None:
            from addin.workbook.book import read_log

            assert self.storage is not None
            found = entries_in(message for _, message in read_log(self.storage))
            path = self._journal_file()
            if path is not None:
                found |= _journaled_entries(path)
            self._entries = found
        return self._entries

    def _journal_file(self) -> Path | None:
        with contextlib.suppress(Exception):  # a window with no file has no journal
            return self.workbook.window().on_disk()
        return None

    def _take_in_groups(self, queued: Sequence[Queued]) -> tuple[list[str], list[Queued]]:
        """A file's waiting entries taken in as the stations' writer takes them: in groups,
        each entry its own journal entry, one save a group; what is said of each; and the
        entries left to take in the one way a group cannot (with this action's change)."""
        notes: list[str] = []
        left = list(queued)
        while left:
            group = _GroupRun(self.workbook).run(left[:GROUP_BOUND])  # type: ignore[arg-type]
            for q, outcome, answers in group.decided:
                what = f"{q.by}'s {q.action} (entry {q.entry})"
                if outcome.status == "done":
                    if not outcome.already:
                        self._grouped.append(q)
                        notes += [f"{q.by}: {m}" for m in outcome.messages]
                elif outcome.status == "cancelled":
                    asked = answers.unanswered or "; ".join(outcome.warnings) or "declined"
                    notes.append(f"{what}: not taken, {q.by} has to answer first: {asked}")
                else:
                    notes.append(f"{what}: not taken: {outcome.messages[0]}")
            if group.unsaved:
                raise ActionError(group.reason)
            if group.left and group.alone:
                return notes, [*group.left, *left[GROUP_BOUND:]]
            left = [*group.left, *left[GROUP_BOUND:]]
        return notes, []

    def _take_in(self, queued: Sequence[Queued], changes: list[Change]) -> list[str]:
        """Run each entry through its own action, as its sender answered, on what the
        earlier ones wrote: written with the rest when it goes through; one refused, or
        asking a question its sender has not answered, is said and left out."""
        notes: list[str] = []
        for q in queued:
            what = f"{q.by}'s {q.action} (entry {q.entry})"
            spec = find(q.action)
            if q.entry in self.entries() or any(t.entry == q.entry for t in self._taken):
                continue
            if spec is None or spec.creates or spec.journal or not spec.changes:
                notes.append(f"{what}: not taken: it is no entry a station sends")
                continue
            sub = TournamentStore(
                spec, self.workbook, Answered(q.answers), False, Signed(q.by, q.entry)
            )
            sub.storage, sub._identity = self.storage, self._identity
            try:
                self._apply_pending(changes)
                change = sub.decide(sub.load(), parse(spec, q.params))
            except Cancelled as cancelled:
                asked = "; ".join(cancelled.warnings) or "declined"
                notes.append(f"{what}: not taken, {q.by} has to answer first: {asked}")
                continue
            except (*REFUSED, ParamError) as err:
                notes.append(f"{what}: not taken: {err}")
                continue
            changes.append(change)
            self._taken.append(q)
            notes += [f"{q.by}: {m}" for m in change.messages]
        return notes

    def commit(self, changes: list[Change], sets: Sequence[object]) -> list[str]:
        """Write every change for good: outputs, then tables and Log, journal and save."""

        spec, workbook = self.spec, self.workbook
        last = changes[-1] if changes else Change(spec.id)
        for change in changes:
            self._write_outputs(change)
            for effect in change.effects:
                effect.make()
        journal_arguments = _merged(sets)
        if last.creates is not None:
            _create(last, journal_arguments, workbook.window().door)
            return []
        if spec.journal:
            return _journal_work(last, workbook.window(), self)
        if not changes or self.storage is None:
            return []
        self._apply_pending(changes)
        if self.signed is not None and self.signed.entry:
            journal_arguments["entry"] = self.signed.entry
        if self._taken:
            journal_arguments["entries"] = ", ".join(q.entry for q in self._taken)
        tournament = any(c.changes_tournament for c in changes)
        report_sheet = any(c.report_sheet for c in changes)
        if not (tournament or report_sheet):
            return []
        if workbook.in_window:
            return _keep_window(
                self.storage, workbook.window(), spec.id, journal_arguments, tournament
            )
        return self._keep_file(spec.id, journal_arguments, tournament)

    def _keep_file(self, action: str, args: Mapping[str, object], tournament: bool) -> list[str]:
        """Journal and save a file: all or nothing. While another program holds it and
        only the Log would change, nothing is saved (the action's outputs are what count)."""
        from addin.journal.store import record

        book: Any = self.storage
        holder = None if self.workbook.force else book.held_by()
        if holder and not book.changed:
            return [
                f"note: not noted in the Log, {Path(self.workbook.name).name} is open in {holder}"
            ]
        self._check_unchanged()
        if tournament:
            door = self.signed.by if self.signed else self.workbook.window().door
            entry = record(book.path, action, args, book.save, door=door)
            return [f"note: {n}" for n in entry.notes]  # a torn journal line set aside
        else:
            book.save(keep=0)
        return []

    def _check_unchanged(self) -> None:
        """The file is as it was loaded: nothing else wrote it meanwhile (the turn keeps
        this program's own commands out; a spreadsheet saving it does not take turns)."""
        assert self.storage is not None
        if self._identity is not None and _identity_of(self.storage.path) != self._identity:
            raise ActionError(
                f"{self.workbook.name} was saved by another program while this action ran: "
                "nothing was written; run it again"
            )

    def _write_outputs(self, change: Change) -> None:
        workbook = self.storage.path if self.storage is not None else None
        for output in change.outputs:
            try:
                write_bytes_safely(
                    output.path, output.data, workbook=workbook, force=self.workbook.force
                )
            except SaveRefused as err:
                raise ActionError(str(err)) from err
            except OSError as err:
                raise ActionError(f"could not write {output.path}: {err.strerror or err}") from err

    # --- refusals ---------------------------------------------------------------------

    def _refusal(self, err: Exception, stage: str) -> Outcome | None:
        """The error outcome for a refusal with a reason; None for a bug."""
        from addin.journal.store import JournalError  # a desk look-up never loads the journal

        spec, workbook = self.spec, self.workbook
        name = "" if spec.creates or not spec.changes else f"{workbook.name} is unchanged"
        verb = "write" if spec.creates or spec.journal else "save"
        if isinstance(err, OSError) and (stage == "save" or spec.journal):
            reason = f"could not {verb} {workbook.where}: {err.strerror or err}"
            return Outcome("error", [reason], stage="save", unchanged=name)
        if spec.journal and isinstance(err, (JournalError, SaveRefused, WorkbookLocked)):
            return Outcome("error", [str(err)], stage="save", unchanged=name)
        if stage == "open" and isinstance(err, WorkbookError):
            return Outcome("error", [str(err)], stage="open")
        if stage == "save" and isinstance(err, NOT_SAVED):
            return Outcome("error", [str(err)], stage="save")
        if stage == "save" and isinstance(err, JournalError):
            return Outcome("error", [str(err)], stage="save", unchanged=name)
        if isinstance(err, (*REFUSED, JournalError)):
            return Outcome("error", [str(err)], stage="run", unchanged=name)
        return None


def apply(storage: Storage, change: Change) -> None:
    """Write ``change`` to ``storage``: its tables, the sheets it removes, its Log lines
    (nothing is saved yet; a window's storage queues them until ``commit``)."""
    for edit in change.edits:
        if isinstance(edit, WriteTable):
            storage.write_table(edit.table, edit.rows)
        else:
            storage.remove_sheet(edit.sheet)
    storage.append_log(change.log)


# --- the window's journal ---------------------------------------------------------------


def _keep_window(
    storage: Storage,
    window: Window,
    action: str,
    args: Mapping[str, object],
    tournament: bool,
) -> list[str]:
    """Write the change to the open window; journal it when it changed the tournament
    and the window has a file.

    The journal keeps whole-workbook copies of the *file* beside it. A button changes the
    open window, not the file, so a journaled action saves the window to its file just
    before its change is written (the state before, the TD's hand edits included, exactly
    as the command line finds them in the file; skipped when the window holds nothing its
    file does not) and just after (the state it leaves). When the journal cannot keep the
    action after all, the change is kept, in the window and in the file, and only Undo
    cannot take it back: the TD is told so.
    """
    from addin.journal.store import Journal, JournalError, record

    path = window.file() if tournament else None
    if path is None:
        storage.commit()
        return []
    Journal.load(path)  # a damaged journal refuses the action, as on the command line
    if window.modified():
        window.save()
    storage.commit()
    try:
        record(path, action, args, window.save, door=window.door)
    except (JournalError, OSError, SaveRefused) as err:
        window.save()  # the file holds the action even when the journal cannot
        return [f"Done, but not in the journal (Undo cannot take it back): {err}"]
    return []


def _create(change: Change, args: Mapping[str, object], door: str) -> None:
    """``new``: the template with its settings, saved to its file and journaled."""
    made = change.creates
    assert made is not None
    if made.path.exists() and not made.replace:
        raise ActionError(f"{made.path} already exists; choose another name or pass --force")
    storage = new_workbook(made.path, made.values)
    storage.append_log(change.log)
    save_held(storage, made.path, change.action, args, door=door)


def new_workbook(path: Path, values: Mapping[str, object]) -> Any:
    """A workbook made from the template with these settings, in memory (nothing saved)."""
    from addin.workbook import template
    from addin.workbook.openpyxl_gateway import OpenpyxlGateway

    try:
        wb = template.build(dict(values))
    except ValueError as err:
        raise ActionError(str(err)) from err
    return OpenpyxlGateway(wb, path)


def save_held(
    storage: Any, path: Path, action: str, args: Mapping[str, object], *, door: str = "CLI"
) -> None:
    """Save a workbook a program holds in memory (``new``, the demo) to ``path``, as one
    journal entry for what it did since its last save (the first: the entry that made it)."""
    from addin.journal.store import record

    record(path, action, args, storage.save, door=door)


def note_error(storage: Storage, action: str, message: str) -> None:
    """An error line in the Log of a workbook held in memory (the demo's output that failed)."""
    from addin.workbook.gateway import LogEntry

    storage.append_log([LogEntry("Error", action, message)])


def _journal_work(change: Change, window: Window, store: TournamentStore) -> list[str]:
    """What a journal action decided, done: the state an undo or redo puts back, shown
    again in the window; the snapshots history's pruning removes."""
    from addin.journal.store import JournalError

    if change.prune_before is not None:
        from addin.journal.store import Journal

        path = window.on_disk()
        assert path is not None
        try:
            removed = Journal.load(path).prune_before(change.prune_before)
        except OSError as err:
            raise JournalError(
                f"could not prune the journal of {path}: {err.strerror or err}"
            ) from err
        return [
            f"Removed {removed} snapshot(s): entries before {change.prune_before} can no "
            "longer be undone."
        ]
    if change.restore is None:
        return []
    from addin.journal.commands import take_back

    message, document = take_back(change.restore, window)
    if document is not None:
        change.requests.append(Replaced(document))
    return [message]


# --- a workbook file -------------------------------------------------------------------


class FileBook:
    """A workbook file, as the command line and the stations' writer keep it: one action
    at a time on it (a second waits for the first, then reads afresh)."""

    in_window = False

    def __init__(self, path: Path, *, force: bool = False) -> None:
        self.path, self.force = Path(path), force
        self.name, self.where = self.path.name, str(path)

    def turn(self) -> contextlib.AbstractContextManager[object]:
        from addin.workbook.saving import one_at_a_time, target_of

        return one_at_a_time(target_of(self.path))

    def open(self, sheets: Sequence[str] | None, *, writes: bool) -> Storage:
        from addin.workbook.file_store import open_file

        return open_file(self.path, sheets=sheets, writes=writes, force=self.force)

    def window(self) -> FileWindow:
        return FileWindow(self.path, force=self.force)


class FileWindow:
    """The workbook file as an action on the journal sees it: nothing to save first, and
    nothing shows it again after an undo."""

    door = "CLI"
    """Who acts, as the journal records it (a signed run names its signer instead)."""

    def __init__(self, path: Path, *, force: bool) -> None:
        self.path, self.force = path, force

    def file(self) -> Path | None:
        return self.path

    def on_disk(self) -> Path | None:
        """The file the TD named: one that is not there is refused (``WorkbookError``)."""
        from addin.workbook.saving import target_of

        if not target_of(self.path).is_file():
            raise WorkbookError(
                f"{self.path} does not exist (or is not a file); expected a tournament workbook"
            )
        return self.path

    def unavailable(self) -> str:
        return f"{self.path} does not exist"

    def save(self) -> None:
        """The file is all there is."""

    def modified(self) -> bool:
        return False

    def reopen(self, between: Callable[[], None]) -> Any:
        """Refuse while Excel or LibreOffice holds the file (unless ``--force``)."""
        from addin.workbook.saving import check_not_open, target_of

        if not self.force:
            check_not_open(target_of(self.path))
        between()
        return None


# --- a workbook a program holds open ---------------------------------------------------


class HeldBook:
    """A workbook a program holds open (the demo's, in memory; a test's storage): the store
    reads it and commits each change to it, like a window not saved yet (no journal: its
    holder saves it, ``save_held``)."""

    in_window = True

    def __init__(self, storage: Storage, name: str | None = None, *, force: bool = False) -> None:
        self.storage = storage
        self.name = name or storage.source
        self.where = str(storage.path or self.name)
        self.force = force

    def turn(self) -> contextlib.AbstractContextManager[object]:
        return contextlib.nullcontext()

    def open(self, sheets: Sequence[str] | None, *, writes: bool) -> Storage:
        return self.storage

    def window(self) -> Window:
        return _Unsaved(self.name)


class _Unsaved:
    """The journal's view of a held workbook: no file yet."""

    door = "program"

    def __init__(self, name: str) -> None:
        self.name = name

    def file(self) -> Path | None:
        return None

    def on_disk(self) -> Path | None:
        return None

    def unavailable(self) -> str:
        return f"{self.name} is saved by the program that holds it"

    def save(self) -> None:
        """Its holder saves it."""

    def modified(self) -> bool:
        return False

    def reopen(self, between: Callable[[], None]) -> Any:
        between()
        return None


def _journaled_entries(book: Path) -> set[str]:
    """The signed entries the journal says were written, counting an entry only when the
    state it left was the workbook indeed. The journal notes entries just before the new
    file replaces the old: a process killed in between leaves entries (a whole group of
    them, each the state the next one started from) whose states never were the workbook.
    So the states the workbook went through are followed back from the file: the last
    entry that left the file as it is now was real, so was the state it started from, and
    so on back (an undo's entry leads back through the state it undid). A file that no
    entry left or started from (the TD saved it from Excel since) starts the walk at the
    last entry."""
    from addin.journal.store import Journal, state_of

    entries = Journal.load(book).entries
    signed = [e for e in entries if e.arguments.get("entry") or e.arguments.get("entries")]
    if not signed:
        return set()
    real: set[str | None] = set()
    now = state_of(book)
    if now is not None:
        real.add(now)
    if not any(e.after in real or e.before in real for e in entries):
        real.add(entries[-1].after)
    found: set[str] = set()
    for e in reversed(entries):
        if e.after not in real:
            continue
        real.add(e.before)
        ids = f"{e.arguments.get('entry', '')}, {e.arguments.get('entries', '')}"
        found |= {i for i in ids.split(", ") if i}
    return found


def _sign(change: Change, signed: Signed) -> None:
    """The change's Log lines name who acted, and one more line holds the entry's id."""
    change.log = [
        replace(
            e,
            action=signed.action(e.action),
            message=e.message.replace("TD accepted", f"{signed.by} accepted", 1)
            if e.level == "Confirmed"
            else e.message,
        )
        for e in change.log
    ]
    if signed.entry:
        change.log.append(signed.line(change.action))


class Answered:
    """A conversation whose answers were given in advance, by the question's text (a
    station's entry, answered at the station): a question not answered there cancels the
    run, naming it (``Cancelled``), so nothing is written until its sender answers."""

    terminal = False
    selects = False

    def __init__(self, answers: Mapping[str, bool]) -> None:
        self.answers = dict(answers)
        self.unanswered: str | None = None
        self.told: list[str] = []

    def confirm(self, question: str) -> bool:
        if question in self.answers:
            return self.answers[question]
        self.unanswered = question
        raise Cancelled([question])

    def tell(self, message: str) -> None:
        self.told.append(message)

    def select(self, request: SelectRows) -> bool:
        return False

    def progress(self, fraction: float, text: str) -> None:
        """Nobody watches."""


class Answering:
    """A conversation with no one at the keyboard: every question answered ``yes`` (or
    not), what is said kept in ``told`` and ``asked``."""

    terminal = True
    selects = False

    def __init__(self, yes: bool = True) -> None:
        self.yes = yes
        self.asked: list[str] = []
        self.told: list[str] = []

    def confirm(self, question: str) -> bool:
        self.asked.append(question)
        return self.yes

    def tell(self, message: str) -> None:
        self.told.append(message)

    def select(self, request: SelectRows) -> bool:
        return False

    def progress(self, fraction: float, text: str) -> None:
        """Nobody watches."""


# --- helpers ----------------------------------------------------------------------------


def _identity_of(path: Path | None) -> tuple[int, int, int] | None:
    """:func:`.saving.file_identity` of the opened workbook's file (None: not a file)."""
    return None if path is None else file_identity(path)


def _earlier_round(path: Path) -> Callable[[int, str], Any]:
    def earlier(number: int, digest: str) -> Any:
        from addin.journal.rounds import round_as_stamped

        return round_as_stamped(path, number, digest)

    return earlier


def _replaced(params: object, values: Mapping[str, object]) -> object:
    from dataclasses import replace

    return replace(params, **values)  # type: ignore[type-var]


def _merged(sets: Sequence[object]) -> dict[str, object]:
    """The runs' parameters as one journal entry's arguments: a press that ran once per
    selected row lists each value (``aga=1234, 5678``). The file an action creates is the
    journal's own book, not an argument."""
    runs = [{k: v for k, v in arguments(s).items() if k != "book"} for s in sets]
    if len(runs) == 1:
        return runs[0]
    merged: dict[str, object] = {}
    for values in runs:
        for key, value in values.items():
            if value is None or value is False:
                continue
            text = str(value)
            merged[key] = f"{merged[key]}, {text}" if key in merged else text
    return merged


def _describe(err: BaseException) -> str:
    from addin.actions.failure import describe

    return describe(err)


class _NoSheets:
    """The tables of an action that opens no sheet (``new``, the journal's actions)."""

    def __init__(self, name: str) -> None:
        self.source = name

    def sheet_names(self) -> list[str]:
        raise ActionError(f"no sheet of {self.source} is opened for this action")

    def read_table(self, table: Table) -> TableData:
        raise ActionError(f"no sheet of {self.source} is opened for this action")


__all__ += ["Draft", "OpenFile", "Replaced", "Request", "SelectRows"]
