"""A station's entry through the tournament store: signed with the station's name in the Log
and the journal, its id written with the change, run at most once; the stations' queue
on disk; and ``take-entries``, which takes in what waited while the workbook was open (in
groups, as the stations' writer does: each entry its own journal entry, one save)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from addin import store
from addin.formats.tdlista import parse_tdlista
from addin.journal.store import Journal
from addin.station.entries import (
    ANSWERED,
    ASKS,
    ENTRIES_FILE,
    WRITTEN,
    Entry,
    EntryQueue,
    new_id,
    stations_folder,
)
from tests.helpers import DATA, digest, log_messages, run
from tests.typing_helpers import players

SHORT = DATA / "tdlista" / "tdlista-short.txt"
LISTED = parse_tdlista(SHORT.read_bytes()).members
START = "2004-01-08"
CURRENT = [m for m in LISTED if m.rating is not None and m.expiry and m.expiry.year > 2004]
LAPSED = next(m for m in LISTED if m.rating is not None and m.expiry and m.expiry.year < 2004)


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("base") / "base.xlsx"
    assert run("new", path, "--name", "Store Open", "--start", START).returncode == 0
    assert run("import-tdlista", path, SHORT).returncode == 0
    return path


@pytest.fixture
def book(listed: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(listed, tmp_path / "t.xlsx"))


def signed_run(
    book: Path, action: str, params: dict[str, object], by: str, entry: str, yes: bool = True
) -> store.Outcome:
    answers = store.Answering(yes)
    return store.run(
        action,
        [params],
        store.FileBook(book),
        answers,
        warnings_accepted=yes,
        signed=store.Signed(by, entry),
    )


def log_rows(book: Path) -> list[tuple[str, str, str]]:
    return log_messages(book)


def test_a_signed_entry_names_its_station_in_the_log_and_the_journal(book: Path) -> None:
    member = CURRENT[0]
    entry = new_id()
    done = signed_run(book, "register", {"aga": member.aga_id}, "Desk 2", entry)
    assert done.status == "done", done
    rows = [r for r in log_rows(book) if r[1].startswith("register")]
    assert rows and all(action == "register (Desk 2)" for _, action, _ in rows)
    assert ("Action", "register (Desk 2)", f"Entry {entry} from Desk 2") in rows
    last = Journal.load(book).entries[-1]
    assert (last.door, last.action, last.arguments["entry"]) == ("Desk 2", "register", entry)


def test_an_entry_the_workbook_holds_is_not_run_again(book: Path) -> None:
    member = CURRENT[0]
    entry = new_id()
    assert signed_run(book, "register", {"aga": member.aga_id}, "Desk 1", entry).status == "done"
    before = digest(book)
    again = signed_run(book, "register", {"aga": member.aga_id}, "Desk 1", entry)
    assert (again.status, again.already) == ("done", True)
    assert digest(book) == before
    other = signed_run(book, "register", {"aga": member.aga_id}, "Desk 3", new_id())
    assert other.status == "error"
    assert f"AGA # {member.aga_id} is already registered" in other.messages[0]


def test_an_entry_taken_back_by_undo_is_not_run_again(book: Path) -> None:
    member = CURRENT[0]
    entry = new_id()
    assert signed_run(book, "register", {"aga": member.aga_id}, "Desk 1", entry).status == "done"
    assert run("undo", book).returncode == 0
    assert member.aga_id not in players(book)
    again = signed_run(book, "register", {"aga": member.aga_id}, "Desk 1", entry)
    assert again.already
    assert member.aga_id not in players(book)


def test_a_question_unanswered_at_the_station_writes_nothing_and_names_it(book: Path) -> None:
    lapsed = LAPSED
    before = digest(book)
    answers = store.Answered({})
    asked = store.run(
        "register",
        [{"aga": lapsed.aga_id}],
        store.FileBook(book),
        answers,
        signed=store.Signed("Desk 1", new_id()),
    )
    assert asked.status == "cancelled"
    assert answers.unanswered is not None and "lapsed" in answers.unanswered
    assert digest(book) == before
    answered = store.run(
        "register",
        [{"aga": lapsed.aga_id}],
        store.FileBook(book),
        store.Answered({answers.unanswered: True}),
        signed=store.Signed("Desk 1", new_id()),
    )
    assert answered.status == "done"
    assert ("Confirmed", "register (Desk 1)", "Desk 1 accepted the warnings above") in log_rows(
        book
    )


# --- the queue on disk ---------------------------------------------------------------------


def test_an_entry_sent_twice_is_kept_once(tmp_path: Path) -> None:
    queue = EntryQueue(tmp_path / "q.stations")
    entry = Entry(new_id(), "Desk 1", "checkin", {"player": "1310"})
    assert queue.submit(entry) == (entry, True)
    retried = Entry(entry.id, "Desk 1", "checkin", {"player": "9999"})
    assert queue.submit(retried) == (entry, False)
    assert [e.params for e in EntryQueue(tmp_path / "q.stations").entries()] == [{"player": "1310"}]


def test_a_line_cut_short_by_a_crash_is_skipped_and_ended(tmp_path: Path) -> None:
    folder = tmp_path / "q.stations"
    queue = EntryQueue(folder)
    first = Entry(new_id(), "Desk 1", "drop", {"player": "1"})
    queue.submit(first)
    with (folder / ENTRIES_FILE).open("a", encoding="utf-8") as f:
        f.write('{"id": "cut-short-by-a-cra')  # the writer died mid-line
    second = Entry(new_id(), "Desk 2", "drop", {"player": "2"})
    EntryQueue(folder).submit(second)
    assert [e.id for e in EntryQueue(folder).entries()] == [first.id, second.id]


def test_the_last_outcome_says_where_an_entry_stands(tmp_path: Path) -> None:
    queue = EntryQueue(tmp_path / "q.stations")
    asked = Entry(new_id(), "Desk 1", "register", {"aga": "1310"})
    queue.submit(asked)
    queue.record(asked.id, ASKS, question="register: please check")
    assert queue.pending() == []
    queue.record(asked.id, ANSWERED)
    later = EntryQueue(tmp_path / "q.stations")
    assert later.outcome(asked.id).state == ANSWERED
    assert later.outcome(new_id()).state == "waiting"


def test_the_password_is_made_once_and_kept_for_the_owner_only(tmp_path: Path) -> None:
    queue = EntryQueue(tmp_path / "q.stations")
    key = queue.key()
    assert EntryQueue(tmp_path / "q.stations").key() == key
    assert (tmp_path / "q.stations" / "key").stat().st_mode & 0o077 == 0


# --- take-entries ----------------------------------------------------------------------------


def test_take_entries_runs_each_entry_through_its_action_each_its_own_journal_entry(
    book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "GROUP_SECONDS", 1e9)  # one group, however busy the machine
    queue = EntryQueue(stations_folder(book))
    first, second = CURRENT[0], CURRENT[1]
    sent = [
        Entry(new_id(), "Desk 1", "register", {"aga": str(first.aga_id)}),
        Entry(new_id(), "Desk 2", "register", {"aga": str(second.aga_id)}),
        Entry(new_id(), "Desk 3", "register", {"aga": str(first.aga_id)}),  # too late
        Entry(new_id(), "Desk 2", "register", {"name": "Walk-In, Wanda", "rank": "5k"}),
    ]
    for e in sent:
        queue.submit(e)
    entries_before = len(Journal.load(book).entries)
    before = digest(book)
    done = run("take-entries", book, "--yes")
    assert done.returncode == 0, done.stderr
    assert f"Desk 3's register (entry {sent[2].id}): not taken: AGA # {first.aga_id}" in (
        done.stdout
    )
    registered = players(book)
    assert {first.aga_id, second.aga_id} <= set(registered)
    assert any(p["Family name"] == "Walk-In" for p in registered.values())
    rows = log_rows(book)
    for e in (sent[0], sent[1], sent[3]):
        assert ("Action", f"register ({e.station})", f"Entry {e.id} from {e.station}") in rows
    assert not any(sent[2].id in message for _, _, message in rows)
    journal = Journal.load(book).entries
    assert len(journal) == entries_before + 3  # each entry its own, as the writer keeps them
    assert [(j.action, j.door, j.arguments["entry"]) for j in journal[-3:]] == [
        ("register", e.station, e.id) for e in (sent[0], sent[1], sent[3])
    ]
    backup = book.with_name(f"{book.stem}.bak1{book.suffix}")
    assert digest(backup) == before, "one save for the three"
    taken = digest(book)
    again = run("take-entries", book, "--yes")
    assert again.returncode == 0
    assert digest(book) == taken  # nothing is taken twice
    assert len(Journal.load(book).entries) == entries_before + 3


def test_take_entries_leaves_out_an_entry_whose_station_has_not_answered(book: Path) -> None:
    lapsed = LAPSED
    queue = EntryQueue(stations_folder(book))
    asking = Entry(new_id(), "Desk 1", "register", {"aga": str(lapsed.aga_id)})
    queue.submit(asking)
    done = run("take-entries", book, "--yes")
    assert done.returncode == 0, done.stderr
    assert "not taken, Desk 1 has to answer first" in done.stdout and "lapsed" in done.stdout
    assert lapsed.aga_id not in players(book)


def test_the_outcome_file_is_plain_json_lines(tmp_path: Path) -> None:
    queue = EntryQueue(tmp_path / "q.stations")
    entry = Entry(new_id(), "Desk 1", "drop", {"player": "1"})
    queue.submit(entry)
    queue.record(entry.id, WRITTEN, "Dropped X")
    lines = (tmp_path / "q.stations" / "outcomes.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["state"] == WRITTEN


KILLED_BETWEEN_JOURNAL_AND_SWAP = """
import os, sys
from pathlib import Path
import addin.workbook.saving as saving
from addin import store

book, entry, aga = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
keep = saving._snapshot


def killed(path):
    if Path(path).name == book.name:  # the journal has its entry; the new file waits
        os._exit(9)
    return keep(path)


saving._snapshot = killed
store.run("register", [{"aga": aga}], store.FileBook(book), store.Answering(True),
          warnings_accepted=True, signed=store.Signed("Desk 1", entry))
"""


def test_a_writer_killed_between_the_journal_and_the_swap_writes_the_entry_again(
    book: Path,
) -> None:
    import subprocess
    import sys

    member, entry = CURRENT[0], new_id()
    before = digest(book)
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_BETWEEN_JOURNAL_AND_SWAP, book, entry, str(member.aga_id)],
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        capture_output=True,
        text=True,
    )
    assert killed.returncode == 9, killed.stderr
    assert digest(book) == before, "the workbook was never replaced"
    assert Journal.load(book).entries[-1].arguments["entry"] == entry  # a note of a save
    again = signed_run(book, "register", {"aga": member.aga_id}, "Desk 1", entry)
    assert (again.status, again.already) == ("done", False)
    assert [m for _, _, m in log_rows(book)].count(f"Entry {entry} from Desk 1") == 1
    assert member.aga_id in players(book)
