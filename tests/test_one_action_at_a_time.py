"""One action at a time per open workbook, in every window door: a second click while one
runs says so and does nothing. On macOS xlwings starts a Python for each click, so the
guard is a lock named by the open workbook's full name, held across processes."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from workbook_fixtures import simple_tournament, write_workbook

from addin.excel.entry import dispatch
from addin.excel.remote_json import book_json
from tests.helpers import digest, licensed_remote_engine

ROOT = Path(__file__).resolve().parents[1]


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


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return write_workbook(tmp_path / "club.xlsx", simple_tournament(8, 1, seed=8), 3)


@pytest.fixture
def another_click(book: Path) -> Iterator[None]:
    """A first action, running in another Python (as a Mac runs each click), holding the
    workbook's turn until the test ends."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\nfrom addin.workbook.saving import try_turn\n"
            f"with try_turn({str(book)!r}) as mine:\n"
            "    print(mine, flush=True)\n"
            "    sys.stdin.read()\n",
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline().strip() == "True"
    try:
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


def alerts(remote: Any) -> list[str]:
    return [a["args"][0] for a in remote.json()["actions"] if a["func"] == "alert"]


def writes(remote: Any) -> list[dict[str, Any]]:
    return [a for a in remote.json()["actions"] if a["func"] != "alert"]


def test_a_second_click_while_an_action_runs_does_nothing_and_says_so(
    book: Path, another_click: None
) -> None:
    before = digest(book)
    remote = open_remote(book)
    outcome = dispatch("drop", remote, {"player": min(simple_tournament(8, 1, seed=8).players)})
    assert outcome.status == "busy"
    assert "already running on club.xlsx" in alerts(remote)[-1]
    assert "nothing was done" in alerts(remote)[-1]
    assert writes(remote) == [] and digest(book) == before


def test_once_the_first_action_is_done_the_next_click_runs(book: Path) -> None:
    remote = open_remote(book)
    start = time.monotonic()
    outcome = dispatch("check", remote, {})
    assert outcome.status == "done", outcome.messages
    assert time.monotonic() - start < 60
