"""The stations' queue while the TD holds the workbook open in a live LibreOffice Calc.

The server's writer does not write a workbook another program holds: each entry is checked
against the workbook as last saved and waits, its station told so. The window's door says
how many wait; its Take station entries button takes them in through the store, each
signed with its station, and a cell the TD typed meanwhile is kept. The writer then finds
them in the saved workbook and tells the stations they are written.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from addin.calc.dialogs import AcceptAll
from addin.calc.entry import dispatch
from addin.calc.office import Office
from addin.door.dispatch import Outcome
from addin.journal.store import Journal
from addin.workbook.saving import held_by
from tests.calc_support import office_or_skip
from tests.helpers import log_messages, sheet_rows
from tests.station_support import (
    Station,
    copied,
    event_in_play,
    key_of,
    rated_members,
    serving,
)
from tests.typing_helpers import players

PLAYING = rated_members(8, current=True)
WAITING = rated_members(2, skip=8, current=True)
TYPED = "paid cash, receipt 17"


@pytest.fixture(scope="module")
def office() -> Iterator[Office]:
    yield from office_or_skip()


def press(office: Office, doc: Any, button: str) -> Outcome:
    return dispatch(button, doc, office.ctx, {}, dialogs=AcceptAll(), yes=True)


def type_note(doc: Any, aga_id: int, text: str) -> None:
    """The TD types into the Notes cell of a player's row, in Calc."""
    sheet = doc.Sheets.getByName("Players")
    cursor = sheet.createCursor()
    cursor.gotoEndOfUsedArea(False)
    end = cursor.RangeAddress
    rows = sheet.getCellRangeByPosition(0, 0, end.EndColumn, end.EndRow).getDataArray()
    column = list(rows[0]).index("Notes")
    row = next(i for i, r in enumerate(rows) if r[0] == aga_id)
    sheet.getCellByPosition(column, row).setString(text)


def waiting_for_the_td(station: Station, entry: str) -> dict[str, str]:
    deadline = time.monotonic() + 120
    while True:
        told = station.state(entry)
        if told["state"] != "waiting" or "open in LibreOffice" in told["message"]:
            return told
        assert time.monotonic() < deadline, told
        time.sleep(0.2)


def test_entries_wait_while_calc_holds_the_workbook_and_its_button_takes_them_in(
    office: Office, tmp_path_factory: pytest.TempPathFactory
) -> None:
    event = event_in_play(tmp_path_factory.mktemp("event"), PLAYING, WAITING)
    book = copied(event, tmp_path_factory.mktemp("hall"))
    board = int(str(sheet_rows(book, "Round 1")[0]["Board"]))
    doc = office.open(book)
    assert str(held_by(book)).startswith("LibreOffice")
    with serving(book) as served:
        desk = Station(served.url, "Desk 1")
        desk.sign_in(key_of(book))
        arrived = desk.send("checkin", player=WAITING[0].aga_id)
        slip = desk.send("result", round=1, board=board, result="W", if_blank="yes")
        late = desk.send("checkin", player=PLAYING[0].aga_id)  # here already: refused now
        for entry in (arrived, slip):
            told = waiting_for_the_td(desk, entry)
            assert told["state"] == "waiting", told
        assert desk.settled(late)["state"] == "refused"
        assert "is open in LibreOffice" in desk.get("/station/")[1]

        type_note(doc, PLAYING[1].aga_id, TYPED)  # the TD types meanwhile
        checked = press(office, doc, "check")
        assert "2 station entries wait: Take station entries takes them in." in checked.messages
        named = f"check in {WAITING[0].name} ({WAITING[0].aga_id}): waits to be written (the "
        assert any(named in m and "Take station entries" in m for m in checked.messages), "\n".join(
            checked.messages
        )  # check names each entry waiting, so that nobody is left out of the next round

        taken = press(office, doc, "take-entries")
        assert taken.status == "done", taken
        assert sorted(taken.taken) == sorted([arrived, slip])
        assert desk.settled(arrived)["state"] == "written"
        assert desk.settled(slip)["state"] == "written"
        doc.close(True)
    registered = players(book)
    assert registered[WAITING[0].aga_id]["Status"] == "Active"
    assert registered[PLAYING[1].aga_id]["Notes"] == TYPED, "the TD's typing is kept"
    assert sheet_rows(book, "Round 1")[0]["Result"] == "White wins"
    signed = [(a, m) for _, a, m in log_messages(book) if a.endswith("(Desk 1)")]
    assert ("checkin (Desk 1)", f"Entry {arrived} from Desk 1") in signed
    assert ("result (Desk 1)", f"Entry {slip} from Desk 1") in signed
    last = Journal.load(book).entries[-1]
    assert (last.action, last.door) == ("take-entries", "Calc")
