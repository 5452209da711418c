"""Render the README's pictures of printed sheets, as LibreOffice prints them.

python scripts/readme_pictures.py OUT_DIR    (docs/img to refresh the README's own)

A 120-player demo (60 boards, two rounds) is made through the command line, the wall
pairing list is written to its sheet, and each sheet is printed to PDF by LibreOffice and
its first page turned into a PNG by pdftoppm. CI runs this (tests/test_readme_pictures.py),
so the pictures show what the code prints today.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render_sheet import render

PICTURES: dict[str, str] = {
    "players-sheet.png": "Players",
    "bands-sheet.png": "Bands",
    "round-sheet.png": "Round 1",
    "wall-pairing-list.png": "Report - Pairing list",
    "standings-sheet.png": "Standings",
}
"""Picture file: the sheet it shows."""


def addin(*args: object) -> None:
    subprocess.run(
        [sys.executable, "-m", "addin", *map(str, args)], check=True, capture_output=True
    )


def make_pictures(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "demo.xlsx"
        addin("demo", book, "--players", 120, "--rounds", 2)
        addin("report", book, "pairings", "--sort", "alphabetical", "--sheet", "--yes")
        written = []
        for name, sheet in PICTURES.items():
            render(book, sheet, out / name)
            written.append(out / name)
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    for path in make_pictures(parser.parse_args().out):
        print(path)
