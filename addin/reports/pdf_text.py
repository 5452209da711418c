"""Every name in the TDListA printable in a PDF: a fallback font for what the main one
lacks (Chinese, Japanese, Korean), and right-to-left names (Arabic, Hebrew) shaped.

reportlab draws each character with one font and neither joins Arabic letters nor orders
right-to-left text. So a name is first shaped and put in visual order (``arabic-reshaper``
and ``python-bidi``, when installed), then each run of characters the main font has no
glyph for is set in the fallback font (``<font name=...>`` markup), when one is installed.
Colour emoji have no TrueType outlines any PDF font here could embed: they stay boxes
(README, Limits).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FALLBACK = "ReportFallback"

FALLBACK_CANDIDATES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  # Debian fonts-wqy-microhei: CJK, Hangul
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",  # fonts-droid-fallback: no Hangul
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",  # Fedora
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",  # macOS
    "/Library/Fonts/Arial Unicode.ttf",
    "C:/Windows/Fonts/msyh.ttf",  # Windows: Microsoft YaHei
    "C:/Windows/Fonts/simsun.ttc",
)
"""TrueType fonts with CJK glyphs (reportlab cannot embed CFF-outline OpenType such as
Noto Sans CJK, so those are not listed)."""

_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


@cache
def fallback_font() -> str | None:
    """The name of the registered fallback font, or ``None`` when no candidate is installed."""
    for candidate in FALLBACK_CANDIDATES:
        path = Path(candidate)
        if not path.is_file():
            continue
        try:
            pdfmetrics.registerFont(TTFont(FALLBACK, str(path), subfontIndex=0))
            pdfmetrics.registerFontFamily(
                FALLBACK, normal=FALLBACK, bold=FALLBACK, italic=FALLBACK, boldItalic=FALLBACK
            )
        except Exception:  # a broken or unsupported font file: try the next one
            continue
        return FALLBACK
    return None


@cache
def _glyphs(font: str) -> frozenset[int]:
    """The code points ``font`` has glyphs for (everything Latin-1 for a built-in font)."""
    face = getattr(pdfmetrics.getFont(font), "face", None)
    mapping = getattr(face, "charToGlyph", None)
    if mapping is None:
        return frozenset(range(256))
    return frozenset(mapping)


def visual(text: str) -> str:
    """Right-to-left text shaped and in the order it is drawn; other text as it is."""
    if not _RTL.search(text):
        return text
    try:
        import arabic_reshaper
        from bidi.algorithm import get_display
    except ImportError:  # not installed: printed unshaped (README, Limits)
        return text
    return str(get_display(arabic_reshaper.reshape(text)))


def font_for(text: str, font: str) -> str:
    """``font``, or the fallback when only it has every character of ``text`` (a header
    drawn as one string in one font)."""
    fallback = fallback_font()
    if text.isascii() or fallback is None:
        return font
    codes = {ord(c) for c in text}
    if codes <= _glyphs(font) or not codes <= _glyphs(fallback):
        return font
    return fallback


def needs_markup(text: str, font: str) -> bool:
    """Whether ``text`` needs shaping or a second font to print in ``font``."""
    if text.isascii():
        return False
    glyphs = _glyphs(font)
    return bool(_RTL.search(text)) or any(ord(c) not in glyphs for c in text)


def markup(text: str, font: str) -> str:
    """``text`` as escaped Paragraph markup, printable with ``font`` and the fallback."""
    text = visual(text)
    fallback = fallback_font()
    if fallback is None or text.isascii():
        return _esc(text)
    main, extra = _glyphs(font), _glyphs(fallback)
    out: list[str] = []
    for run, use_fallback in _runs(text, lambda c: ord(c) not in main and ord(c) in extra):
        out.append(f'<font name="{fallback}">{_esc(run)}</font>' if use_fallback else _esc(run))
    return "".join(out)


def _runs(text: str, test: object) -> list[tuple[str, bool]]:
    runs: list[tuple[str, bool]] = []
    for char in text:
        flag = bool(test(char))  # type: ignore[operator]
        if runs and runs[-1][1] == flag:
            runs[-1] = (runs[-1][0] + char, flag)
        else:
            runs.append((char, flag))
    return runs


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
