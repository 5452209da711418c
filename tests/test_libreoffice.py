"""A real spreadsheet application opens what we write: LibreOffice headless converts every sheet."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from addin.workbook.layout import SHEET_ORDER
from tests.helpers import SOFFICE, libreoffice_convert
from tests.workbook_fixtures import simple_tournament, write_workbook

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")

EVERY_SHEET_CSV = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


def convert(source: Path, target: str, outdir: Path) -> list[Path]:
    libreoffice_convert(source, target, outdir)
    return sorted(p for p in outdir.iterdir() if p.is_file())


@pytest.mark.parametrize("which", ["template", "filled"])
def test_every_sheet_converts_to_pdf_and_csv(tmp_path: Path, which: str) -> None:
    if which == "template":
        source = ROOT / "workbook_template.xlsx"
        sheets = list(SHEET_ORDER)
    else:
        source = write_workbook(tmp_path / "filled.xlsx", simple_tournament(60, 3), rounds=3)
        sheets = [*SHEET_ORDER[:4], "Round 1", "Round 2", "Round 3", *SHEET_ORDER[4:]]

    pdfs = convert(source, "pdf", tmp_path / "pdf")
    assert [p.suffix for p in pdfs] == [".pdf"]
    assert pdfs[0].read_bytes().startswith(b"%PDF")

    csvs = convert(source, EVERY_SHEET_CSV, tmp_path / "csv")
    assert sorted(p.stem.split("-", 1)[1] for p in csvs) == sorted(sheets)

    tournament = next(p for p in csvs if p.stem.endswith("-Tournament"))
    summary = {row[4]: row[5] for row in csv.reader(tournament.open()) if len(row) > 5}
    expected_players = 0 if which == "template" else 60
    assert summary["Players registered"] == str(expected_players), "formula not computed"
    assert summary["Dropped"] == "0"
