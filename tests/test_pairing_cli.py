"""Pairing through the command line on a real workbook: deterministic, honest about conflicts."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import openpyxl
import pytest

from addin.core.model import Player, Tournament
from tests.helpers import digest, log_messages, run, sheet_rows
from tests.workbook_fixtures import write_workbook


@pytest.fixture
def book(tmp_path: Path) -> Path:
    rng = random.Random(11)
    t = Tournament()
    for i in range(24):
        rating = round(rng.uniform(-15, 5), 1)
        rating = rating if abs(rating) >= 1 else 1.5
        t.players[30000 + i] = Player(30000 + i, f"Family{i:02d}", "Pat", rating=rating)
    path = write_workbook(tmp_path / "t.xlsx", t, rounds=4)
    assert run("bands", path, "--yes").returncode == 0  # accepts the bar it proposes
    return path


def games(path: Path, number: int) -> list[dict[str, object]]:
    return [r for r in sheet_rows(path, f"Round {number}") if r.get("White AGA #")]


def record_results(path: Path, number: int, rng: random.Random) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb[f"Round {number}"]
    column = [c.value for c in ws[1]].index("Result") + 1
    for r in range(2, ws.max_row + 1):
        if ws.cell(row=r, column=2).value:
            ws.cell(row=r, column=column, value=rng.choice(["White wins", "Black wins"]))
    wb.save(path)


def add_request(
    path: Path, kind: str, first: object, second: object, rnd: int | None = None
) -> str:
    wb = openpyxl.load_workbook(path)
    ws = wb["Requests"]
    row = ws.max_row + 1 if ws.cell(row=2, column=2).value else 2
    for column, value in enumerate((rnd, kind, first, second), start=1):
        ws.cell(row=row, column=column, value=value)
    wb.save(path)
    return f"C{row}"


def test_a_round_is_paired_with_every_player_once_and_logged(book: Path) -> None:
    result = run("pair", book)
    assert result.returncode == 0, result.stderr
    rows = games(book, 1)
    seen = [r["White AGA #"] for r in rows] + [r["Black AGA #"] for r in rows]
    assert len(seen) == len(set(seen)) == 24
    assert [r["Board"] for r in rows] == list(range(1, 13))
    assert "sum of squared McMahon differences" in log_messages(book)[-1][2]


def test_the_same_workbook_gives_an_identical_round_sheet(book: Path, tmp_path: Path) -> None:
    twin = Path(shutil.copy(book, tmp_path / "twin.xlsx"))
    assert run("pair", book).returncode == 0
    assert run("pair", twin).returncode == 0

    def pairing(path: Path) -> list[dict[str, object]]:
        """The games without the result codes, which are drawn at random: a code a player
        could work out would let them report another board's result."""
        return [{k: v for k, v in g.items() if k != "Result code"} for g in games(path, 1)]

    assert pairing(book) == pairing(twin)
    assert games(book, 1) != games(twin, 1), "the codes differ"


def test_four_rounds_never_repeat_a_game(book: Path) -> None:
    rng = random.Random(5)
    met: set[frozenset[object]] = set()
    for number in range(1, 5):
        result = run("pair", book, "--yes")  # floats and colours may be relaxed, never rematches
        assert result.returncode == 0, result.stderr
        for g in games(book, number):
            pair = frozenset((g["White AGA #"], g["Black AGA #"]))
            assert pair not in met
            met.add(pair)
        record_results(book, number, rng)
    assert run("standings", book).returncode == 0


def test_pairing_before_all_results_are_in_is_an_active_warning(book: Path) -> None:
    assert run("pair", book).returncode == 0
    refused = run("pair", book)
    assert refused.returncode == 3
    assert "without a result" in refused.stderr
    assert run("pair", book, "--yes").returncode == 0
    assert games(book, 2)


def test_forcing_players_who_already_met_is_an_active_warning(book: Path) -> None:
    assert run("pair", book).returncode == 0
    record_results(book, 1, random.Random(1))
    first = games(book, 1)[0]
    add_request(book, "Force", first["White AGA #"], first["Black AGA #"], 2)
    refused = run("pair", book)
    assert refused.returncode == 3
    assert "rematch" in refused.stderr.lower() or "already" in refused.stderr.lower()
    assert run("pair", book, "--yes").returncode == 0
    pairs = {frozenset((g["White AGA #"], g["Black AGA #"])) for g in games(book, 2)}
    assert frozenset((first["White AGA #"], first["Black AGA #"])) in pairs


def test_prohibitions_that_make_pairing_impossible_are_named_and_nothing_written(
    tmp_path: Path,
) -> None:
    t = Tournament()
    for i in range(2):
        t.players[100 + i] = Player(100 + i, f"Only{i}", "Pat", rating=2.5)
    path = write_workbook(tmp_path / "two.xlsx", t, rounds=2)
    assert run("bands", path).returncode == 0
    add_request(path, "Prohibit", 100, 101)
    before = digest(path)
    result = run("pair", path)
    assert result.returncode == 1
    assert "100" in result.stderr and "101" in result.stderr
    assert digest(path) == before


def test_an_unknown_aga_number_in_requests_names_the_cell(book: Path) -> None:
    cell = add_request(book, "Prohibit", 30000, 77777)
    before = digest(book)
    result = run("pair", book)
    assert result.returncode == 1
    assert f"Requests!D{cell[1:]}" in result.stderr and "77777" in result.stderr
    assert digest(book) == before


def test_unpairing_a_round_with_results_is_an_active_warning(book: Path) -> None:
    assert run("pair", book).returncode == 0
    record_results(book, 1, random.Random(2))
    refused = run("unpair", book, "--round", "1")
    assert refused.returncode == 3
    assert "result" in refused.stderr
    assert run("unpair", book, "--round", "1", "--yes").returncode == 0
    assert "Round 1" not in openpyxl.load_workbook(book).sheetnames
