"""``python -m addin report BOOK.xlsx KIND [--sort S] [--round N] --out FILE`` on real workbooks."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from lxml import html as lxml_html

from addin.cli import main
from addin.core.tiebreaks import standings
from tests.test_reports_data import sixty
from tests.workbook_fixtures import write_workbook

needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) reads the PDF"
)


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return write_workbook(tmp_path / "open.xlsx", sixty(), rounds=5)


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@needs_poppler
def test_pairing_list_by_board_pdf(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.pdf"
    code, said, _ = run(
        capsys, "report", book, "pairings", "--sort", "board", "--round", 1, "--out", out
    )
    assert code == 0 and "Pairing list (Round 1, by board) written to" in said
    text = subprocess.run(
        ["pdftotext", "-layout", str(out), "-"], check=True, capture_output=True, text=True
    ).stdout
    pages = text.split("\f")[:-1]
    assert f"Page 1 of {len(pages)}" in pages[0] and "Test Open" in pages[0]
    for page in pages:  # every page: event, round, date and time, page x of y
        assert "Test Open" in page and "Round 1" in page and " of " in page
        assert re.search(r"Printed \d{4}-\d\d-\d\d \d\d:\d\d", page)
    t = sixty()
    round1 = t.round(1)
    assert round1 is not None
    lines = text.splitlines()
    at = []
    for g in sorted(round1.games, key=lambda g: g.board or 0):
        white, black = t.players[g.white], t.players[g.black]
        pattern = rf"^\s*{g.board}\s+{re.escape(white.name)}\s+{g.white}\s.*"
        pattern += rf"{re.escape(black.name)}\s+{g.black}\s"
        hits = [i for i, line in enumerate(lines) if re.search(pattern, line)]
        assert len(hits) == 1, f"board {g.board}"
        at.append(hits[0])
    assert at == sorted(at) and len(at) == 30


def test_cross_table_html_and_sheet(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "live.html"
    code, said, err = run(
        capsys, "report", book, "crosstable", "--sort", "standing", "--out", out, "--sheet"
    )
    assert code == 0, err
    assert "sheet 'Report - Cross table'" in said
    doc = lxml_html.fromstring(out.read_text(encoding="utf-8"))
    names = [row.xpath("td")[2].text_content() for row in doc.xpath("//tbody/tr")]
    t = sixty()
    assert names == [t.players[s.player].name for s in standings(t)]
    wb = openpyxl.load_workbook(book)
    ws = wb["Report - Cross table"]
    assert [ws.cell(row=r, column=3).value for r in range(2, 62)] == names
    log = [row[3] for row in wb["Log"].iter_rows(min_row=2, values_only=True)]
    assert not any("Cross table" in str(m) for m in log)  # a report changes no tournament data
    assert not list(tmp_path.glob("open.bak*"))  # and leaves the undo backups alone


def test_a_report_to_a_file_leaves_the_workbook_byte_identical(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = book.read_bytes()
    for kind, out in (("pairings", "p.pdf"), ("winloss", "w.txt"), ("crosstable", "c.html")):
        code, said, err = run(capsys, "report", book, kind, "--out", tmp_path / out)
        assert code == 0, err
        assert "written to" in said and (tmp_path / out).stat().st_size > 0
    assert book.read_bytes() == before
    assert not list(tmp_path.glob("open.bak*"))
    code, _, _ = run(capsys, "check", book)
    assert code == 0 and book.read_bytes() == before
    code, _, _ = run(capsys, "lookup", book, "Smith")
    assert book.read_bytes() == before


def test_win_loss_text_defaults_to_the_last_round(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "wl.txt"
    code, _, err = run(capsys, "report", book, "winloss", "--out", out)
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert "Win/loss - Round 5, alphabetical" in text
    assert text.count("Not played yet") == 2  # the one unplayed game, both players


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["standings", "--out", "x.pdf"], 2, "invalid choice: 'standings'"),
        (["pairings", "--sort", "rating", "--out", "x.pdf"], 1, "cannot be sorted 'rating'"),
        (["pairings", "--round", "4", "--out", "x.pdf"], 1, "round 4 has not been paired yet"),
        (["slips", "--round", "0", "--out", "x.pdf"], 1, "round 0 is not a round of this"),
        (["pairings", "--out", "x.docx"], 1, "must end in .html, .pdf or .txt"),
        (["pairings"], 1, "--out FILE"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], code: int, message: str
) -> None:
    book = write_workbook(tmp_path / "three.xlsx", sixty(3), rounds=5)
    before = book.read_bytes()
    args = [str(tmp_path / a) if a.startswith("x.") else a for a in args]
    got, _, err = run(capsys, "report", book, *args)
    assert got == code and message in err
    assert book.read_bytes() == before
    assert not list(tmp_path.glob("x.*"))


def test_a_bad_cell_is_a_warning_and_the_report_goes_on(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    column = next(c.column for c in ws[1] if c.value == "Entry rating")
    ws.cell(row=2, column=column, value="abc")
    wb.save(book)
    out = tmp_path / "r.txt"
    code, _, err = run(capsys, "report", book, "registration", "--out", out)
    assert code == 3 and "Entry rating" in err and "'abc'" in err and not out.exists()
    code, _, err = run(capsys, "report", book, "registration", "--out", out, "--yes")
    assert code == 0 and out.exists(), err
