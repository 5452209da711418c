"""Printouts fit for the wall: headers, page numbers, print titles, and readable type.

LibreOffice (headless) prints a 60-board Round sheet to PDF on Letter and on A4, and
poppler's ``pdftotext -bbox`` measures what came out: every page holds the whole width
of the sheet (its first and last printed headers) and no word is smaller than 9 pt.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from lxml import etree
from openpyxl.utils import range_boundaries

from addin.workbook.layout import fixed_tables, games_table
from addin.workbook.styling import is_wide
from tests.helpers import SOFFICE, libreoffice_convert, run
from tests.workbook_fixtures import simple_tournament, write_workbook

ROOT = Path(__file__).resolve().parents[1]
needs_printing = pytest.mark.skipif(
    SOFFICE is None or shutil.which("pdftotext") is None or shutil.which("pdffonts") is None,
    reason="LibreOffice and poppler-utils print and measure the PDF",
)
LINE_HEIGHT = 1.25
"""A word's box is at most 1.25 times its font size tall (ascent plus descent of the fonts
used here: Carlito 1.22, DejaVu Sans 1.16), so a box of 9 x 1.25 points is at least 9 pt."""
SMALLEST = 9.0


def round_book(tmp_path: Path) -> Path:
    t = simple_tournament(120, 1, seed=3)
    assert len(t.rounds[0].games) == 60
    return write_workbook(tmp_path / "sixty-boards.xlsx", t, rounds=4)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.xlsx"
    assert run("demo", path, "--players", 24, "--rounds", 2).returncode == 0
    return path


def printable_sheets(path: Path) -> list[openpyxl.worksheet.worksheet.Worksheet]:
    wb = openpyxl.load_workbook(path)
    return [ws for ws in wb.worksheets if ws.title not in ("TDListA",)]


@pytest.mark.parametrize("which", ["template", "demo"])
def test_every_printable_sheet_has_titles_a_header_and_page_x_of_y(which: str, demo: Path) -> None:
    path = ROOT / "workbook_template.xlsx" if which == "template" else demo
    sheets = printable_sheets(path)
    assert any(ws.title.startswith("Round ") for ws in sheets) or which == "template"
    for ws in sheets:
        assert str(ws.print_title_rows) == "$1:$1", ws.title
        assert ws.page_setup.fitToWidth == 1 and ws.sheet_properties.pageSetUpPr.fitToPage
        assert ws.oddHeader.center.text == "&A", "the sheet's name: Round 2, Standings"
        assert "&D" in ws.oddHeader.right.text and "&T" in ws.oddHeader.right.text
        assert ws.oddHeader.left.text, "the event's name (or the file's)"
        assert ws.oddFooter.center.text == "Page &P of &N"
    if which == "demo":
        named = [ws for ws in sheets if ws.title.startswith(("Round ", "Standings"))]
        assert all(ws.oddHeader.left.text == "Demo Open 2018" for ws in named), [
            ws.oddHeader.left.text for ws in named
        ]


def test_wide_sheets_print_landscape_and_the_round_sheet_portrait(tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(round_book(tmp_path))
    for table in fixed_tables(4, ("SOS", "SODOS")):
        if table.sheet in wb.sheetnames:
            expected = "landscape" if is_wide(table) else "portrait"
            assert wb[table.sheet].page_setup.orientation == expected, table.sheet
    ws = wb["Round 1"]
    assert ws.page_setup.orientation == "portrait"
    printed = [c.header for c in games_table(1).columns[: games_table(1).printed]]
    assert printed == ["Board", "White", "Black", "Handicap", "Komi", "Result"]
    assert ws.print_area is not None and "$A$1:$F$61" in ws.print_area


def print_sheet(path: Path, sheet: str, paper: int, outdir: Path) -> Path:
    """The sheet alone, printed by LibreOffice to PDF on ``paper`` (openpyxl's paper size)."""
    wb = openpyxl.load_workbook(path)
    for name in wb.sheetnames:
        if name != sheet:
            del wb[name]
    wb[sheet].page_setup.paperSize = paper
    single = outdir / f"{sheet.replace(' ', '-')}-{paper}.xlsx"
    wb.save(single)
    return libreoffice_convert(single, "pdf", outdir)


def words_by_page(pdf: Path) -> list[tuple[float, list[tuple[str, float, float]]]]:
    """Each page's width and its words as (text, height, right edge)."""
    xhtml = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True
    ).stdout
    root = etree.fromstring(xhtml, etree.XMLParser(recover=True))
    pages = []
    for page in root.iter("{*}page"):
        words = [
            (
                w.text or "",
                float(w.get("yMax")) - float(w.get("yMin")),
                float(w.get("xMax")),
            )
            for w in page.iter("{*}word")
        ]
        pages.append((float(page.get("width")), words))
    return pages


@needs_printing
@pytest.mark.parametrize(
    ("paper", "name"),
    [(openpyxl.worksheet.worksheet.Worksheet.PAPERSIZE_LETTER, "Letter"), (9, "A4")],
)
def test_a_60_board_round_prints_one_page_wide_at_9_pt_or_more(
    tmp_path: Path, paper: int, name: str
) -> None:
    pdf = print_sheet(round_book(tmp_path), "Round 1", paper, tmp_path)
    fonts = subprocess.run(["pdffonts", str(pdf)], check=True, capture_output=True, text=True)
    assert len(fonts.stdout.splitlines()) > 2, "the PDF has text"
    pages = words_by_page(pdf)
    assert 1 <= len(pages) <= 3
    boards_seen: set[int] = set()
    for width, words in pages:
        texts = [t for t, _, _ in words]
        for header in ("Board", "White", "Black", "Handicap", "Komi", "Result"):
            assert header in texts, f"{name}: a page without the {header} column"
        assert "Notes" not in texts and "AGA" not in texts, "only the chosen columns print"
        assert max(right for _, _, right in words) <= width
        smallest = min(height for _, height, _ in words)
        assert smallest >= SMALLEST * LINE_HEIGHT, f"{name}: {smallest / LINE_HEIGHT:.1f} pt"
        assert any(
            re.fullmatch(r"Page \d+ of \d+", " ".join(texts[i : i + 4])) for i in range(len(texts))
        )
        boards_seen.update(int(t) for t in texts if t.isdigit() and int(t) <= 60)
    assert boards_seen >= set(range(1, 61))


@pytest.fixture(scope="module")
def with_byes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An odd field whose first round gives byes (the demo's own volunteers and one forced)."""
    path = tmp_path_factory.mktemp("byes") / "odd.xlsx"
    assert run("demo", path, "--players", 23, "--rounds", 2).returncode == 0
    return path


def _byes(path: Path, sheet: str) -> list[tuple[object, ...]]:
    ws = openpyxl.load_workbook(path)[sheet]
    table = ws.tables[f"Round{sheet.removeprefix('Round ')}Byes"]
    rows = list(ws[table.ref])[1:]
    return [tuple(c.value for c in r) for r in rows if any(c.value is not None for c in r)]


def test_a_rounds_byes_print_after_its_games_and_its_codes_never(with_byes: Path) -> None:
    wb = openpyxl.load_workbook(with_byes)
    rounds = [ws.title for ws in wb.worksheets if ws.title.startswith("Round ")]
    assert any(_byes(with_byes, r) for r in rounds) and not all(_byes(with_byes, r) for r in rounds)
    for sheet in rounds:
        ws = wb[sheet]
        games, byes, codes = (
            ws.tables[f"Round{sheet.removeprefix('Round ')}{n}"] for n in ("Games", "Byes", "Codes")
        )
        area = ws.print_area.replace("$", "").replace(f"'{sheet}'!", "").split(",")
        games_printed = re.sub(r"^A1:[A-Z]+", "A1:F", games.ref)
        if _byes(with_byes, sheet):
            assert area == [games_printed, byes.ref], sheet
        else:
            assert area == [games_printed], f"{sheet}: no byes, no page for them"
        codes_column = range_boundaries(codes.ref)[0]
        assert all(range_boundaries(r)[0] != codes_column for r in area)


@needs_printing
def test_the_printed_round_shows_its_byes_and_not_its_codes(
    with_byes: Path, tmp_path: Path
) -> None:
    sheet = next(
        ws.title
        for ws in openpyxl.load_workbook(with_byes).worksheets
        if ws.title.startswith("Round ") and _byes(with_byes, ws.title)
    )
    pdf = print_sheet(
        with_byes, sheet, openpyxl.worksheet.worksheet.Worksheet.PAPERSIZE_LETTER, tmp_path
    )
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    pages = text.split("\f")
    assert "Board" in pages[0] and "Result" in pages[0]
    assert "Bye player" in text
    for player, name, kind in _byes(with_byes, sheet):
        assert re.search(rf"{player}\s+{re.escape(str(name))}\s+{kind}", text), name
    assert "Code board" not in text and "Result code" not in text
    assert "Notes" not in text and "rating" not in text, "the games' printed columns only"


def overlapping(words: list[tuple[str, float, float, float, float]]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes (text, x0, y0, x1, y1) cross: text printed over text. (A
    word's box takes in its ascent and descent, so the lines of one cell touch: a quarter
    of a line is allowed.)"""
    found = []
    for i, (a, ax0, ay0, ax1, ay1) in enumerate(words):
        for b, bx0, by0, bx1, by1 in words[i + 1 :]:
            slack = min(ay1 - ay0, by1 - by0) / 4
            if ax0 < bx1 - 0.5 and bx0 < ax1 - 0.5 and ay0 < by1 - slack and by0 < ay1 - slack:
                found.append((a, b))
    return found


def word_boxes(pdf: Path) -> list[tuple[float, list[tuple[str, float, float, float, float]]]]:
    xhtml = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True
    ).stdout
    root = etree.fromstring(xhtml, etree.XMLParser(recover=True))
    return [
        (
            float(page.get("width")),
            [
                (w.text or "", *(float(w.get(k)) for k in ("xMin", "yMin", "xMax", "yMax")))
                for w in page.iter("{*}word")
            ],
        )
        for page in root.iter("{*}page")
    ]


@needs_printing
def test_the_log_prints_its_long_messages_wrapped_at_a_readable_size(
    demo: Path, tmp_path: Path
) -> None:
    """A Log message runs to 450 characters: it wraps in the Message column, in a row tall
    enough to hold it, written by openpyxl (the demo) and by the desk's own store (a result)
    alike; before, it ran on to the right and the page shrank to 3 pt to fit it."""
    book = tmp_path / "event.xlsx"
    shutil.copyfile(demo, book)
    cleared = run("result", book, "--round", 2, "--board", 1, "--result", "", "--yes")
    assert cleared.returncode == 0
    long = max((str(r[3]) for r in _log_rows(book)), key=len)
    assert len(long) > 300
    pdf = print_sheet(
        book, "Log", openpyxl.worksheet.worksheet.Worksheet.PAPERSIZE_LETTER, tmp_path
    )
    pages = word_boxes(pdf)
    printed = " ".join(w[0] for _, words in pages for w in words)
    assert " ".join(long.split()[-6:]) in printed, "the whole message prints"
    for width, words in pages:
        assert max(w[3] for w in words) <= width
        smallest = min(w[4] - w[2] for w in words)
        assert smallest >= 7.5 * LINE_HEIGHT, f"{smallest / LINE_HEIGHT:.1f} pt"
        assert overlapping(words) == [], "a wrapped message printed over the next row"


def _log_rows(book: Path) -> list[tuple[object, ...]]:
    ws = openpyxl.load_workbook(book)["Log"]
    return [r for r in ws.iter_rows(min_row=2, values_only=True) if r[0]]


@needs_printing
def test_the_tournament_sheet_prints_its_help_wrapped_one_page_wide_at_9_pt_or_more(
    tmp_path: Path,
) -> None:
    """The Help column wraps in rows tall enough to hold it, so the page fits its width at a
    readable size; before, the longest help ran on to the right and the whole sheet shrank
    onto one page at 4.6 pt."""
    book = tmp_path / "event.xlsx"
    assert run("new", book, "--name", "Print Open", "--rounds", 5).returncode == 0
    ws = openpyxl.load_workbook(book)["Tournament"]
    helps = [str(row[2].value) for row in ws.iter_rows(min_row=2, max_col=3) if row[2].value]
    longest = max(helps, key=len)
    assert len(longest) > 150
    pdf = print_sheet(
        book, "Tournament", openpyxl.worksheet.worksheet.Worksheet.PAPERSIZE_LETTER, tmp_path
    )
    pages = word_boxes(pdf)
    assert len(pages) >= 2, "fit to the page's width, not the whole sheet to one page"
    printed = " ".join(w[0] for _, words in pages for w in words)
    assert " ".join(longest.split()[-5:]) in printed, "the whole help prints"
    assert "Summary" not in printed, "the settings table alone"
    for width, words in pages:
        assert max(w[3] for w in words) <= width
        smallest = min(w[4] - w[2] for w in words)
        assert smallest >= SMALLEST * LINE_HEIGHT, f"{smallest / LINE_HEIGHT:.1f} pt"
        assert overlapping(words) == [], "a wrapped help printed over the next row"


@needs_printing
def test_the_membership_lists_print_one_page_saying_what_they_are(tmp_path: Path) -> None:
    """A workbook holding the real 22,410-member TDListA printed whole: the TDListA and the
    EGD list print their header row, one page each (the list alone was 775 pages)."""
    book = tmp_path / "event.xlsx"
    assert run("new", book, "--name", "Print Open", "--rounds", 5).returncode == 0
    snapshot = ROOT / "tests" / "data" / "tdlista" / "tdlista-snapshot.txt"
    assert run("import-tdlista", book, snapshot).returncode == 0
    pdf = libreoffice_convert(book, "pdf", tmp_path)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    pages = [page for page in text.split("\f") if page.strip()]
    sheets = openpyxl.load_workbook(book, read_only=True).sheetnames
    assert len(pages) <= 2 * len(sheets), f"{len(pages)} pages"
    for sheet, headers in (("TDListA", ("Name", "AGA #", "Rating")), ("EGD list", ("PIN", "GoR"))):
        (page,) = [p for p in pages if re.search(rf"^\S.*\s{sheet}\s", p, re.M)]
        assert all(h in page for h in headers), sheet
        lines = [line for line in page.splitlines() if line.strip()]
        assert len(lines) <= 4, f"{sheet}: the page's header and footer, and the list's header"
