"""The handicap schemes and EGF-style avoidance, set in the Tournament sheet of a workbook of
real players (the 58 of the Frioul 2018 tournament, with their ranks and clubs) and
paired through the command line."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from addin.core.model import Tournament
from addin.core.ratings import parse_rating, rating_gap
from tests.helpers import DATA, digest, run, sheet_rows
from tests.opengotha import read_opengotha
from tests.test_bands_cli import set_setting
from tests.workbook_fixtures import write_workbook

FRIOUL = DATA / "opengotha" / "frioul-2018.xml"


def real_players() -> Tournament:
    """Frioul's players as registered: rank (its midpoint the entry rating) and club, no
    score yet (bands gives it)."""
    t = read_opengotha(FRIOUL)
    players = {
        k: replace(
            p, rating=parse_rating(p.rank), initial_score=None, band=None, bye_requests=frozenset()
        )
        for k, p in t.players.items()
    }
    return Tournament(players=players)


def workbook(tmp_path: Path, name: str, **settings: object) -> Path:
    path = write_workbook(tmp_path / f"{name}.xlsx", real_players(), rounds=4)
    set_setting(path, "Bar (rank or rating)", "1d")
    for label, value in settings.items():
        set_setting(path, label, value)
    return path


def paired(path: Path) -> list[dict[str, object]]:
    assert run("bands", path).returncode == 0
    result = run("pair", path, "--yes")
    assert result.returncode == 0, result.stderr
    return [r for r in sheet_rows(path, "Round 1") if r.get("White AGA #")]


def initial_scores(path: Path) -> dict[object, float]:
    rows = sheet_rows(path, "Players")
    return {r["AGA #"]: float(r["Initial score"]) for r in rows}  # type: ignore[arg-type]


def full_stones(g: dict[str, object]) -> int:
    """The interface document's full handicap: the rating gap rounded half up."""
    gap = abs(rating_gap(float(g["W rating"]), float(g["B rating"])))  # type: ignore[arg-type]
    return math.floor(round(gap, 6) + 0.5)


def test_handicap_from_the_mcmahon_score_difference(tmp_path: Path) -> None:
    scheme = {"Handicap from": "McMahon score difference", "Handicap": "Full"}
    path = workbook(tmp_path, "mms", **scheme)
    assert "Handicap scheme: McMahon score difference in full" in run("bands", path).stdout
    games = paired(path)
    score = initial_scores(path)
    handicap_games = [g for g in games if g["Handicap"]]
    assert handicap_games, "the odd bands make cross-band games"
    for g in games:
        white, black = score[g["White AGA #"]], score[g["Black AGA #"]]
        assert g["Handicap"] == min(9, round(abs(white - black)))
        if g["Handicap"]:
            assert white > black, g
            assert "McMahon score difference in full" in str(g["Notes"])


def test_rating_basis_is_the_default_and_notes_say_so(tmp_path: Path) -> None:
    games = paired(workbook(tmp_path, "rating", **{"Handicap": "Full"}))
    for g in games:
        assert g["Handicap"] == min(9, full_stones(g))
    assert any("rating difference in full" in str(g["Notes"]) for g in games if g["Handicap"])


def test_minus_3_takes_three_stones_off(tmp_path: Path) -> None:
    games = paired(workbook(tmp_path, "minus3", **{"Handicap": "Minus 3"}))
    assert any(full_stones(g) > 3 for g in games)
    for g in games:
        assert g["Handicap"] == max(0, min(9, full_stones(g)) - 3) or (
            full_stones(g) > 12 and g["Handicap"] == 9
        )


def test_the_ceiling_caps_the_stones(tmp_path: Path) -> None:
    games = paired(workbook(tmp_path, "ceiling", **{"Handicap": "Full", "Handicap ceiling": 1}))
    assert any(full_stones(g) >= 2 for g in games), "some game would give more than a stone"
    assert all(g["Handicap"] == min(1, full_stones(g)) for g in games)


def test_games_between_players_above_the_even_rank_are_even(tmp_path: Path) -> None:
    path = workbook(tmp_path, "even", **{"Handicap": "Full", "Handicap counts ranks up to": "1k"})
    games = paired(path)
    above = [g for g in games if min(g["W rating"], g["B rating"]) > -2]  # type: ignore[type-var]
    assert any(full_stones(g) >= 1 for g in above), "without the rank these would be handicap"
    assert all(g["Handicap"] == 0 for g in above)


def test_a_ceiling_outside_0_to_9_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    path = workbook(tmp_path, "bad", **{"Handicap ceiling": 12})
    before = digest(path)
    result = run("pair", path)
    assert result.returncode == 1
    assert "Tournament!B36 (Handicap ceiling): 12 is not a number from 0 to 9" in result.stderr
    assert digest(path) == before


def same_club(path: Path, games: list[dict[str, object]]) -> int:
    club = {r["AGA #"]: r["Chapter"] for r in sheet_rows(path, "Players")}
    return sum(
        bool(club[g["White AGA #"]]) and club[g["White AGA #"]] == club[g["Black AGA #"]]
        for g in games
    )


def squared_difference(path: Path, games: list[dict[str, object]]) -> float:
    score = initial_scores(path)
    return sum((score[g["White AGA #"]] - score[g["Black AGA #"]]) ** 2 for g in games)


@pytest.mark.parametrize("points", [1, 2])
def test_egf_style_avoidance_may_cost_mcmahon_points(tmp_path: Path, points: int) -> None:
    aga = workbook(tmp_path, "aga", **{"Avoid same club": "Yes"})
    egf = workbook(
        tmp_path, "egf", **{"Avoid same club": "Yes", "Avoidance may cost (points)": points}
    )
    aga_games, egf_games = paired(aga), paired(egf)
    assert same_club(egf, egf_games) < same_club(aga, aga_games)
    assert squared_difference(egf, egf_games) >= squared_difference(aga, aga_games)
    score = initial_scores(egf)
    assert all(abs(score[g["White AGA #"]] - score[g["Black AGA #"]]) <= points for g in egf_games)
