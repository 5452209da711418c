"""The one-page poster beside the wall sheets: scan the QR code to follow the event on a phone.
Its second page, when the server has stations, is for the staff only: the stations' address
and password, in a QR code a tablet scans to sign in.

reportlab (already used for the PDF reports) draws the QR code itself
(``reportlab.graphics.barcode.qr``): nothing more to install.
"""

from __future__ import annotations

import io
import re
import unicodedata

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from addin.reports import pdf_text
from addin.reports.model import RESULT_CODE
from addin.reports.render_pdf import INK, MUTED, fonts

MAX_EVENT_CHARS = 120
"""A longer event name is cut (with an ellipsis): the poster is one page."""
MAX_WIFI_CHARS = 64
REPORTING = (
    "Report your game's result from your phone too: open Report a result and enter the "
    f"{RESULT_CODE.lower()} printed on your result slip and pairing card."
)
"""The poster says what the site's menu, the slip and the card say, in the same words."""
MARGIN = 0.6 * inch
QR_SIZE = 5.3 * inch

_BLANKS = re.compile(r"\s+")
_DROPPED = ("Cf", "Cs", "Co", "Cn")
"""Invisible format characters (a right-to-left override would reverse the name in some
viewers), lone surrogates, private-use and unassigned code points."""
_JOINERS = "\u200c\u200d"
"""Zero-width (non-)joiners: part of how Persian and Indic names are spelled."""


def printable(text: str, limit: int) -> str:
    """``text`` on one line: control characters dropped, runs of blanks made one space, and
    cut to ``limit`` characters. A formula such as ``=HYPERLINK(...)`` is only text here."""
    kept = "".join(
        " " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
        for c in text
        if unicodedata.category(c) not in _DROPPED or c in _JOINERS
    )
    line = _BLANKS.sub(" ", kept).strip()
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "\u2026"


STAFF_QR_SIZE = 4.2 * inch


def poster_pdf(
    event: str, url: str, wifi: str | None = None, staff: tuple[str, str] | None = None
) -> bytes:
    """A letter-size page: the event, a big QR code of ``url``, ``url`` as text, the Wi-Fi;
    with ``staff`` (the stations' address and password) a second page for the staff."""
    regular, bold = fonts()
    event = printable(event, MAX_EVENT_CHARS) or "Go tournament"
    network = printable(wifi or "", MAX_WIFI_CHARS)
    width, height = letter
    text_width = width - 2 * MARGIN
    out = io.BytesIO()
    page = Canvas(out, pagesize=letter, pageCompression=1)
    page.setTitle(f"{event}: pairings and standings on your phone")
    page.setAuthor("AGA McMahon")

    top = height - MARGIN
    top -= _paragraph(page, event, _centered(bold, 30), top, text_width, max_height=1.5 * inch)
    top -= 0.15 * inch
    top -= _paragraph(
        page,
        "Pairings, results and standings on your phone",
        _centered(regular, 18, MUTED),
        top,
        text_width,
    )
    top -= 0.2 * inch

    _qr(page, url, QR_SIZE, top)
    top -= QR_SIZE + 0.2 * inch

    size = _fitting(url, bold, 28, text_width)
    page.setFillColor(INK)
    page.setFont(bold, size)
    page.drawCentredString(width / 2, top - size, url)
    top -= size * 1.6

    if network:
        top -= _paragraph(
            page, f"Wi-Fi: {network}", _centered(bold, 22), top, text_width, max_height=1 * inch
        )
        hint = "Join this Wi-Fi, then scan the code with your phone's camera."
    else:
        hint = "Join the hall's Wi-Fi, then scan the code with your phone's camera."
    top -= 0.1 * inch
    top -= _paragraph(page, hint, _centered(regular, 14, MUTED), top, text_width)
    top -= 0.15 * inch
    _paragraph(page, REPORTING, _centered(bold, 15), top, text_width)
    page.setFont(regular, 10)
    page.setFillColor(MUTED)
    page.drawCentredString(
        width / 2, MARGIN, "Pages refresh themselves when a new round or result is published."
    )
    page.showPage()
    if staff is not None:
        _staff_page(page, event, *staff)
    page.save()
    return out.getvalue()


def _qr(page: Canvas, url: str, size: float, top: float) -> None:
    """A QR code of ``url``, ``size`` wide, centred below ``top``."""
    code = QrCodeWidget(url, barLevel="M")
    x0, y0, x1, y1 = code.getBounds()
    scale = [size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0]
    drawing = Drawing(size, size, transform=scale)
    drawing.add(code)
    renderPDF.draw(drawing, page, (letter[0] - size) / 2, top - size)


def _staff_page(page: Canvas, event: str, address: str, password: str) -> None:
    """The stations' sign-in, for the staff: not for the wall."""
    regular, bold = fonts()
    width, height = letter
    text_width = width - 2 * MARGIN
    top = height - MARGIN
    top -= _paragraph(page, "STAFF ONLY: do not post", _centered(bold, 26), top, text_width)
    top -= 0.1 * inch
    top -= _paragraph(
        page,
        f"{event}: registration and results stations",
        _centered(regular, 16, MUTED),
        top,
        text_width,
        max_height=1 * inch,
    )
    top -= 0.25 * inch
    signed = f"{address}?key={password}"
    _qr(page, signed, STAFF_QR_SIZE, top)
    top -= STAFF_QR_SIZE + 0.25 * inch
    size = _fitting(address, bold, 22, text_width)
    page.setFillColor(INK)
    page.setFont(bold, size)
    page.drawCentredString(width / 2, top - size, address)
    top -= size * 1.8
    page.setFont(bold, 26)
    page.drawCentredString(width / 2, top - 26, f"Password: {password}")
    top -= 26 * 1.8
    _paragraph(
        page,
        "Scan the code with the station's tablet (or type the address and the password), "
        "then give the station a name, such as Desk 2: the Log shows it beside every entry.",
        _centered(regular, 14, MUTED),
        top,
        text_width,
    )
    page.showPage()


def _centered(font: str, size: float, color: object = INK) -> ParagraphStyle:
    return ParagraphStyle(
        "poster", fontName=font, fontSize=size, leading=size * 1.2, alignment=TA_CENTER,
        textColor=color,
    )  # fmt: skip


def _paragraph(
    page: Canvas,
    text: str,
    style: ParagraphStyle,
    top: float,
    width: float,
    max_height: float | None = None,
) -> float:
    """Draw ``text`` wrapped and centred below ``top``, smaller until it fits ``max_height``;
    the height it took."""
    while True:
        para = Paragraph(pdf_text.markup(text, style.fontName), style)
        _, used = para.wrap(width, 10 * inch)
        if max_height is None or used <= max_height or style.fontSize <= 10:
            break
        size = style.fontSize - 2
        style = ParagraphStyle("poster", parent=style, fontSize=size, leading=size * 1.2)
    para.drawOn(page, MARGIN, top - used)
    return float(used)


def _fitting(text: str, font: str, size: float, width: float) -> float:
    """The largest font size up to ``size`` at which ``text`` fits ``width`` on one line."""
    while size > 8 and stringWidth(text, font, size) > width:
        size -= 1
    return size
