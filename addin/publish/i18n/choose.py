"""Which language ``serve`` answers a page in (standard library only, as the server is).

A page under a language's folder (``/ko/p12345.html``) is in that language: its relative
links keep the reader there. A page at the root (``/p12345.html``, where the poster's QR
codes and typed addresses lead) goes to the reader's language: the one they chose (the menu's
``?lang=xx``, kept in a cookie) or else the one their browser's ``Accept-Language`` prefers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

from addin.publish.i18n.negotiate import DEFAULT, choice, negotiate
from addin.publish.i18n.site_paths import CHOICE, folder, split

COOKIE_DAYS = 30


@dataclass(frozen=True)
class Choice:
    """What ``serve`` does about a page's language before answering it."""

    redirect: str | None
    """Where the page is in the reader's language (``/ko/index.html``); ``None``: here."""
    cookie: str | None
    """A ``Set-Cookie`` value keeping the reader's choice; ``None``: nothing to keep."""
    negotiated: bool
    """The answer depends on the request's ``Accept-Language`` and cookie (``Vary``)."""


def _cookie_choice(header: str | None) -> str | None:
    if not header:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return None
    morsel = jar.get(CHOICE)
    return choice(morsel.value) if morsel is not None else None


def choose(
    path: str, query: str, cookie: str | None, accept_language: str | None, root: str
) -> Choice:
    """The language of a GET of ``path`` (``root``: the site's folder, to check the page
    exists in that language)."""
    asked = choice((parse_qs(query).get(CHOICE) or [""])[0])
    keep = (
        f"{CHOICE}={asked}; Path=/; Max-Age={COOKIE_DAYS * 86400}; SameSite=Lax" if asked else None
    )
    lang, rest = split(path)
    page = rest == "/" or rest.endswith(".html")
    if lang != DEFAULT or not page:
        return Choice(None, keep, False)
    wanted = asked or _cookie_choice(cookie) or negotiate(accept_language)
    if wanted == DEFAULT:
        return Choice(None, keep, True)
    target = "/" + folder(wanted) + (rest.lstrip("/") or "index.html")
    if not os.path.isfile(os.path.join(root, *target.strip("/").split("/"))):
        return Choice(None, keep, True)  # not published in that language
    return Choice(target, keep, True)
