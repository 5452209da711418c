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

import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FALLBACK = "ReportFallback"
"""The fallback fonts are registered as ``ReportFallback-<file name>``."""

FALLBACK_CANDIDATES = (
    # Linux: Debian fonts-wqy-microhei / -zenhei (Han, kana, Hangul), fonts-nanum (Hangul),
    # Fedora's WenQuanYi, then Droid (fonts-droid-fallback, brought by LibreOffice: no Hangul)
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
    "/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    # macOS: Arial Unicode (Han, kana, Hangul), then Apple SD Gothic Neo and AppleGothic
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "/System/Library/Fonts/AppleSDGothicNeo.ttc",
    "/System/Library/Fonts/Supplemental/AppleGothic.ttf",
    # Windows: Microsoft YaHei (Han), Meiryo (kana), Malgun Gothic (Hangul), SimSun
    *(
        f"{os.environ.get('WINDIR', 'C:/Windows')}/Fonts/{name}"
        for name in ("msyh.ttc", "msyh.ttf", "meiryo.ttc", "malgun.ttf", "simsun.ttc")
    ),
)
"""TrueType fonts with CJK glyphs, every one installed is used: a character is set in the
first that has it, so Chinese, Japanese and Korean names all print wherever each system
keeps them (reportlab cannot embed CFF-outline OpenType such as Noto Sans CJK: a file it
refuses is passed over)."""

_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


@cache
def fallback_fonts() -> tuple[str, ...]:
    """The registered fallback fonts, in the order of ``FALLBACK_CANDIDATES``."""
    found: list[str] = []
    for candidate in FALLBACK_CANDIDATES:
        path = Path(candidate)
        if not path.is_file():
            continue
        name = f"{FALLBACK}-{path.stem}"
        try:
            pdfmetrics.registerFont(TTFont(name, str(path), subfontIndex=0))
            pdfmetrics.registerFontFamily(
                name, normal=name, bold=name, italic=name, boldItalic=name
            )
        except Exception:  # a broken or unsupported font file: try the next one
            continue
        found.append(name)
    return tuple(found)


def fallback_font() -> str | None:
    """The first fallback font, or ``None`` when no candidate is installed."""
    fonts = fallback_fonts()
    return fonts[0] if fonts else None


def fallback_for(char: str) -> str | None:
    """The first fallback font with a glyph for ``char``."""
    return next((f for f in fallback_fonts() if ord(char) in _glyphs(f)), None)


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
    """``font``, or the first fallback that has every character of ``text`` when ``font``
    does not (a header drawn as one string in one font)."""
    if text.isascii():
        return font
    codes = {ord(c) for c in text}
    if codes <= _glyphs(font):
        return font
    return next((f for f in fallback_fonts() if codes <= _glyphs(f)), font)


def needs_markup(text: str, font: str) -> bool:
    """Whether ``text`` needs shaping or a second font to print in ``font``."""
    if text.isascii():
        return False
    glyphs = _glyphs(font)
    return bool(_RTL.search(text)) or any(ord(c) not in glyphs for c in text)


def markup(text: str, font: str) -> str:
    """``text`` as escaped Paragraph markup, printable with ``font`` and the fallbacks."""
    text = visual(text)
    if not fallback_fonts() or text.isascii():
        return _esc(text)
    main = _glyphs(font)
    out: list[str] = []
    for run, use in _runs(text, lambda c: None if ord(c) in main else fallback_for(c)):
        out.append(f'<font name="{use}">{_esc(run)}</font>' if use else _esc(run))
    return "".join(out)


def _runs(text: str, pick: Callable[[str], str | None]) -> list[tuple[str, str | None]]:
    """``text`` cut where ``pick`` (the font a character needs, or None) changes."""
    runs: list[tuple[str, str | None]] = []
    for char in text:
        use = pick(char)
        if runs and runs[-1][1] == use:
            runs[-1] = (runs[-1][0] + char, use)
        else:
            runs.append((char, use))
    return runs


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
