"""The renderers: PDF (Letter, page header, rows never split), HTML, text and sheets."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest
from lxml import html as lxml_html

from addin.core.model import Tournament
from addin.reports import build_report
from addin.reports.model import Report
from addin.reports.output import render_bytes
from addin.reports.render_html import render as render_html
from addin.reports.render_text import render as render_text
from addin.workbook import template
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from addin.workbook.report_sheet import sheet_name, write_sheet
from tests.test_reports_data import sixty
from tests.workbook_fixtures import simple_tournament


def write_report(report: Report, path: Path) -> Path:
    """The report's file as the ``report`` action makes it."""
    path.write_bytes(render_bytes(report, path))
    return path


PRINTED = date(2025, 10, 5)
needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None,
    reason="pdftotext and pdfinfo (poppler-utils) are needed to read PDFs",
)


@pytest.fixture(scope="module")
def t() -> Tournament:
    return sixty()


def build(t: Tournament, kind: str, sort: str | None = None, rnd: int | None = None) -> Report:
    return build_report(t, kind, sort, rnd, printed=PRINTED)


def pdf_pages(path: Path) -> list[str]:
    """The text of each page, laid out as printed (one table row per line)."""
    out = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    return out.split("\f")[:-1]


def pdf_info(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True)
    return dict(
        (k.strip(), v.strip()) for k, v in (line.split(":", 1) for line in out.stdout.splitlines())
    )


# --- PDF --------------------------------------------------------------------------------------


@needs_poppler
def test_pdf_header_on_every_page_and_letter_paper(t: Tournament, tmp_path: Path) -> None:
    path = write_report(build(t, "pairings", "alphabetical", 3), tmp_path / "p.pdf")
    info = pdf_info(path)
    assert info["Page size"].startswith("612 x 792 pts")
    pages = pdf_pages(path)
    assert int(info["Pages"]) == len(pages) >= 2
    for number, text in enumerate(pages, start=1):
        head = text.strip().splitlines()[:2]
        assert "Test Open 2025" in head[0] and f"Page {number} of {len(pages)}" in head[0]
        assert "Pairing list - Round 3, alphabetical" in head[1]
        assert "Printed 2025-10-05" in head[1]
        assert re.search(r"Name\s+AGA #\s+Board\s+Colour\s+Opponent", text), "header row repeated"


@needs_poppler
def test_pdf_rows_are_whole_and_in_order(t: Tournament, tmp_path: Path) -> None:
    rep = build(t, "pairings", "alphabetical", 3)
    pages = pdf_pages(write_report(rep, tmp_path / "p.pdf"))
    lines = [line for page in pages for line in page.splitlines()]
    found = []
    for r in rep.records():
        if r["board"] is None:
            continue
        pattern = rf"{re.escape(str(r['name']))}\s+{r['aga_id']}\s+{r['board']}\s+{r['color']}\s+"
        pattern += rf"{re.escape(str(r['opponent']))}\s+{r['opponent_id']}"
        hits = [i for i, line in enumerate(lines) if re.search(pattern, line)]
        assert len(hits) == 1, f"row of {r['name']} is not on exactly one line"
        found.append(hits[0])
    assert found == sorted(found)


@needs_poppler
def test_pdf_cross_table_many_rounds_turns_landscape(tmp_path: Path) -> None:
    t = simple_tournament(60, 10)
    path = write_report(build(t, "crosstable", "standing"), tmp_path / "ct.pdf")
    assert pdf_info(path)["Page size"].startswith("792 x 612 pts")
    text = "\n".join(pdf_pages(path))
    assert "R10" in text and "Page 1 of" in text


@needs_poppler
def test_pdf_cards_each_card_whole_on_one_page(t: Tournament, tmp_path: Path) -> None:
    rep = build(t, "cards")
    pages = pdf_pages(write_report(rep, tmp_path / "cards.pdf"))
    assert len(pages) >= 4
    for card in rep.cards:
        where = [i for i, page in enumerate(pages) if f"{card.name} ({card.initial})" in page]
        assert len(where) == 1, card.name
        page = pages[where[0]]
        assert re.search(rf"(^|\s){card.number}\s", page)
    assert all(f"Page {i} of {len(pages)}" in p for i, p in enumerate(pages, start=1))


@needs_poppler
def test_pdf_slips_one_per_board(t: Tournament, tmp_path: Path) -> None:
    rep = build(t, "slips", None, 2)
    pages = pdf_pages(write_report(rep, tmp_path / "slips.pdf"))
    for slip in rep.slips:
        where = [i for i, p in enumerate(pages) if re.search(rf"Board {slip.board}\b", p)]
        assert len(where) == 1
        page = pages[where[0]]
        assert slip.white.name in page and slip.black.name in page
        assert f"AGA {slip.white.aga_id}" in page
    assert sum(p.count("Handicap:") for p in pages) == len(rep.slips) == 29


def test_pdf_is_reproducible(t: Tournament) -> None:
    from addin.reports.render_pdf import render

    rep = build(t, "pairings", "board", 1)
    assert render(rep) == render(rep)


# --- HTML -------------------------------------------------------------------------------------


def test_html_is_self_contained(t: Tournament) -> None:
    for kind in ("crosstable", "cards", "slips", "pairings"):
        page = render_html(build(t, kind))
        doc = lxml_html.fromstring(page)
        assert not doc.xpath("//link | //img | //iframe | //script[@src] | //*[@src]")
        assert "http://" not in page and "https://" not in page
        assert doc.xpath("//style") and doc.xpath("//meta[@name='viewport']")


def test_html_cross_table_rows_and_links(t: Tournament) -> None:
    rep = build(t, "crosstable", "standing")
    doc = lxml_html.fromstring(render_html(rep))
    rows = doc.xpath("//table[contains(@class,'report')]/tbody/tr")
    assert len(rows) == 60
    assert [r.get("id") for r in rows] == [f"p{n}" for n in range(1, 61)]
    first = [c.text_content() for c in rows[0].xpath("td")]
    assert first == [str(x) for x in rep.text_rows()[0]]
    ids = {r.get("id") for r in rows}
    links = doc.xpath("//td[contains(@class,'game')]/a/@href")
    assert len(links) > 250 and all(href[1:] in ids for href in links)
    assert doc.xpath("//td[contains(@class,'win')]") and doc.xpath("//td[contains(@class,'loss')]")
    headers = [th.text_content() for th in doc.xpath("//thead//th")]
    assert headers == [c.header for c in rep.columns]


def test_html_cards_and_slips(t: Tournament) -> None:
    cards = lxml_html.fromstring(render_html(build(t, "cards")))
    assert len(cards.xpath("//div[@class='card']")) == 60
    slips = lxml_html.fromstring(render_html(build(t, "slips", None, 1)))
    assert len(slips.xpath("//div[@class='slip']")) == 30
    assert len(slips.xpath("//span[@class='box']")) == 60


# --- text -------------------------------------------------------------------------------------


def test_text_table_has_every_row_in_order(t: Tournament) -> None:
    rep = build(t, "tiebreaks", "wins")
    lines = render_text(rep).splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("No."))
    body = lines[header + 2 : header + 2 + len(rep.rows)]
    assert [int(line.split()[0]) for line in body] == [r[0] for r in rep.rows]
    assert "Tiebreak list - After round 5, by number of wins" in lines[1]


def test_text_cards_show_three_boxes_per_round(t: Tournament) -> None:
    rep = build(t, "cards")
    text = render_text(rep)
    card = rep.cards[0]
    assert f"  1  {card.name} ({card.initial})  {card.rating}" in text
    box = card.boxes[0]
    assert re.search(rf"\|\s*{box.opponent}\s*\|\s*{re.escape(box.condition)}\s*\|", text)


# --- sheets -----------------------------------------------------------------------------------


def test_sheet_holds_the_report_and_is_replaced_on_rewrite(t: Tournament, tmp_path: Path) -> None:
    gw = OpenpyxlGateway(template.build({"name": "Test Open 2025"}), tmp_path / "b.xlsx")
    rep = build(t, "pairings", "board", 2)
    assert write_sheet(gw, rep) == sheet_name(rep) == "Report - Pairing list"
    ws = gw.wb["Report - Pairing list"]
    assert ws.tables["ReportPairingList"].ref == f"A1:I{1 + len(rep.rows)}"
    values = [row[:9] for row in ws.iter_rows(values_only=True)]
    assert values[0] == tuple(c.header for c in rep.columns)
    assert len(values) == 1 + len(rep.rows)
    assert values[1] == tuple(rep.rows[0])
    assert values[-1][:3] == ("Bye", t.players[rep.rows[-1][2]].name, rep.rows[-1][2])  # type: ignore[index]
    alphabetical = build(t, "pairings", "alphabetical", 2)
    write_sheet(gw, alphabetical)
    ws = gw.wb["Report - Pairing list"]
    assert ws.tables["ReportPairingList"].ref == f"A1:H{1 + len(alphabetical.rows)}"
    headers = [c.value for c in ws[1]]
    assert headers[:8] == [c.header for c in alphabetical.columns]
    assert not any(headers[8:]), "no column is left over from the board order"
    assert str(ws.page_setup.paperSize) == ws.PAPERSIZE_LETTER
    gw.save()
    assert "Report - Pairing list" in OpenpyxlGateway.open(tmp_path / "b.xlsx").sheet_names()


def test_sheet_names_are_valid_in_excel(t: Tournament) -> None:
    name = sheet_name(build(t, "winloss"))
    assert name == "Report - Win-loss" or "/" not in name
    assert len(name) <= 31
