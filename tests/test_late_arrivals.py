"""Late arrivals join the current bands at once, and the TD is told which (a message and a
Log line, never a question: the rule decides); no bands, no McMahon pairing.

Real workbooks through the real command line; rows typed with openpyxl.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from workbook_fixtures import write_workbook

from addin.core.model import Player, Settings, Tournament
from tests.helpers import digest, log_messages, run, sheet_rows
from tests.typing_helpers import players, type_rows

RATINGS = [5.5, 5.2, 4.8, 4.5, 2.5, 2.2, 1.8, 1.5] + [-3.1 - i / 4 for i in range(8)]


def field(tmp_path: Path, *, bar: float | None = 4.0) -> Path:
    t = Tournament(settings=Settings(bar=bar))
    for pid, rating in enumerate(RATINGS, start=301):
        t.players[pid] = Player(pid, f"Family{pid}", "Pat", rating=round(rating, 2))
    return write_workbook(tmp_path / "late.xlsx", t, rounds=4)


@pytest.fixture
def banded(tmp_path: Path) -> Path:
    path = field(tmp_path)
    assert run("bands", path).returncode == 0
    return path


def bands(path: Path) -> dict[int, dict[str, object]]:
    return {int(r["Band"]): r for r in sheet_rows(path, "Bands")}


def test_a_player_registered_after_the_bands_gets_band_and_score_at_once_and_is_told(
    banded: Path,
) -> None:
    done = run("register", banded, "--name", "Late, Lou", "--rank", "6k")
    assert done.returncode == 0, done.stderr  # no question: nothing for a desk to judge
    (late,) = [r for r in players(banded).values() if r["Family name"] == "Late"]
    lowest = max(bands(banded))
    assert late["Band"] == lowest
    assert late["Initial score"] == bands(banded)[lowest]["Initial score"]
    told = f"registered after the bands were made: placed in band {lowest}"
    assert told in done.stdout and "Late, Lou" in done.stdout
    notes = [m for level, _, m in log_messages(banded) if level == "Action"]
    assert any(told in m and "Late, Lou" in m for m in notes)
    assert not [m for level, _, m in log_messages(banded) if level == "Warning"]


def test_a_late_arrival_typed_into_players_is_placed_and_told_by_check_and_pair(
    banded: Path,
) -> None:
    (row,) = type_rows(banded, [{"AGA #": 399, "Family name": "Typed", "Rank or rating": "5d"}])
    told = f"Players row {row}) registered after the bands were made: placed in band 1"
    checked = run("check", banded)
    assert f"{told}" in checked.stdout and "(by the next action)" in checked.stdout
    paired = run("pair", banded)
    assert paired.returncode == 0, paired.stderr
    assert told in paired.stdout
    typed = players(banded)[399]
    assert typed["Band"] == 1 and typed["Initial score"] == bands(banded)[1]["Initial score"]
    games = sheet_rows(banded, "Round 1")
    assert any(399 in (g["White AGA #"], g["Black AGA #"]) for g in games)
    assert any(told in m for level, _, m in log_messages(banded) if level == "Action")


def test_pair_without_bands_stops_and_says_to_run_bands(tmp_path: Path) -> None:
    path = field(tmp_path)
    before = digest(path)
    result = run("pair", path, "--yes")
    assert result.returncode == 1 and "run bands first" in result.stderr
    assert digest(path) == before
