"""PDF reports on US Letter with reportlab's platypus.

Every page carries a header: the tournament, the report and its round, the date printed
and "Page x of y" (the total is known only at the end: the canvas keeps each page and
draws the headers when the document is saved). Tables repeat their header row on every
page and split only between rows (reportlab never splits a row unless asked to); cards
and slips are cells of an outer table, so they never split either. A report too wide for
a portrait page (a cross table of many rounds) turns landscape.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import date, datetime
from functools import cache, partial
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from addin.reports import pdf_text
from addin.reports.model import (
    RESULT_CODE,
    Card,
    CardBox,
    Column,
    GameCell,
    Layout,
    Report,
    Slip,
    SlipPlayer,
    show,
)

MARGIN = 0.5 * inch
HEADER = 0.6 * inch
"""Room above the frame for the page header."""
INK = colors.HexColor("#1d2430")
MUTED = colors.HexColor("#5b6576")
LINE = colors.HexColor("#b9c2ce")
HEAD_BG = colors.HexColor("#e1e8f2")
ZEBRA = colors.HexColor("#f5f7fa")
OUTCOME_BG = {
    "win": colors.HexColor("#e3f4e1"),
    "loss": colors.HexColor("#fbe5e3"),
    "draw": colors.HexColor("#fff3cf"),
    "bye": colors.HexColor("#eceff3"),
}

_FONT_CANDIDATES = (
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/dejavu/DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("/Library/Fonts/Arial Unicode.ttf", "Arial Unicode.ttf"),
    ("/System/Library/Fonts/Supplemental/Arial.ttf", "Arial Bold.ttf"),
    ("C:/Windows/Fonts/arial.ttf", "arialbd.ttf"),
)


@cache
def fonts() -> tuple[str, str]:
    """(regular, bold): a TrueType font with accented Latin (Ōta, Müller) when the system has
    one, embedded in the PDF; else reportlab's built-in Helvetica (Latin-1 only)."""
    for regular, bold in _FONT_CANDIDATES:
        path = Path(regular)
        bold_path = path.with_name(bold)
        if path.is_file() and bold_path.is_file():
            try:
                pdfmetrics.registerFont(TTFont("ReportSans", str(path)))
                pdfmetrics.registerFont(TTFont("ReportSans-Bold", str(bold_path)))
                pdfmetrics.registerFontFamily(
                    "ReportSans",
                    normal="ReportSans",
                    bold="ReportSans-Bold",
                    italic="ReportSans",
                    boldItalic="ReportSans-Bold",
                )
            except Exception:  # a broken font file: try the next one
                continue
            return "ReportSans", "ReportSans-Bold"
    return "Helvetica", "Helvetica-Bold"


# --- page header: "Page x of y" needs the page count, known only at the end ---------------


class _HeaderCanvas(Canvas):
    """Keeps every page and draws its header once the number of pages is known."""

    def __init__(self, *args: Any, lines: tuple[str, str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lines = lines
        self._kept: list[dict[str, Any]] = []

    def showPage(self) -> None:
        self._kept.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._kept)
        for number, state in enumerate(self._kept, start=1):
            self.__dict__.update(state)
            self._header(number, total)
            super().showPage()
        super().save()

    def _header(self, page: int, total: int) -> None:
        regular, bold = fonts()
        tournament, heading, printed = self._lines
        width, height = self._pagesize
        top = height - MARGIN + 4
        self.setFillColor(INK)
        tournament = pdf_text.visual(tournament)
        self.setFont(pdf_text.font_for(tournament, bold), 12)
        self.drawString(MARGIN, top - 10, tournament)
        self.setFont(regular, 10)
        self.drawRightString(width - MARGIN, top - 10, f"Page {page} of {total}")
        self.drawString(MARGIN, top - 25, heading)
        self.setFillColor(MUTED)
        self.drawRightString(width - MARGIN, top - 25, printed)
        self.setStrokeColor(INK)
        self.setLineWidth(0.8)
        self.line(MARGIN, top - 31, width - MARGIN, top - 31)


# --- paragraphs ----------------------------------------------------------------------------


def _style(
    size: float = 8.5, bold: bool = False, align: int = 0, color: Any = INK
) -> ParagraphStyle:
    regular, heavy = fonts()
    return ParagraphStyle(
        "cell",
        fontName=heavy if bold else regular,
        fontSize=size,
        leading=size * 1.2,
        alignment=align,
        textColor=color,
    )


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _p(text: str, style: ParagraphStyle, markup: bool = False) -> Paragraph:
    """A paragraph of plain text (escaped), or of reportlab markup (<b>...</b>)."""
    return Paragraph(text if markup else pdf_text.markup(text, style.fontName), style)


_NO_SIDE_PAD = ("LEFTPADDING", (0, 0), (-1, -1), 0)
_NO_SIDE_PAD_R = ("RIGHTPADDING", (0, 0), (-1, -1), 0)


# --- tables ---------------------------------------------------------------------------------

PORTRAIT_WIDTH = letter[0] - 2 * MARGIN
LANDSCAPE_WIDTH = letter[1] - 2 * MARGIN


SIZES = (10.0, 9.0, 8.5, 8.0, 7.5, 7.0)
"""Table font sizes, largest first: a list posted on a wall should read from a step away."""


def _chars(column: Column) -> int:
    """Characters a column needs: its typical value, or the longest word of its header."""
    longest = max((len(w) for w in column.header.split()), default=1)
    return max(column.width, longest + 2, 3)


def _weights(report: Report, size: float) -> list[float]:
    return [_chars(c) * size * 0.58 + 7 for c in report.columns]


def fit(report: Report) -> tuple[bool, float]:
    """(landscape, font size): portrait at the largest size that fits, else landscape."""
    for is_landscape, width in ((False, PORTRAIT_WIDTH), (True, LANDSCAPE_WIDTH)):
        for size in SIZES:
            if sum(_weights(report, size)) <= width:
                return is_landscape, size
    return True, SIZES[-1]


def _table(report: Report, width: float, size: float) -> list[Flowable]:
    if not report.rows:
        return [_p("None so far.", _style(10, color=MUTED))]
    weights = _weights(report, size)
    scale = width / sum(weights)
    widths = [w * scale for w in weights]
    head = [
        _p(c.header, _style(size, bold=True, align=2 if c.format.numeric else 0))
        for c in report.columns
    ]
    text_style = _style(size)
    body: list[list[Any]] = []
    for row in report.rows:
        cells: list[Any] = []
        for value, column in zip(row, report.columns, strict=True):
            text = show(value, column.format)
            wide_text = column.format.value == "text" and column.width >= 12
            printable = not pdf_text.needs_markup(text, text_style.fontName)
            cells.append(text if printable and not wide_text else _p(text, text_style))
        body.append(cells)
    regular, bold = fonts()
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 1), (-1, -1), regular, size),
        ("FONT", (0, 0), (-1, 0), bold, size),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, ZEBRA]),
        ("GRID", (0, 0), (-1, -1), 0.4, LINE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    for i, column in enumerate(report.columns):
        if column.format.numeric:
            style.append(("ALIGN", (i, 1), (i, -1), "RIGHT"))
        elif isinstance(report.rows[0][i], GameCell):
            style.append(("ALIGN", (i, 1), (i, -1), "CENTER"))
    for r, row in enumerate(report.rows, start=1):
        for i, value in enumerate(row):
            if isinstance(value, GameCell) and value.css in OUTCOME_BG:
                style.append(("BACKGROUND", (i, r), (i, r), OUTCOME_BG[value.css]))
            elif isinstance(value, str) and report.columns[i].format.numeric:
                style.append(("ALIGN", (i, r), (i, r), "LEFT"))
    table = Table([head, *body], colWidths=widths, repeatRows=1, splitByRow=1)
    table.setStyle(TableStyle(style))
    return [table]


# --- pairing cards ---------------------------------------------------------------------------


def _card(card: Card, width: float, per_line: int) -> Table:
    """Number, name (initial score), rating; then per round: opponent | h/c over the score."""
    regular, _ = fonts()
    inner = width - 8  # the card's left and right padding
    top = Table(
        [
            [
                _p(str(card.number), _style(15, bold=True)),
                _p(f"{card.name} ({card.initial})", _style(9.5, bold=True)),
                _p(card.rating + (f"  {card.note}" if card.note else ""), _style(8.5, align=2)),
            ]
        ],
        colWidths=[inner * 0.15, inner * 0.55, inner * 0.30],
    )
    top.setStyle(
        TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (0, 0), (-1, -1), 2)])
    )
    boxes = list(card.boxes)
    chunks = [boxes[i : i + per_line] for i in range(0, len(boxes), per_line)] or [[]]
    rows: list[list[str]] = []
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), regular, 9),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]
    heights: list[float] = []
    for index, chunk in enumerate(chunks):
        line: list[CardBox | None] = [*chunk, *[None] * (per_line - len(chunk))]
        base = len(rows)
        first = index * per_line + 1
        rows.append([x for n, b in enumerate(line) for x in (b.label(first + n) if b else "", "")])
        rows.append([x for b in line for x in ((b.opponent, b.condition) if b else ("", ""))])
        rows.append([x for b in line for x in ((b.score, "") if b else ("", ""))])
        heights += [11, 17, 17]
        style += [
            ("FONT", (0, base), (-1, base), regular, 6.5),
            ("TEXTCOLOR", (0, base), (-1, base), MUTED),
        ]
        for n, box in enumerate(line):
            if box is None:
                continue
            c = 2 * n
            style += [
                ("SPAN", (c, base), (c + 1, base)),
                ("SPAN", (c, base + 2), (c + 1, base + 2)),
                ("BOX", (c, base + 1), (c + 1, base + 2), 0.9, INK),
                ("LINEBELOW", (c, base + 1), (c + 1, base + 1), 0.5, INK),
                ("LINEAFTER", (c, base + 1), (c, base + 1), 0.5, INK),
            ]
    grid = Table(rows, colWidths=[inner / (2 * per_line)] * (2 * per_line), rowHeights=heights)
    grid.setStyle(TableStyle(style))
    rows_of_card: list[list[Any]] = [[top], [grid]]
    if card.code_line:  # large and in ink: a player reads it off the card at the board
        rows_of_card.insert(1, [_p(card.code_line, _style(10.5, bold=True))])
    outer = Table(rows_of_card, colWidths=[width])
    outer.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (-1, -1), 1.2, INK),
                ("LEFTPADDING", (0, 0), (-1, -1), 4),
                ("RIGHTPADDING", (0, 0), (-1, -1), 4),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    return outer


# --- result slips ----------------------------------------------------------------------------


class _Box(Flowable):
    """An empty square to tick."""

    def __init__(self, size: float = 11) -> None:
        super().__init__()
        self.size = size

    def wrap(self, *_: float) -> tuple[float, float]:
        return self.size, self.size

    def draw(self) -> None:
        self.canv.setLineWidth(1.1)
        self.canv.rect(0, 0, self.size, self.size)


def _slip(slip: Slip, tournament: str, width: float) -> Table:
    """Board and round, both players with a box to tick, handicap and komi, signatures."""
    muted = _style(8, color=MUTED)
    inner = width - 12  # a cell's default left and right padding

    def who(color: str, p: SlipPlayer) -> list[Any]:
        return [
            _Box(),
            _p(color, _style(9, color=MUTED)),
            _p(
                f"<b>{pdf_text.markup(p.name, fonts()[1])}</b>&nbsp;&nbsp;{_esc(p.rank)}",
                _style(10.5),
                markup=True,
            ),
            _p(f"AGA {p.aga_id}", _style(8.5, color=MUTED, align=2)),
        ]

    terms = _esc(f"Handicap: {slip.handicap_text}   \u00b7   Komi: {slip.komi:g}")
    if slip.code:
        terms += f"   \u00b7   <b>{RESULT_CODE}: {_esc(slip.code)}</b>"
    signatures = Table(
        [[_p("White ________________", muted), _p("Black ________________", muted)]],
        colWidths=[inner / 2, inner / 2],
    )
    signatures.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    top = Table(
        [
            [
                _p(f"Board {slip.board}", _style(13, bold=True)),
                _p(tournament, _style(8.5, color=MUTED, align=1)),
                _p(f"Round {slip.round}", _style(11, bold=True, align=2)),
            ]
        ],
        colWidths=[inner * 0.32, inner * 0.40, inner * 0.28],
    )
    top.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"), _NO_SIDE_PAD, _NO_SIDE_PAD_R]))
    rows: list[list[Any]] = [
        [top, "", "", ""],
        who("White", slip.white),
        who("Black", slip.black),
        [_p(terms, _style(9), markup=True), "", "", ""],
        [_p("Tick the winner's box; hand the slip to the TD.", muted), "", "", ""],
        [signatures, "", "", ""],
    ]
    table = Table(rows, colWidths=[width * 0.08, width * 0.16, width * 0.50, width * 0.26])
    table.setStyle(
        TableStyle(
            [
                ("SPAN", (0, 0), (-1, 0)),
                ("SPAN", (0, 3), (-1, 3)),
                ("SPAN", (0, 4), (-1, 4)),
                ("SPAN", (0, 5), (-1, 5)),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), 3.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3.5),
                ("TOPPADDING", (0, 5), (-1, 5), 14),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
            ]
        )
    )
    return table


# --- the document -----------------------------------------------------------------------------


def _grid(items: Sequence[Flowable], columns: int, width: float, gap: float, dashed: bool) -> Table:
    """Cards or slips side by side; a row of the grid never splits across pages."""
    rows: list[list[Any]] = [list(items[i : i + columns]) for i in range(0, len(items), columns)]
    for row in rows:
        row += [""] * (columns - len(row))
    table = Table(rows, colWidths=[width / columns] * columns)
    style: list[tuple[Any, ...]] = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), gap / 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), gap / 2),
        ("TOPPADDING", (0, 0), (-1, -1), gap / 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), gap / 2),
    ]
    if dashed:
        style.append(("INNERGRID", (0, 0), (-1, -1), 0.5, MUTED, None, (3, 3)))
    table.setStyle(TableStyle(style))
    return table


def render(report: Report) -> bytes:
    is_landscape, size = fit(report) if report.layout is Layout.TABLE else (False, 9.0)
    pagesize = landscape(letter) if is_landscape else letter
    width = pagesize[0] - 2 * MARGIN
    out = io.BytesIO()
    doc = BaseDocTemplate(
        out,
        pagesize=pagesize,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN + HEADER,
        bottomMargin=MARGIN,
        title=f"{report.tournament} - {report.heading}",
        author="AGA Swiss McMahon add-in",
        invariant=True,
    )
    frame = Frame(
        doc.leftMargin,
        doc.bottomMargin,
        doc.width,
        doc.height,
        id="body",
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    doc.addPageTemplates([PageTemplate("page", [frame])])
    story: list[Flowable] = []
    if report.layout is Layout.CARDS:
        gap = 10.0
        cards = [_card(c, width / 2 - gap, 5) for c in report.cards]
        story.append(_grid(cards, 2, width, gap, dashed=False))
    elif report.layout is Layout.SLIPS:
        gap = 18.0
        slips = [_slip(s, report.tournament, width / 2 - gap) for s in report.slips]
        story.append(
            _grid(slips, 2, width, gap, dashed=True) if slips else _p("No games.", _style(10))
        )
    else:
        story += _table(report, width, size)
    if report.notes:
        story.append(Spacer(1, 6))
        story += [_p(n, _style(7.5, color=MUTED)) for n in report.notes]
    lines = (report.tournament, report.heading, f"Printed {printed_at(report.printed)}")
    doc.build(story, canvasmaker=partial(_HeaderCanvas, lines=lines))
    return out.getvalue()


def printed_at(day: date) -> str:
    """The printing date, with the time when it is today (a wall list replaced mid-round)."""
    if day == date.today():
        return f"{day.isoformat()} {datetime.now():%H:%M}"
    return day.isoformat()
