"""The ribbon's History and Undo buttons on xlwings' real remote engine.

History lists the journal the command line keeps beside the workbook. The remote engine
cannot save, close or reopen the workbook's file, so Undo cannot act in its window: it
refuses and says how to take the last action back (save, close, ``undo`` on the file).
Both write nothing to the open workbook, its file or its journal. Undo inside the window
is tested through a live LibreOffice (tests/test_calc_journal.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from workbook_fixtures import simple_tournament, write_workbook

from addin.excel.entry import dispatch
from addin.excel.remote_json import book_json
from addin.journal.store import folder_of
from tests.helpers import digest, licensed_remote_engine, run


@pytest.fixture(scope="module", autouse=True)
def remote_engine() -> Iterator[None]:
    with licensed_remote_engine():
        yield


def open_remote(path: Path) -> Any:
    """The workbook in the remote engine, with its full name as Excel gives it."""
    import xlwings as xw

    snapshot = book_json(path)
    snapshot["book"]["name"] = str(path)
    return xw.Book(json=snapshot)


def alerts(remote: Any) -> list[str]:
    return [a["args"][0] for a in remote.json()["actions"] if a["func"] == "alert"]


def written(remote: Any) -> list[dict[str, Any]]:
    return [a for a in remote.json()["actions"] if a["func"] != "alert"]


def journaled(tmp_path: Path) -> tuple[Path, int, str]:
    """A tournament, one player dropped through the command line; the digest before."""
    t = simple_tournament(8, 1, seed=8)
    book = write_workbook(tmp_path / "club.xlsx", t, 3)
    first = digest(book)
    assert run("drop", book, "--player", min(t.players), "--yes").returncode == 0
    return book, min(t.players), first


def files(book: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in [book, *folder_of(book).rglob("*")] if p.is_file()}


def test_history_shows_the_journal_and_writes_nothing(tmp_path: Path) -> None:
    book, player, _ = journaled(tmp_path)
    before = files(book)
    remote = open_remote(book)
    outcome = dispatch("history", remote, {})
    assert outcome.status == "done"
    [shown] = alerts(remote)
    assert "1  " in shown and f"drop player={player}" in shown and "CLI" in shown
    assert "undo would take back entry 1" in shown
    assert not written(remote) and files(book) == before


def test_undo_on_the_remote_engine_says_how_and_the_way_it_says_works(tmp_path: Path) -> None:
    book, _player, original = journaled(tmp_path)
    first = folder_of(book) / "journal.jsonl"
    before = files(book)
    remote = open_remote(book)
    outcome = dispatch("undo", remote, {})
    assert outcome.status == "error"
    [shown] = alerts(remote)
    assert "remote engine" in shown
    command = next(line for line in shown.splitlines() if "python -m addin undo" in line)
    assert not written(remote) and files(book) == before and first.exists()
    path = command.split('"')[1]
    assert Path(path) == book
    assert run("undo", path).returncode == 0  # what the dialog says to run takes it back
    assert digest(book) == original


def test_a_workbook_without_a_journal_says_so(tmp_path: Path) -> None:
    t = simple_tournament(4, 0, seed=4)
    book = write_workbook(tmp_path / "fresh.xlsx", t, 3)
    remote = open_remote(book)
    assert dispatch("history", remote, {}).status == "done"
    [shown] = alerts(remote)
    assert "no journal yet" in shown
    remote = open_remote(book)
    assert dispatch("undo", remote, {}).status == "error"
    assert not written(remote)
    assert not folder_of(book).exists()
