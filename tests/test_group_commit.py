"""The stations' writer takes every entry waiting as one group: each entry runs through its
own action on what the earlier ones wrote (its own Log lines, its own journal entry, its own
answer to its station), and one save carries them all. What a group writes is what the
same entries write one at a time; each entry is undone alone; and a writer killed at any
moment of a group, started again, writes each entry exactly once."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from addin import store
from addin.journal.store import Journal
from addin.station import writer
from addin.station.entries import (
    ASKS,
    REFUSED,
    WRITTEN,
    Entry,
    EntryQueue,
    new_id,
    stations_folder,
)
from addin.store import entries_in
from tests.helpers import digest, run
from tests.station_support import copied, event_in_play, rated_members

PLAYING = rated_members(8, current=True)
WAITING = rated_members(4, skip=8, current=True)
LAPSED = next(m for m in rated_members(400) if m.expiry is not None and m.expiry.year < 2020)
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return event_in_play(tmp_path_factory.mktemp("event"), PLAYING, WAITING)


@pytest.fixture(autouse=True)
def unhurried(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each group takes every entry waiting, however busy the machine running the tests
    (the time a group may take is no part of what these tests say)."""
    monkeypatch.setattr(store, "GROUP_SECONDS", 1e9)
    monkeypatch.setattr(store, "GROUP_WALL_SECONDS", 1e9)


def fresh(event: Path, folder: Path) -> Path:
    return copied(event, folder)


def sheet(book: Path, name: str) -> list[list[object]]:
    return CalamineWorkbook.from_path(str(book)).get_sheet_by_name(name).to_python()


def first_boards(book: Path) -> list[int]:
    rows = sheet(book, "Round 1")
    board = rows[0].index("Board")
    return [int(float(str(r[board]))) for r in rows[1:] if r[board] not in ("", None)][:2]


def entries_for(book: Path) -> list[Entry]:
    """Check-ins, a second desk's check-in of a player already in (told it stands), a
    lapsed member's registration (a question for its desk), two results for one board (the
    second told the first stands), and last two check-ins, each its own desk's."""
    one, two = first_boards(book)
    return [
        Entry(new_id(), "Desk 1", "checkin", {"player": str(WAITING[0].aga_id)}),
        Entry(new_id(), "Desk 2", "checkin", {"player": str(WAITING[0].aga_id)}),
        Entry(new_id(), "Desk 3", "register", {"aga": str(LAPSED.aga_id)}),
        Entry(
            new_id(),
            "Results",
            "result",
            {"round": "1", "board": str(one), "result": "W+", "if_blank": "yes"},
        ),
        Entry(
            new_id(),
            "Results 2",
            "result",
            {"round": "1", "board": str(one), "result": "B+", "if_blank": "yes"},
        ),
        Entry(new_id(), "Results", "result", {"round": "1", "board": str(two), "result": "B+"}),
        Entry(new_id(), "Desk 1", "checkin", {"player": str(WAITING[1].aga_id)}),
        Entry(new_id(), "Desk 2", "checkin", {"player": str(WAITING[2].aga_id)}),
    ]


def submitted(book: Path, entries: list[Entry]) -> EntryQueue:
    queue = EntryQueue(stations_folder(book))
    for entry in entries:
        queue.submit(entry)
    return queue


def without_times(rows: list[list[object]]) -> list[list[object]]:
    """The Log's lines without their timestamps (the two runs write at other seconds)."""
    return [row[1:] for row in rows]


def signed_ids(book: Path) -> list[str]:
    """Every entry id the Log names, as often as it names it."""
    found: list[str] = []
    for row in sheet(book, "Log")[1:]:
        found += sorted(entries_in([str(row[3])]))
    return found


def status_of(book: Path, aga: int) -> str:
    rows = sheet(book, "Players")
    head = rows[0]
    aga_at, status_at = head.index("AGA #"), head.index("Status")
    return next(str(r[status_at]) for r in rows[1:] if r[aga_at] == aga)


def test_a_group_writes_what_its_entries_write_one_at_a_time_in_one_save(
    event: Path, tmp_path: Path
) -> None:
    grouped, alone = fresh(event, tmp_path / "group"), fresh(event, tmp_path / "alone")
    sent = entries_for(grouped)
    queue = submitted(grouped, sent[:5])
    the_writer = writer.Writer(grouped)
    the_writer.step()
    after_first = digest(grouped)
    submitted(grouped, sent[5:])
    the_writer.step()  # the second group goes on from the workbook the first left in memory
    told_grouped = [queue.outcome(e.id) for e in sent]

    told_alone = [writer.write(alone, e) for e in sent]
    assert [(o.state, o.message, o.question) for o in told_grouped] == [
        (t.state, t.message, t.question) for t in told_alone if t is not None
    ]
    states = [o.state for o in told_grouped]
    assert states == [WRITTEN, REFUSED, ASKS, WRITTEN, REFUSED, WRITTEN, WRITTEN, WRITTEN]
    assert "already checked in" in told_grouped[1].message
    assert "lapsed" in told_grouped[2].question and "stands" in told_grouped[4].message

    for name in ("Players", "Round 1", "Tournament", "Bands"):
        assert sheet(grouped, name) == sheet(alone, name), name
    assert without_times(sheet(grouped, "Log")) == without_times(sheet(alone, "Log"))

    backup = grouped.with_name(f"{grouped.stem}.bak1{grouped.suffix}")
    assert digest(backup) == after_first, "one save a group: the file before it is the backup"
    written = [e for e, o in zip(sent, told_grouped, strict=True) if o.state == WRITTEN]
    journal = Journal.load(grouped).entries[-len(written) :]
    assert [j.arguments["entry"] for j in journal] == [e.id for e in written]
    assert [j.door for j in journal] == [e.station for e in written]
    assert all(b.before == a.after for a, b in itertools.pairwise(journal))


def test_each_entry_of_a_group_is_undone_alone(event: Path, tmp_path: Path) -> None:
    book = fresh(event, tmp_path / "hall")
    sent = entries_for(book)
    submitted(book, sent)
    writer.Writer(book).step()
    last, second_last = sent[-1], sent[-2]
    assert status_of(book, WAITING[2].aga_id) == status_of(book, WAITING[1].aga_id)

    done = run("undo", book, "--yes")
    assert done.returncode == 0, done.stderr
    ids = signed_ids(book)
    assert last.id not in ids and second_last.id in ids
    assert status_of(book, WAITING[2].aga_id) == "Not arrived"
    assert status_of(book, WAITING[1].aga_id) != "Not arrived"

    assert run("undo", book, "--yes").returncode == 0
    assert status_of(book, WAITING[1].aga_id) == "Not arrived"
    assert sent[0].id in signed_ids(book), "the entries before stay"


KILLED = """
import os, sys
from pathlib import Path

book, where = Path(sys.argv[1]), sys.argv[2]
import addin.store

addin.store.GROUP_SECONDS = addin.store.GROUP_WALL_SECONDS = 1e9
if where == "swap":  # the journal holds the group's entries; the new file waits
    import addin.workbook.saving as saving
    keep = saving._snapshot

    def killed(path):
        if Path(path).name == book.name:
            os._exit(9)
        return keep(path)

    saving._snapshot = killed
elif where == "told":  # the workbook holds the group; no station was told yet
    from addin.station.entries import EntryQueue

    def killed_telling(self, *args, **kwargs):
        os._exit(9)

    EntryQueue.record = killed_telling
elif where == "running":  # the third entry's state is being kept; nothing is saved
    from addin.workbook.group_file import GroupFile

    package = GroupFile.package
    calls = []

    def killed_package(self):
        calls.append(1)
        if len(calls) == 3:
            os._exit(9)
        return package(self)

    GroupFile.package = killed_package
from addin.station.writer import Writer

Writer(book).step()
"""


@pytest.mark.parametrize("where", ["running", "swap", "told"])
def test_a_writer_killed_during_a_group_loses_and_doubles_nothing(
    event: Path, tmp_path: Path, where: str
) -> None:
    book = fresh(event, tmp_path / "hall")
    sent = entries_for(book)
    queue = submitted(book, sent)
    before = digest(book)
    killed = subprocess.run(
        [sys.executable, "-c", KILLED, str(book), where],
        env={"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    assert killed.returncode == 9, killed.stderr
    if where == "told":
        assert digest(book) != before, "the group was saved before the kill"
    else:
        assert digest(book) == before, "the workbook was never replaced"

    writer.Writer(book).step()  # the writer started again
    told = {e.id: queue.outcome(e.id).state for e in sent}
    expected = [WRITTEN, REFUSED, ASKS, WRITTEN, REFUSED, WRITTEN, WRITTEN, WRITTEN]
    assert [told[e.id] for e in sent] == expected
    ids = signed_ids(book)
    for entry, state in zip(sent, expected, strict=True):
        assert ids.count(entry.id) == (1 if state == WRITTEN else 0), (entry, state)
    journaled = [j.arguments.get("entry") for j in Journal.load(book).entries]
    if where == "told":  # nothing ran again: each entry journaled once
        written = [e.id for e, s in zip(sent, expected, strict=True) if s == WRITTEN]
        assert [j for j in journaled if j in written] == written
