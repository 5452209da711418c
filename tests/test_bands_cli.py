"""Bands through the workbook: the TD's edits survive a rebuild; bad cells are named."""

from __future__ import annotations

import random
from pathlib import Path

import openpyxl
import pytest

from addin.core.model import Player, Tournament
from tests.helpers import digest, log_messages, run, sheet_rows
from tests.workbook_fixtures import write_workbook

# The protocol's sample: bands of 19, 17, 10, 11 and 24 players, one rank range each.
SAMPLE = [(19, 5.0, 7.9), (17, 3.0, 4.9), (10, 1.0, 2.9), (11, -2.9, -1.0), (24, -6.9, -3.0)]


@pytest.fixture
def book(tmp_path: Path) -> Path:
    rng = random.Random(7)
    t = Tournament()
    pid = 20000
    for count, low, high in SAMPLE:
        for _ in range(count):
            t.players[pid] = Player(
                pid, f"Player{pid}", "Pat", rating=round(rng.uniform(low, high), 2)
            )
            pid += 1
    path = write_workbook(tmp_path / "t.xlsx", t, rounds=6)
    set_setting(path, "Bar (rank or rating)", "5d")
    return path


def set_setting(path: Path, label: str, value: object) -> str:
    wb = openpyxl.load_workbook(path)
    ws = wb["Tournament"]
    for row in ws.iter_rows(min_row=2):
        if row[0].value == label:
            row[1].value = value
            wb.save(path)
            return row[1].coordinate
    raise KeyError(label)


def bands_of(path: Path) -> list[dict[str, object]]:
    return sheet_rows(path, "Bands")


def edit_bands(path: Path, edit) -> None:
    wb = openpyxl.load_workbook(path)
    edit(wb["Bands"], [c.value for c in wb["Bands"][1]], wb)
    wb.save(path)


def test_the_first_build_proposes_bands_with_separations_and_scores(book: Path) -> None:
    result = run("bands", book)
    assert result.returncode == 0, result.stderr
    rows = bands_of(book)
    assert rows[0]["Lowest rating"] == "5d" and rows[0]["Initial score"] == 0
    counts = [r["Players"] for r in rows]
    assert sum(counts) == sum(c for c, _, _ in SAMPLE)
    assert counts[0] == 19
    scores = [r["Initial score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    players = sheet_rows(book, "Players")
    assert all(p["Initial score"] is not None and p["Band"] is not None for p in players)
    assert log_messages(book)[-1][1] == "bands"


def test_a_merge_a_separation_override_and_a_moved_player_survive_a_rebuild(book: Path) -> None:
    assert run("bands", book).returncode == 0
    before = bands_of(book)

    def edit(ws, header, wb) -> None:
        ws.delete_rows(3)  # merge band 2 into band 3 below it
        ws.cell(row=3, column=header.index("Separation override") + 1, value=3)
        players = wb["Players"]
        ph = [c.value for c in players[1]]
        players.cell(row=2, column=ph.index("Band override") + 1, value=len(before) - 1)

    edit_bands(book, edit)
    assert run("bands", book, "--yes").returncode == 0
    after = bands_of(book)
    assert len(after) == len(before) - 1, "the merge is kept"
    assert after[1]["Separation override"] == 3, "the separation override is kept"
    assert after[1]["Initial score"] == after[0]["Initial score"] - 3
    assert after[1]["Players"] == before[1]["Players"] + before[2]["Players"]
    moved = sheet_rows(book, "Players")[0]
    # The player was moved to the second-lowest band; the merge above renumbers it.
    assert moved["Band override"] == len(after) - 1, "the moved player follows the renumbering"
    assert moved["Initial score"] == after[-2]["Initial score"]

    assert run("bands", book, "--yes").returncode == 0
    assert bands_of(book) == after, "a second rebuild changes nothing"


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("bar", "strong", "'strong' is not a rank or rating"),
        ("d", 0, "D"),
        ("separation", "x", "'x' is not a whole number"),
        ("band override", 42, "42"),
    ],
)
def test_bad_band_input_names_the_cell_and_writes_nothing(
    book: Path, where: str, value: object, message: str
) -> None:
    assert run("bands", book).returncode == 0
    if where == "bar":
        cell = set_setting(book, "Bar (rank or rating)", value)
    elif where == "d":
        cell = set_setting(book, "Band parameter D", value)
    else:
        wb = openpyxl.load_workbook(book)
        sheet = "Bands" if where == "separation" else "Players"
        ws = wb[sheet]
        header = [c.value for c in ws[1]]
        column = "Separation override" if where == "separation" else "Band override"
        target = ws.cell(row=3, column=header.index(column) + 1, value=value)
        cell = target.coordinate
        wb.save(book)
    before = digest(book)
    result = run("bands", book)
    assert result.returncode == 1
    assert message in result.stderr
    assert cell in result.stderr, result.stderr
    assert digest(book) == before
