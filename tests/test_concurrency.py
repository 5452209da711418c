"""Commands run at once on one workbook take turns: no update is ever lost.

Separate processes, exactly as a TD (or a script) starts them; the turn lock is an
OS lock beside the workbook, released even if a process dies.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from filelock import FileLock

from addin.workbook.saving import turn_lock
from tests.helpers import digest, log_messages, sheet_rows
from tests.workbook_fixtures import simple_tournament, write_workbook

ROOT = Path(__file__).resolve().parents[1]


def unplayed_round(tmp_path: Path, players: int) -> Path:
    t = simple_tournament(players=players, rounds=1)
    first = t.rounds[0]
    t.rounds[0] = replace(first, games=tuple(replace(g, result=None) for g in first.games))
    return write_workbook(tmp_path / "t.xlsx", t, rounds=3)


def start(*args: object, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "addin", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )


def test_six_results_at_once_on_six_boards_are_all_kept(tmp_path: Path) -> None:
    book = unplayed_round(tmp_path, players=12)
    boards = [row["Board"] for row in sheet_rows(book, "Round 1")]
    assert len(boards) == 6 and all(row["Result"] is None for row in sheet_rows(book, "Round 1"))

    running = [start("result", book, "--round", 1, "--board", b, "--result", "W") for b in boards]
    finished = [(p.wait(timeout=600), *p.communicate()) for p in running]

    assert [code for code, _, _ in finished] == [0] * 6, [err for _, _, err in finished]
    results = {row["Board"]: row["Result"] for row in sheet_rows(book, "Round 1")}
    assert results == {b: "White wins" for b in boards}
    logged = [m for _, action, m in log_messages(book) if action == "result" and "(was" in m]
    assert len(logged) == 6 and all(m.endswith("White wins (was blank)") for m in logged)


def test_a_command_waits_for_the_lock_then_gives_up_with_a_message(tmp_path: Path) -> None:
    book = unplayed_round(tmp_path, players=4)
    before = digest(book)
    env = {**os.environ, "AGA_MCMAHON_LOCK_TIMEOUT": "1"}
    with FileLock(turn_lock(book)):
        waiting = start("result", book, "--round", 1, "--board", 1, "--result", "W", env=env)
        code = waiting.wait(timeout=120)
        out, err = waiting.communicate()
    assert code == 1
    assert err == (
        "error: t.xlsx is busy: another command has been working on it for more than 1 s; "
        "nothing was done, try again when it has finished\n"
    )
    assert out == ""
    assert digest(book) == before
    again = start("result", book, "--round", 1, "--board", 1, "--result", "W", env=env)
    assert again.wait(timeout=120) == 0, again.communicate()
