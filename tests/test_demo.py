"""The main job: a whole tournament in one command, checked as a TD would check it."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

from addin.core.model import Game, Player, Round, Tournament
from addin.demo import total_error, win_probability
from addin.formats.aga_xml import validate_aga_xml
from tests.helpers import log_messages, run, sheet_rows
from tests.test_libreoffice import EVERY_SHEET_CSV


def test_the_demo_runs_a_tournament_and_writes_every_output(tmp_path: Path) -> None:
    book = tmp_path / "demo.xlsx"
    result = run("demo", book, "--players", "24", "--rounds", "3", "--seed", "2")
    assert result.returncode == 0, result.stderr
    assert "Pairing quality: total error" in result.stdout
    assert "Seconds per round" in result.stdout

    assert run("check", book).returncode == 0
    for suffix in ("-pairings.pdf", "-crosstable.html", "-cards.pdf", "-aga.txt"):
        assert (tmp_path / f"demo{suffix}").stat().st_size > 0
    assert validate_aga_xml((tmp_path / "demo-aga.xml").read_bytes()) == []

    players = sheet_rows(book, "Players")
    assert len(players) == 24 + 1, "the field plus the late arrival"
    assert any(p["Status"] == "Dropped" for p in players)
    assert any(str(p["AGA #"]).startswith("9") for p in players), "new members"
    actions = {action for _, action, _ in log_messages(book)}
    assert {
        "import-tdlista",
        "preregister",
        "bands",
        "pair",
        "standings",
        "register",
        "drop",
        "volunteer",
        "export-aga",
    } <= actions
    standings = sheet_rows(book, "Standings")
    assert len(standings) == len(players)

    soffice = shutil.which("soffice")
    if soffice:  # a real spreadsheet application opens the workbook and reads every sheet
        done = subprocess.run(
            [
                soffice,
                f"-env:UserInstallation=file://{tmp_path}/lo",
                "--headless",
                "--convert-to",
                EVERY_SHEET_CSV,
                "--outdir",
                str(tmp_path / "csv"),
                str(book),
            ],
            capture_output=True,
            timeout=300,
        )
        assert done.returncode == 0
        sheets = {p.stem.split("-", 1)[1] for p in (tmp_path / "csv").iterdir()}
        assert {"Players", "Round 3", "Standings", "Cross Table", "Log"} <= sheets


def test_the_win_probability_model_is_the_documented_logistic() -> None:
    assert win_probability(2.0, 2.0, 0) == 0.5
    assert math.isclose(win_probability(3.0, 2.0, 0), 1 / (1 + math.exp(-1)))
    assert math.isclose(win_probability(5.0, 2.0, 3), 1 / (1 + math.exp(-0.5)))


def test_total_error_is_vuorinens_formula() -> None:
    # Four players by true strength a < b < c < d (RS 0..3); one round: a-b and c-d.
    t = Tournament()
    for pid in (1, 2, 3, 4):
        t.players[pid] = Player(pid, f"P{pid}")
    t.rounds = [Round(1, (Game(1, 2), Game(3, 4)))]
    strength = {1: -5.0, 2: -3.0, 3: 1.5, 4: 2.5}
    # Each game counted from both sides: 4 squared differences of 1; k = 1, N = 4.
    assert math.isclose(total_error(t, strength), math.sqrt(4) / (2 * 1 * 4))
