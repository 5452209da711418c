"""The players' pages in the players' languages: catalogues, ``translate``, negotiation.

One catalogue per language (a Python module of stable keys, ``en.py``, ``ko.py`` ...), all
with the English catalogue's keys and placeholders (tests/test_i18n.py holds that). A
translation is text: the pages escape it like any other. Plural forms follow CLDR's rules
for the language (Babel's :class:`babel.Locale`), numbers and dates Babel's formats.

Babel is imported only when a plural, a number or a date is written, so that the server
(standard library otherwise) starts without it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from datetime import datetime
from functools import cache
from typing import Any

from addin.publish.i18n.negotiate import DEFAULT, LANGUAGES, NAMES, negotiate

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "NAMES",
    "catalogue",
    "format_datetime",
    "format_number",
    "negotiate",
    "plural_category",
    "translate",
]

Entry = str | Mapping[str, str]
"""A message, or a plural message: CLDR category (``one``, ``other``...) -> message."""


@cache
def catalogue(lang: str) -> Mapping[str, Entry]:
    """The catalogue of ``lang`` (one of :data:`LANGUAGES`)."""
    if lang not in LANGUAGES:
        raise KeyError(f"no catalogue for language {lang!r}")
    module = importlib.import_module(f"addin.publish.i18n.{lang.replace('-', '_')}")
    messages: Mapping[str, Entry] = module.MESSAGES
    return messages


def _babel_locale(lang: str) -> str:
    return lang.replace("-", "_")


@cache
def plural_category(lang: str, count: int) -> str:
    """CLDR's plural category of ``count`` in ``lang``: ``one``, ``few``, ``many``, ``other``."""
    from babel import Locale

    return str(Locale.parse(_babel_locale(lang)).plural_form(abs(count)))


def plural_categories(lang: str) -> frozenset[str]:
    """Every plural category ``lang`` has (what each plural message must say)."""
    from babel import Locale

    return frozenset(Locale.parse(_babel_locale(lang)).plural_form.tags) | {"other"}


def translate(key: str, lang: str = DEFAULT, /, count: int | None = None, **values: Any) -> str:
    """The message ``key`` in ``lang`` (English when ``lang`` has none), ``{name}``
    placeholders filled with ``values``; a plural message picks its form by ``count``
    (also a placeholder). Raises ``KeyError`` for a key the English catalogue lacks."""
    entry = catalogue(lang).get(key)
    if entry is None:
        lang, entry = DEFAULT, catalogue(DEFAULT)[key]
    if not isinstance(entry, str):
        if count is None:
            raise TypeError(f"message {key!r} is a plural: it needs count=")
        entry = entry.get(plural_category(lang, count)) or entry["other"]
    if count is not None:
        values["count"] = format_number(count, lang)
    return entry.format(**values) if values else entry


@cache  # the same few scores and komi, on every page of every language
def format_number(value: float, lang: str = DEFAULT, places: int | None = None) -> str:
    """``value`` as ``lang`` writes it (``6.5``, ``6,5``); ``places``: exactly that many
    decimals (an entry rating's two); else no trailing zeros, never ``-0``."""
    from babel.numbers import format_decimal

    if places is not None:
        pattern = "#,##0." + "0" * places if places else "#,##0"
        return str(format_decimal(value, format=pattern, locale=_babel_locale(lang)))
    if value == 0:
        value = 0
    return str(format_decimal(value, locale=_babel_locale(lang), decimal_quantization=False))


def format_datetime(when: datetime, lang: str = DEFAULT) -> str:
    """A date and time as ``lang`` writes it, short (``11/29/26, 5:33 AM``)."""
    from babel.dates import format_datetime as babel_format

    return str(babel_format(when, "short", locale=_babel_locale(lang)))
