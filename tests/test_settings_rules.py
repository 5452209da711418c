"""Settings typed into the Tournament sheet meet the AGA rules; a new event's defaults are an
ordinary AGA event."""

from __future__ import annotations

import random
from pathlib import Path

from workbook_fixtures import write_workbook

from addin.core.bands import propose_bar
from addin.core.model import Player, Settings, Tournament
from tests.helpers import digest, run, sheet_rows
from tests.typing_helpers import set_setting


def small_event(tmp_path: Path, settings: Settings | None = None) -> tuple[Path, Tournament]:
    rng = random.Random(5)
    t = Tournament(settings=settings or Settings())
    for pid in range(401, 425):
        rating = round(rng.uniform(-20, 6), 1)
        t.players[pid] = Player(
            pid, f"Family{pid}", "Pat", rating=rating if abs(rating) >= 1 else 2.0
        )
    return write_workbook(tmp_path / "event.xlsx", t, rounds=4), t


def test_a_tiebreak_on_raw_wins_is_refused_for_the_official_order(tmp_path: Path) -> None:
    path, _ = small_event(tmp_path)
    cell = set_setting(path, "Tiebreak order", "Wins, SOS")
    checked = run("check", path)
    assert checked.returncode == 1
    assert f"Tournament!{cell} (Tiebreak order)" in checked.stdout and "raw wins" in checked.stdout
    before = digest(path)
    refused = run("standings", path, "--yes")
    assert refused.returncode == 1 and "raw wins" in refused.stderr
    assert digest(path) == before
    set_setting(path, "Tiebreak order", "CUSP, SOS")
    assert "'CUSP' breaks ties on raw wins" in run("check", path).stdout


def test_a_raw_wins_column_in_parentheses_is_an_extra_labelled_column(tmp_path: Path) -> None:
    path, _ = small_event(tmp_path)
    set_setting(path, "Tiebreak order", "SOS, SODOS, (CUSP)")
    assert run("check", path).returncode == 0
    assert run("bands", path, "--yes").returncode == 0
    assert run("pair", path, "--yes").returncode == 0
    done = run("standings", path, "--yes")
    assert done.returncode == 0, done.stderr
    header = list(sheet_rows(path, "Standings")[0])
    assert "CUSP (not a tiebreak)" in header
    assert header.index("CUSP (not a tiebreak)") > header.index("SODOS")


def test_a_new_tournament_plays_the_top_band_even(tmp_path: Path) -> None:
    path = tmp_path / "new.xlsx"
    assert run("new", path).returncode == 0
    settings = {r["Setting"]: r["Value"] for r in sheet_rows(path, "Tournament")}
    assert settings["Top band games even"] == "Yes"


def test_bands_without_a_bar_proposes_one_from_the_field_and_asks(tmp_path: Path) -> None:
    path, t = small_event(tmp_path)
    expected = propose_bar([p.rating for p in t.players.values()], 4)
    before = digest(path)
    asked = run("bands", path)
    assert asked.returncode == 3 and f"proposes a bar of {expected.rank}" in asked.stderr
    assert digest(path) == before
    assert run("bands", path, "--yes").returncode == 0
    settings = {r["Setting"]: r["Value"] for r in sheet_rows(path, "Tournament")}
    assert settings["Bar (rank or rating)"] == expected.rank
    top = [r for r in sheet_rows(path, "Players") if r["Band"] == 1]
    assert len(top) == expected.population


def test_the_demo_has_no_big_handicaps_on_the_top_boards(tmp_path: Path) -> None:
    out = tmp_path / "demo.xlsx"
    result = run("demo", out, "--players", 40, "--rounds", 3)
    assert result.returncode == 0, result.stderr
    for number in (1, 2, 3):
        games = sheet_rows(out, f"Round {number}")
        top = sorted((g for g in games if g.get("Board")), key=lambda g: g["Board"])[:5]
        assert top and all(int(g["Handicap"] or 0) < 7 for g in top), top
