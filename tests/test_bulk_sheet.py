"""The TDListA rows bypass openpyxl; they must survive a real spreadsheet application's re-save."""

from __future__ import annotations

import csv
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from addin.workbook.gateway import LogEntry
from addin.workbook.layout import TDLISTA
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from addin.workbook.package import sheet_part
from tests.helpers import DATA, run, sheet_rows

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
SHORT = DATA / "tdlista" / "tdlista-short.txt"
EDGE = DATA / "tdlista" / "tdlista-edge-cases.txt"


def _stored(book: Path) -> tuple[int, int]:
    """The TDListA part's CRC and stored size."""
    with zipfile.ZipFile(book) as package:
        part = sheet_part(package, TDLISTA.sheet)
        assert part is not None
        item = package.getinfo(part)
        return item.CRC, item.compress_size


def soffice(args: list[str], tmp: Path) -> None:
    assert SOFFICE
    subprocess.run(
        [SOFFICE, f"-env:UserInstallation=file://{tmp}/profile", "--headless", *args],
        check=True,
        capture_output=True,
        timeout=180,
    )


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    book = tmp_path / "t.xlsx"
    assert run("new", book).returncode == 0
    assert run("import-tdlista", book, EDGE).returncode == 0
    return book


def test_the_rows_read_back_exactly_as_imported(imported: Path) -> None:
    rows = OpenpyxlGateway.open(imported).read_table(TDLISTA).rows
    names = [line.split("\t")[0].strip() for line in EDGE.read_text().splitlines()]
    assert [r["name"] for r in rows] == names


def test_other_actions_keep_the_list_byte_for_byte(imported: Path) -> None:
    before = sheet_rows(imported, "TDListA")
    assert run("register", imported, "--name", "New, Person", "--rank", "5k").returncode == 0
    assert sheet_rows(imported, "TDListA") == before


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_a_list_resaved_by_a_spreadsheet_application_is_read_kept_and_rewritten(
    imported: Path, tmp_path: Path
) -> None:
    assert run("import-tdlista", imported, SHORT).returncode == 0
    expected = sheet_rows(imported, "TDListA")
    resaved_dir = tmp_path / "resaved"
    soffice(["--convert-to", "xlsx", "--outdir", str(resaved_dir), str(imported)], tmp_path)
    resaved = resaved_dir / imported.name  # shared strings, styles, LibreOffice's own XML

    gw = OpenpyxlGateway.open(resaved)
    assert gw.bulk["TDListA"].lean is False
    assert [r["name"] for r in gw.read_table(TDLISTA).rows] == [e["Name"] for e in expected]

    before = _stored(resaved)
    assert run("register", resaved, "--name", "Late, Larry", "--rank", "8k").returncode == 0
    assert _stored(resaved) == before  # a desk write copies the list as LibreOffice stored it
    gw = OpenpyxlGateway.open(resaved)
    gw.append_log([LogEntry("Action", "test", "saved through openpyxl")])
    gw.save()
    assert OpenpyxlGateway.open(resaved).bulk["TDListA"].lean  # rewritten in the plain form
    csv_dir = tmp_path / "csv"
    soffice(
        [
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
            "--outdir",
            str(csv_dir),
            str(resaved),
        ],
        tmp_path,
    )
    with open(csv_dir / f"{resaved.stem}-TDListA.csv", newline="") as f:
        names = [row[0] for row in csv.reader(f)][1:]
    assert names == [e["Name"] for e in expected]
