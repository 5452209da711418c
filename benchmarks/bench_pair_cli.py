"""`python -m addin pair` end to end on a large workbook (round 6 of 10).

    python benchmarks/bench_pair_cli.py [--players 2000] [--runs 3]

Builds a workbook whose first five rounds were paired by the engine and played with
simulated results, then times the real command pairing round 6 in a fresh interpreter.
Baseline, measured in the same run: plain openpyxl opening and saving the same
workbook, the I/O floor any action on the file pays.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import openpyxl

from addin.core.model import Round, Settings, Tournament
from addin.core.pairing.simulate import initial_score, simulate
from addin.workbook import book, round_sheets, template
from addin.workbook.layout import players_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway


def build(path: Path, players: int) -> None:
    sim = simulate(players, 5, total_rounds=10, seed=1, byes=0.02)
    t = Tournament(settings=Settings(rounds=10))
    for p in sim.players:
        t.players[p.aga_id] = replace(p, initial_score=initial_score(float(p.rating or 0)))
    t.rounds = [Round(r.number, r.games, r.byes) for r in sim.rounds]
    values = book.settings_values(t.settings) | {"name": f"{players}-player benchmark"}
    gw = OpenpyxlGateway(template.build(values), path)
    gw.write_table(players_table(10), [book.player_values(p, 10) for p in t.players.values()])
    for rnd in t.rounds:
        round_sheets.write_round(gw, rnd, t.players)
    gw.save()


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    random.seed(0)
    ours: list[float] = []
    floor: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "big.xlsx"
        build(source, args.players)
        subprocess.run(  # pair stops until the TD has made the bands
            [sys.executable, "-m", "addin", "bands", str(source), "--yes"],
            check=True,
            capture_output=True,
        )
        for i in range(args.runs):
            copy = Path(shutil.copy(source, Path(tmp) / f"run{i}.xlsx"))
            floor.append(timed(lambda c=copy: openpyxl.load_workbook(c).save(c)))
            copy = Path(shutil.copy(source, Path(tmp) / f"run{i}b.xlsx"))
            ours.append(
                timed(
                    lambda c=copy: subprocess.run(
                        [sys.executable, "-m", "addin", "pair", str(c), "--yes"],
                        check=True,
                        capture_output=True,
                    )
                )
            )
    a, b = statistics.median(ours), statistics.median(floor)
    print(f"{args.players} players, pairing round 6 of 10; median of {args.runs} runs\n")
    print("| step | time | / baseline |")
    print("|---|---|---|")
    print(f"| baseline: openpyxl open + save of the workbook | {b:.2f} s | 1.00 |")
    print(f"| `python -m addin pair` end to end | {a:.2f} s | {a / b:.2f} |")


if __name__ == "__main__":
    main()
