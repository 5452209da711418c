"""``take-entries``: the stations' entries that waited while the TD held the workbook open,
taken in through the store.

While Excel or LibreOffice holds the workbook, the server's writer does not write it: the
stations' entries wait beside it (``addin.station.entries``). This action names them
for the store (``Change.queued``), which takes them in as the writer would have: in groups
(``addin.store.run_group``), each entry through its own action (``register``, ``checkin``,
``result`` ...) on what the earlier ones wrote, as its station answered that action's
questions, each Log line naming its station and the entry's id, each its own journal entry
(``undo`` takes back the last one alone), one save a group. One refused, or asking a question
its station has not answered, is said and left out.

In an open window (the Excel or Calc button) the window is the workbook until the TD saves
it: the entries are run the same way, on what the earlier ones wrote, and kept as one journal
entry around the window's save (``undo`` takes them back together, as it does the results
``accept-results`` takes in).
"""

from __future__ import annotations

from addin.actions.change import ActionError, Change, Draft, Queued, Snapshot
from addin.actions.registry import NoParams, action
from addin.station.entries import STATION_ACTIONS, EntryQueue, stations_folder
from addin.workbook.layout import Section


@action(
    "take-entries",
    "Take station entries",
    "take in the entries the stations sent while the workbook was open here (each through "
    "its own action, as its station answered; one refused is said and left out)",
    reads=(Section.LOG,),  # the entries the workbook holds already; each entry's action
    # reads what it declares when the store runs it
)
def take_entries(snapshot: Snapshot, _params: NoParams) -> Change:
    draft = Draft(snapshot)
    if snapshot.path is None:
        raise ActionError("save the workbook first: the stations' entries are kept beside it")
    waiting = EntryQueue(stations_folder(snapshot.path)).pending()
    draft.change.queued = [
        Queued(e.action, dict(e.params), dict(e.answers), e.station, e.id)
        for e in waiting
        if e.action in STATION_ACTIONS
    ]
    if not draft.change.queued:
        draft.say("No station entry is waiting.")
    return draft.change
