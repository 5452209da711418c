"""TDListA import end to end, and what every later action pays to open the workbook.

    python benchmarks/bench_import.py [--runs 3]

Baseline, measured in the same run: plain openpyxl writing the same rows into the
same template and saving, then opening that workbook again. Ours: the real command
`python -m addin import-tdlista` in a fresh interpreter, then `check` on the result.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import openpyxl

from addin.formats.tdlista import parse_tdlista
from addin.workbook import template

SNAPSHOT = Path(__file__).resolve().parents[1] / "tests/data/tdlista/tdlista-snapshot.txt"


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def baseline_import(book: Path) -> None:
    members = parse_tdlista(SNAPSHOT.read_bytes()).members
    wb = openpyxl.load_workbook(book)
    ws = wb["TDListA"]
    for i, m in enumerate(members, start=2):
        for j, v in enumerate(
            (
                m.name,
                m.aga_id,
                m.membership_type,
                m.rating,
                m.expiry,
                m.chapter,
                m.state,
                m.sigma,
                m.rating_date,
            ),
            start=1,
        ):
            ws.cell(row=i, column=j, value=v)
    wb.save(book)


def cli(*args: object) -> None:
    subprocess.run(
        [sys.executable, "-m", "addin", *map(str, args)], check=True, capture_output=True
    )


CACHE = tempfile.TemporaryDirectory()
"""The import keeps the new list's index (``read_cache``): here, not in the user's cache."""
os.environ["XDG_CACHE_HOME"] = CACHE.name


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    results: dict[str, list[float]] = {
        k: [] for k in ("base_import", "base_open", "import", "open")
    }
    with tempfile.TemporaryDirectory() as tmp:
        blank = Path(tmp) / "blank.xlsx"
        template.write_template(blank)
        for i in range(runs):
            base = Path(shutil.copy(blank, Path(tmp) / f"base{i}.xlsx"))
            ours = Path(shutil.copy(blank, Path(tmp) / f"ours{i}.xlsx"))
            results["base_import"].append(timed(lambda b=base: baseline_import(b)))
            results["base_open"].append(timed(lambda b=base: openpyxl.load_workbook(b)))
            results["import"].append(timed(lambda o=ours: cli("import-tdlista", o, SNAPSHOT)))
            results["open"].append(timed(lambda o=ours: cli("check", o)))
    med = {k: statistics.median(v) for k, v in results.items()}
    print(f"TDListA snapshot: 22,410 members; median of {runs} runs; 2-core machine\n")
    print("| step | baseline (plain openpyxl) | ours (`python -m addin`) | ours / baseline |")
    print("|---|---|---|---|")
    print(
        f"| import the list and save | {med['base_import']:.2f} s | {med['import']:.2f} s "
        f"(end to end) | {med['import'] / med['base_import']:.2f} |"
    )
    print(
        f"| open the workbook afterwards | {med['base_open']:.2f} s (load only) | "
        f"{med['open']:.2f} s (whole `check`) | {med['open'] / med['base_open']:.2f} |"
    )


if __name__ == "__main__":
    main()
