"""The bar ``bands`` proposes when the TD typed none (issue 30).

The AGA protocol's bar takes "all players who have a realistic chance of winning", and a
new tournament plays the top band even: a proposed bar never makes a top band in which a
player meets someone many stones weaker at even, and never a rank the AGA formats cannot
carry. A bar the TD types is used exactly.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from addin.core.bands import HIGHEST_BAR, TOP_BAND_RANKS, BandError, propose_bar
from addin.core.model import Settings
from addin.core.ratings import rank_floor
from addin.formats.eggplant import block
from tests.factories import make_tournament
from tests.helpers import run, sheet_rows

CLUB = [
    "24k", "23k", "21k", "20k", "18k", "17k", "15k", "14k", "12k", "11k",
    "9k", "8k", "6k", "5k", "3k", "2k", "1d", "2d", "4d", "5d",
]  # fmt: skip
"""A 20-player club event, 24k to 5d, about one player every rank and a half."""


def step(rank: str) -> int:
    """Ranks as steps, 1k next to 1d: 5d -> 5, 1d -> 1, 1k -> 0, 24k -> -23."""
    number = int(rank[:-1])
    return number if rank.endswith("d") else 1 - number


def club_event(tmp_path: Path) -> tuple[Path, dict[int, str]]:
    """The club field registered as a TD does, every setting as ``new`` leaves it."""
    path = tmp_path / "club.xlsx"
    assert run("new", path).returncode == 0
    for i, rank in enumerate(CLUB):
        done = run("register", path, "--name", f"Player{i:02d}, Pat", "--rank", rank, "--yes")
        assert done.returncode == 0, done.stderr
    ranks = {int(p["AGA #"]): str(p["Rank or rating"]) for p in sheet_rows(path, "Players")}  # type: ignore[call-overload]
    return path, ranks


def set_setting(path: Path, label: str, value: object) -> None:
    wb = openpyxl.load_workbook(path)
    for row in wb["Tournament"].iter_rows(min_row=2):
        if row[0].value == label:
            row[1].value = value
            wb.save(path)
            return
    raise KeyError(label)


def round_one(path: Path) -> list[dict[str, object]]:
    return [g for g in sheet_rows(path, "Round 1") if g.get("White AGA #") is not None]


def test_the_club_field_gets_no_even_game_between_players_five_ranks_apart(
    tmp_path: Path,
) -> None:
    path, ranks = club_event(tmp_path)
    asked = run("bands", path)
    assert asked.returncode == 3
    assert "proposes a bar of" in asked.stderr and "because" in asked.stderr
    assert run("bands", path, "--yes").returncode == 0
    bar = {r["Setting"]: r["Value"] for r in sheet_rows(path, "Tournament")}["Bar (rank or rating)"]
    assert step(str(bar)) > step(max(CLUB, key=step)) - TOP_BAND_RANKS
    paired = run("pair", path, "--yes")
    assert paired.returncode == 0, paired.stderr
    games = round_one(path)
    assert len(games) == len(CLUB) // 2
    for g in games:
        white, black = ranks[int(g["White AGA #"])], ranks[int(g["Black AGA #"])]  # type: ignore[call-overload]
        if not g["Handicap"]:
            assert abs(step(white) - step(black)) < 5, (white, black, g)


def test_a_bar_the_td_types_is_used_exactly_top_band_games_even(tmp_path: Path) -> None:
    path, ranks = club_event(tmp_path)
    set_setting(path, "Bar (rank or rating)", "8k")
    built = run("bands", path, "--yes")
    assert built.returncode == 0, built.stderr
    assert "proposes" not in built.stderr
    top = {int(p["AGA #"]) for p in sheet_rows(path, "Players") if p["Band"] == 1}  # type: ignore[call-overload]
    assert top == {pid for pid, rank in ranks.items() if step(rank) >= step("8k")}
    assert run("pair", path, "--yes").returncode == 0
    in_top = [g for g in round_one(path) if {g["White AGA #"], g["Black AGA #"]} & top]
    assert in_top and all(not g["Handicap"] for g in in_top), "the TD chose: all even"


def test_the_proposal_keeps_the_top_band_within_three_ranks_and_the_table() -> None:
    ratings = [5.5, 5.2, 4.5, 4.1, 3.6, 3.2, 2.5, 2.2, 1.5, -1.5, -2.5, -3.5]
    proposal = propose_bar(ratings, 5)  # the BGA table allows 12 for 5 rounds
    assert proposal.rank == "3d" and proposal.population == 6
    assert "realistic chance of winning" in proposal.why
    crowded = propose_bar([5.5] * 4 + [4.5] * 6 + [3.5] * 6, 3)  # 3 rounds: at most 8
    assert crowded.rank == "5d" and crowded.population == 4  # the rank is never split


def test_a_professional_field_gets_a_bar_the_aga_formats_carry() -> None:
    ratings = [11.0, 10.6, 10.2, 10.1, 9.5, 9.2, 8.5, 8.1, 7.5]
    proposal = propose_bar(ratings, 3)
    assert rank_floor(proposal.rank) <= rank_floor(HIGHEST_BAR)
    assert proposal.rank.endswith("d")
    t = make_tournament(4)
    t.settings = replace(Settings(), bar=rank_floor("1p"))
    assert dict(block(t))["mmbar"] == "9D"


def test_no_table_row_no_proposal() -> None:
    with pytest.raises(BandError, match="not 2"):
        propose_bar([1.5, 2.5], 2)
