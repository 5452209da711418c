"""Every action says what it reads and what it writes, and is held to it.

The store loads only the sections of the workbook an action declares it reads
(``addin.actions.registry``: ``reads``), and an action's draft writes only the sections it
declares it writes: an action that reads or writes another section stops, a bug named in
one line (``UndeclaredAccess``), before anything is written. Every test of an action runs
it through the store, so each declaration is checked wherever an action is tested.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from workbook_fixtures import simple_tournament, write_workbook

from addin import store
from addin.actions.change import Change, Draft, Snapshot, UndeclaredAccess
from addin.actions.registry import Action, load_all
from addin.cli import Terminal
from addin.store import FileBook
from addin.workbook import book, players_sheet
from addin.workbook.layout import Section
from tests.helpers import digest


@pytest.fixture
def workbook(tmp_path: Path) -> Path:
    return write_workbook(tmp_path / "club.xlsx", simple_tournament(12, 1, seed=3))


@dataclass(frozen=True)
class Nothing:
    """A made-up action's parameters."""


def _reads_players(snapshot: Snapshot, params: Nothing) -> Change:
    draft = Draft(snapshot)
    book.read_book(draft)  # reads Players, Bands, Requests and the rounds
    return draft.change


def _writes_players(snapshot: Snapshot, params: Nothing) -> Change:
    draft = Draft(snapshot)
    b = book.read_book(draft)
    players_sheet.write_rows(draft, b, b.players_data.rows)
    draft.done("wrote Players")
    return draft.change


def _run(action: Action, path: Path) -> store.Outcome:
    return store.run(action, [Nothing()], FileBook(path), Terminal(yes=True))


def test_an_action_that_reads_a_section_it_did_not_declare_stops(workbook: Path) -> None:
    before = digest(workbook)
    peek = Action("peek", "Peek", "", _reads_players, Nothing, frozenset({Section.SETTINGS}))
    outcome = _run(peek, workbook)
    assert outcome.status == "failed" and isinstance(outcome.error, UndeclaredAccess)
    assert "peek read Players (Players), which it does not declare" in outcome.messages[0]
    assert digest(workbook) == before


def test_an_action_that_writes_a_section_it_did_not_declare_stops(workbook: Path) -> None:
    before = digest(workbook)
    reads = frozenset(Section) - {Section.REPORT_SHEETS}
    sneak = Action("sneak", "Sneak", "", _writes_players, Nothing, reads, frozenset())
    outcome = _run(sneak, workbook)
    assert outcome.status == "failed" and isinstance(outcome.error, UndeclaredAccess)
    assert "sneak wrote Players (Players), which it does not declare" in outcome.messages[0]
    assert digest(workbook) == before


def test_the_same_action_declared_as_it_works_is_done(workbook: Path) -> None:
    reads = frozenset(Section) - {Section.REPORT_SHEETS}
    honest = Action(
        "honest", "Honest", "", _writes_players, Nothing, reads, frozenset({Section.PLAYERS})
    )
    assert _run(honest, workbook).status == "done"


def test_every_action_that_opens_the_workbook_declares_what_it_reads() -> None:
    for spec in load_all().values():
        if spec.creates or spec.journal:
            assert not spec.reads and not spec.writes, spec.id  # it opens no sheet
            continue
        assert spec.reads, f"{spec.id} declares nothing it reads"
        assert spec.writes <= frozenset(Section), spec.id
        if not spec.changes:
            assert not spec.writes, f"{spec.id} changes nothing, yet declares writes"
