"""The journal from the Calc toolbar, on a real, live LibreOffice (issue 22).

An action from a button changes the open document, not the file; it is still a journal
entry (door ``Calc``), because the door saves the document to its file just before the
action's change and just after it. Undo and Redo act inside the open window: the document
shown afterwards holds, cell for cell, the state before the action (or after it again).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from addin.calc.dialogs import AcceptAll
from addin.calc.entry import dispatch
from addin.calc.office import Office, properties
from addin.door.dispatch import Outcome
from addin.journal.store import folder_of
from tests.calc_support import live_cells, office_or_skip
from tests.helpers import run
from tests.workbook_fixtures import simple_tournament, write_workbook


@pytest.fixture(scope="module")
def office() -> Iterator[Office]:
    yield from office_or_skip()


def press(
    office: Office, doc: Any, button: str, dialogs: AcceptAll | None = None, **params: object
) -> Outcome:
    return dispatch(button, doc, office.ctx, params, dialogs=dialogs or AcceptAll(), yes=True)


@pytest.fixture
def live(office: Office, tmp_path: Path) -> tuple[Path, Any]:
    """A 12-player tournament, registered and banded, open in Calc."""
    source = write_workbook(tmp_path / "source.xlsx", simple_tournament(12, 0, seed=31), 3)
    path = Path(shutil.copy(source, tmp_path / "club.xlsx"))
    return path, office.open(path)


def test_button_actions_are_journal_entries_and_undo_redo_work_in_the_window(
    office: Office, live: tuple[Path, Any]
) -> None:
    path, doc = live
    assert press(office, doc, "bands").status == "done"
    before_pair = live_cells(doc)
    assert press(office, doc, "pair").status == "done"
    paired = live_cells(doc)
    assert paired != before_pair
    listing = run("history", path).stdout
    assert "Calc   bands" in listing and "Calc   pair" in listing, listing

    undone = press(office, doc, "undo")
    assert undone.status == "done", undone
    assert "Took back entry 2 (pair)" in undone.messages[0]
    doc = undone.document
    assert live_cells(doc) == before_pair  # the window shows the state before the pairing
    assert not doc.isModified()

    redone = press(office, doc, "redo")
    assert redone.status == "done", redone
    assert "Redid entry 2 (pair)" in redone.messages[0]
    doc = redone.document
    assert live_cells(doc) == paired
    entries = run("history", path).stdout
    assert "Calc   undo: back to the state before entry 2" in entries
    assert "Calc   redo: back to the state before entry 3" in entries

    # the file is the journal's: the command line takes the same action back after closing
    doc.close(True)
    assert run("undo", path).returncode == 0
    reopened = office.open(path)
    assert live_cells(reopened) == before_pair


def test_undo_asks_before_losing_what_the_td_typed_in_the_window(
    office: Office, live: tuple[Path, Any]
) -> None:
    path, doc = live
    assert press(office, doc, "bands").status == "done"
    assert press(office, doc, "pair").status == "done"
    note = doc.Sheets.getByName("Tournament").getCellRangeByName("B2")
    note.setString("Typed after the pairing")
    typed = live_cells(doc)

    no = AcceptAll(answer=False)
    kept = press(office, doc, "undo", no)
    assert kept.status == "cancelled"
    question = no.shown[-1][1]
    assert "club.xlsx was changed after entry 2 (sheets Tournament)" in question
    assert live_cells(doc) == typed  # the window keeps what was typed...
    assert "Typed after the pairing" in str(live_cells(office.open(path))["Tournament"])  # ...saved
    assert "Calc   undo" not in run("history", path).stdout

    yes = press(office, doc, "undo")
    assert yes.status == "done", yes
    assert "Typed after the pairing" not in str(live_cells(yes.document)["Tournament"])


def test_a_document_without_a_file_runs_actions_without_a_journal(
    office: Office, tmp_path: Path
) -> None:
    source = write_workbook(tmp_path / "source.xlsx", simple_tournament(8, 0, seed=32), 3)
    url = office.uno.systemPathToFileUrl(str(source))
    untitled = office.desktop.loadComponentFromURL(
        url, "_blank", 0, properties(Hidden=True, AsTemplate=True)
    )
    assert not untitled.hasLocation()
    assert press(office, untitled, "bands").status == "done"
    assert not folder_of(source).exists()
    refused = press(office, untitled, "undo")
    assert refused.status == "error"
    assert "no .xlsx file yet" in refused.messages[0]
    history = press(office, untitled, "history")
    assert "save it as .xlsx to start its journal" in history.messages[0]


def test_a_damaged_journal_refuses_a_button_action_as_it_refuses_a_command(
    office: Office, live: tuple[Path, Any]
) -> None:
    path, doc = live
    assert press(office, doc, "bands").status == "done"
    (folder_of(path) / "journal.jsonl").write_text("{not json", encoding="utf-8")
    before = live_cells(doc)
    dialogs = AcceptAll()
    refused = press(office, doc, "pair", dialogs)
    assert refused.status == "error"
    assert "journal.jsonl: damaged" in refused.messages[0]
    assert dialogs.shown[-1][2], "an error dialog"
    assert live_cells(doc) == before
    command = run("pair", path, "--yes")
    assert command.returncode == 1 and "journal.jsonl: damaged" in command.stderr
