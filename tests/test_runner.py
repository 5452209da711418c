"""The one store (``addin.store``): every door runs every action through it and renders
the outcome its own way. Here through the command line's door (``store.FileBook``)
on real files, and through the Excel door on xlwings' real remote engine: the same action
gives the same Log lines and journal entries, and the outcome carries what each door
needs (status, messages, warnings, requests)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest
from test_excel_remote import actions, open_remote, prepared_file
from workbook_fixtures import simple_tournament

from addin import store
from addin.actions.change import OpenFile, SelectRows
from addin.actions.registry import FOLLOW_UPS, MODULES, load_all
from addin.cli import Terminal
from addin.excel.entry import dispatch
from addin.journal.store import Journal
from addin.store import FileBook
from tests.helpers import digest, licensed_remote_engine, log_messages


def run(action: str, runs: list[dict[str, object]], on: tuple[Path, bool]) -> store.Outcome:
    """``action`` through the store on a file, as the command line runs it."""
    path, yes = on
    return store.run(action, runs, FileBook(path), Terminal(yes=yes), warnings_accepted=yes)


def FileDoor(path: Path, *, yes: bool = False) -> tuple[Path, bool]:
    return path, yes


@pytest.fixture(scope="module")
def remote_engine() -> Iterator[None]:
    with licensed_remote_engine():
        yield


def test_new_is_an_action_the_runner_saves_and_journals(tmp_path: Path) -> None:
    book = tmp_path / "club.xlsx"
    done = run("new", [{"book": book, "name": "Club", "rounds": 3}], FileDoor(book))
    assert done.status == "done" and done.messages[0] == f"Created {book}"
    assert done.messages[1].startswith("Next: fill the Tournament sheet")
    assert done.requests == [OpenFile(book)]  # a window opens it; a terminal does not
    [entry] = Journal.load(book).entries
    assert (entry.action, entry.arguments, entry.door) == (
        "new",
        {"name": "Club", "rounds": 3},
        "CLI",
    )
    again = run("new", [{"book": book}], FileDoor(book))
    assert again.status == "error" and "already exists" in again.messages[0]
    assert again.unchanged == ""  # nothing to say of a workbook it did not make


def test_a_declined_warning_is_cancelled_and_writes_nothing(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    before = digest(path)
    no = run("register", [{"aga": 29999}], FileDoor(path))
    assert no.status == "cancelled" and "Lapsed, Lou lapsed on 2019-01-31" in no.warnings[0]
    assert digest(path) == before
    yes = run("register", [{"aga": 29999}], FileDoor(path, yes=True))
    assert yes.status == "done"
    levels = [level for level, action, _ in log_messages(path) if action == "register"]
    assert levels[:2] == ["Warning", "Confirmed"] and levels[-1] == "Action"
    assert Journal.load(path).entries[-1].action == "register"


def test_check_is_an_action_whose_answer_can_be_no(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    clean = run("check", [{}], FileDoor(path))
    assert clean.status == "done" and not clean.problems_found
    assert clean.summary.startswith(f"{path.name}: 0 problem(s)")  # a terminal prints it last
    wb = openpyxl.load_workbook(path)
    wb["Players"]["E3"] = "abc"
    wb.save(path)
    before = digest(path)
    found = run("check", [{}], FileDoor(path))
    assert found.status == "done" and found.problems_found
    assert any(m.startswith("problem: Players!E3") for m in found.messages)
    assert digest(path) == before


def test_a_refusal_says_where_it_stopped(tmp_path: Path) -> None:
    missing = run("check", [{}], FileDoor(tmp_path / "none.xlsx"))
    assert (missing.status, missing.stage, missing.unchanged) == ("error", "open", "")
    path = prepared_file(tmp_path, 20)
    bad = run("register", [{"aga": 99999}], FileDoor(path, yes=True))
    assert (bad.status, bad.stage) == ("error", "run")
    assert bad.unchanged == f"{path.name} is unchanged"
    usage = run(
        "new", [{"book": tmp_path / "x.xlsx", "start_date": 2, "end_date": 1}], FileDoor(path)
    )
    assert (usage.status, usage.stage) == ("error", "usage")


def test_undo_and_history_are_actions_on_the_journal(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    first = digest(path)
    player = min(simple_tournament(20, 2, seed=20).players)
    assert run("drop", [{"player": player}], FileDoor(path, yes=True)).status == "done"
    listed = run("history", [{}], FileDoor(path))
    assert any(f"drop player={player}" in line for line in listed.messages)
    undone = run("undo", [{}], FileDoor(path))
    assert undone.status == "done" and undone.messages[0].startswith("Took back entry")
    assert digest(path) == first and undone.document is None  # a file shows nothing again


def test_every_action_the_doors_ran_themselves_is_registered() -> None:
    actions_ = load_all()
    for action in ("new", "check", "history", "undo", "redo", *FOLLOW_UPS.values()):
        assert action in actions_ and MODULES[action] == actions_[action].run.__module__
    assert actions_["new"].creates and actions_["undo"].journal and actions_["history"].journal


@pytest.mark.usefixtures("remote_engine")
def test_lookup_in_a_window_selects_the_matches(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    remote = open_remote(path)
    outcome = dispatch("lookup", remote, {"query": "Member1"})
    assert outcome.status == "done"
    [selected] = [r for r in outcome.requests if isinstance(r, SelectRows)]
    assert selected.sheet == "TDListA" and selected.rows
    assert outcome.messages[-1].startswith("The matches are selected on the TDListA sheet")
    assert [a["func"] for a in actions(remote) if a["func"] != "alert"] == [
        "activateSheet",
        "rangeSelect",
    ]


@pytest.mark.usefixtures("remote_engine")
def test_the_window_and_the_command_line_keep_the_same_log_and_journal(tmp_path: Path) -> None:
    (tmp_path / "cli").mkdir()
    (tmp_path / "win").mkdir()
    on_file = prepared_file(tmp_path / "cli", 20)
    assert run("register", [{"aga": 29999}], FileDoor(on_file, yes=True)).status == "done"
    remote = open_remote(prepared_file(tmp_path / "win", 20))
    assert dispatch("register", remote, {"aga": 29999}, yes=True).status == "done"
    [log] = [
        a for a in actions(remote, "setValues") if remote.sheets[a["sheet_position"]].name == "Log"
    ]
    window_lines = [(line[1], line[2], line[3]) for line in log["values"]]
    file_lines = [line for line in log_messages(on_file) if line[1] == "register"]
    assert window_lines == file_lines
