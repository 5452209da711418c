"""Text from the workbook made safe for a page: escaped, no control characters, cut short.

Every piece of text a page shows goes through :func:`esc` (element content and attribute
values alike), so a player called ``<script>alert(1)</script>`` reads as those characters.
"""

from __future__ import annotations

import re
from html import escape

LONGEST = 120
"""Characters of one name or note shown; a longer one is cut with an ellipsis."""

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""Control characters (Unicode category Cc) but tab and line feed, and lone surrogates."""


def clean(text: object, longest: int = LONGEST) -> str:
    """``text`` without control characters or lone surrogates (each becomes U+FFFD), and
    at most ``longest`` characters."""
    raw = "" if text is None else str(text)
    if len(raw) > longest:
        raw = raw[:longest] + "\u2026"
    return _CONTROL.sub("\ufffd", raw)


def esc(text: object, longest: int = LONGEST) -> str:
    """Cleaned and HTML-escaped, quotes too: safe in content and in a quoted attribute."""
    return escape(clean(text, longest), quote=True)


def name_html(text: object) -> str:
    """A name isolated from the text around it (``<bdi>``: a right-to-left or
    direction-override character inside cannot reorder the rest of the line)."""
    return f"<bdi>{esc(text)}</bdi>"


def find_key(*parts: object) -> str:
    """The lowercased text a find box matches against (an attribute value, escaped)."""
    return esc(" ".join(clean(p) for p in parts).lower())
