"""The forced bye through the command line, on an odd field of real players (Frioul 2018's,
one withdrawn): never twice to one player, always from the lowest score group that can
take it, and the Log says which rule chose it."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from addin.core.model import Tournament
from addin.core.ratings import parse_rating
from tests.helpers import DATA, log_messages, run, sheet_rows
from tests.opengotha import read_opengotha
from tests.test_pairing_cli import record_results
from tests.workbook_fixtures import write_workbook

ROUNDS = 4


def odd_field(tmp_path: Path) -> Path:
    t = read_opengotha(DATA / "opengotha" / "frioul-2018.xml")
    players = {
        k: replace(
            p, rating=parse_rating(p.rank), initial_score=None, band=None, bye_requests=frozenset()
        )
        for k, p in sorted(t.players.items())[:-1]
    }
    path = write_workbook(tmp_path / "odd.xlsx", Tournament(players=players), rounds=ROUNDS)
    assert run("bands", path, "--yes").returncode == 0  # accepts the proposed bar
    return path


def scores_before(path: Path, number: int) -> dict[object, float]:
    """McMahon scores before round ``number``, summed from the sheets (initial score,
    wins, forced byes)."""
    score = {r["AGA #"]: float(r["Initial score"]) for r in sheet_rows(path, "Players")}  # type: ignore[arg-type]
    for n in range(1, number):
        for r in sheet_rows(path, f"Round {n}"):
            if r.get("White AGA #"):
                winner = r["White AGA #"] if r["Result"] == "White wins" else r["Black AGA #"]
                score[winner] += 1
            if r.get("Bye AGA #") and r.get("Bye type") == "Forced":
                score[r["Bye AGA #"]] += 1
    return score


def test_the_bye_goes_to_the_lowest_group_never_twice_and_says_why(tmp_path: Path) -> None:
    path = odd_field(tmp_path)
    rng = random.Random(3)
    had: list[object] = []
    for number in range(1, ROUNDS + 1):
        result = run("pair", path, "--yes")
        assert result.returncode == 0, result.stderr
        score = scores_before(path, number)
        rows = sheet_rows(path, f"Round {number}")
        forced = [r["Bye AGA #"] for r in rows if r.get("Bye type") == "Forced"]
        assert len(forced) == 1
        taker = forced[0]
        assert taker not in had, "a second forced bye while others could take it"
        lowest = min(s for p, s in score.items() if p not in had)
        assert score[taker] == lowest, "the bye above the lowest score group"
        message = log_messages(path)[-1][2]
        assert "Forced bye:" in message and "the lowest score group" in message
        assert str(taker) in message
        had.append(taker)
        record_results(path, number, rng)
