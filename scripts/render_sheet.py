"""Render one sheet of a workbook to PNG as LibreOffice prints it (for docs/img/).

python scripts/render_sheet.py BOOK.xlsx "Players" docs/img/players-sheet.png [--page 1]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

import openpyxl


def render(book: Path, sheet: str, out: Path, page: int = 1) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        wb = openpyxl.load_workbook(book)
        for name in wb.sheetnames:
            if name != sheet:
                del wb[name]
        only = work / "sheet.xlsx"
        wb.save(only)
        soffice = shutil.which("soffice") or "libreoffice"
        subprocess.run(
            [
                soffice,
                f"-env:UserInstallation=file://{work}/profile",
                "--headless",
                "--convert-to",
                "pdf",
                "--outdir",
                str(work),
                str(only),
            ],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "110",
                "-f",
                str(page),
                "-l",
                str(page),
                "-singlefile",
                str(work / "sheet.pdf"),
                str(out.with_suffix("")),
            ],
            check=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("book", type=Path)
    parser.add_argument("sheet")
    parser.add_argument("out", type=Path)
    parser.add_argument("--page", type=int, default=1)
    args = parser.parse_args()
    render(args.book, args.sheet, args.out, args.page)
