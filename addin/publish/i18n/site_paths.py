"""Where each language's pages are: English at the site's root, every other language in a
folder of its own tag (``ko/index.html``, ``zh-Hant/p12345.html``), the same file names in
each, so a page's relative links keep the reader in its language (standard library only)."""

from __future__ import annotations

from addin.publish.i18n.negotiate import DEFAULT, LANGUAGES, NAMES

CHOICE = "lang"
"""The query parameter (``?lang=ko``) and the cookie ``serve`` keeps a reader's choice in."""


def folder(lang: str) -> str:
    """The folder of ``lang``'s pages: ``""`` (the root) for English, ``"ko/"``."""
    return "" if lang == DEFAULT else f"{lang}/"


def up(lang: str) -> str:
    """From a page of ``lang`` to the site's root (its style sheet and script)."""
    return "" if lang == DEFAULT else "../"


def split(path: str) -> tuple[str, str]:
    """(the language, the rest): ``/ko/index.html`` -> ``("ko", "/index.html")``;
    ``/index.html`` -> ``("en", "/index.html")``."""
    head, sep, rest = path.lstrip("/").partition("/")
    if sep and head in LANGUAGES and head != DEFAULT:
        return head, "/" + rest
    return DEFAULT, path


def menu(lang: str, file: str) -> list[tuple[str, str, str, bool]]:
    """The language menu of ``file`` in ``lang``: (tag, own name, link, is this one)."""
    return [
        (other, NAMES[other], f"{up(lang)}{folder(other)}{file}?{CHOICE}={other}", other == lang)
        for other in LANGUAGES
    ]
