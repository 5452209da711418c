"""Text from the workbook made safe for a page: escaped, no control characters, cut short.

Every piece of text a page shows goes through :func:`esc` (element content and attribute
values alike), so a player called ``<script>alert(1)</script>`` reads as those characters.
"""

from __future__ import annotations

import re
import unicodedata
from html import escape

LONGEST = 120
"""Characters of one name or note shown; a longer one is cut with an ellipsis."""

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""Control characters (Unicode category Cc) but tab and line feed, and lone surrogates."""

_DIRECTION = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")
"""Direction marks, embeddings, overrides and isolates: removed (as the poster does), so a
U+202E in a name cannot turn the text after it backwards."""


def clean(text: object, longest: int = LONGEST) -> str:
    """``text`` without control characters or lone surrogates (each becomes U+FFFD), and
    at most ``longest`` characters."""
    raw = _DIRECTION.sub("", "" if text is None else str(text))
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


_APOSTROPHES = re.compile("['\u2019\u02bc`\u2018]")
_NOT_WORD = re.compile(r"[^\w]+|_")
_GERMAN = str.maketrans({"\u00e4": "ae", "\u00f6": "oe", "\u00fc": "ue", "\u00df": "ss"})


def find_words(text: object) -> list[str]:
    """The words a find box compares: lower case, accents and apostrophes dropped
    (``O'Conner`` -> ``oconner``, ``Müller`` -> ``muller``), and for a German umlaut the
    spelling with ``e`` too (``mueller``). The site's script folds a query the same way."""
    lowered = clean(text).lower()
    words: list[str] = []
    for variant in dict.fromkeys((lowered, lowered.translate(_GERMAN))):
        plain = unicodedata.normalize("NFKD", variant)
        plain = "".join(c for c in plain if not unicodedata.combining(c))
        words += _NOT_WORD.sub(" ", _APOSTROPHES.sub("", plain)).split()
    return list(dict.fromkeys(words))


def find_key(*parts: object) -> str:
    """What a find box matches against (an attribute value, escaped): the names' words in
    any order, and each number (AGA number, board) as ``#N``, matched whole."""
    words: list[str] = []
    for part in parts:
        if isinstance(part, int):
            words.append(f"#{part}")
        else:
            words += find_words(part)
    return esc(" ".join(dict.fromkeys(words)), 100_000)
