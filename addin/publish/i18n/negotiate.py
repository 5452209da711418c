"""Which of the site's languages a reader gets: their ``Accept-Language``, or their own choice
(standard library only: the server uses it)."""

from __future__ import annotations

LANGUAGES = ("en", "ko", "zh-Hans", "zh-Hant", "ja", "es", "fr", "de")
"""Every language the players' pages are written in (BCP 47 tags; also the site's folders)."""
DEFAULT = "en"
NAMES = {
    "en": "English",
    "ko": "한국어",
    "zh-Hans": "简体中文",
    "zh-Hant": "繁體中文",
    "ja": "日本語",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
}
"""Each language by its own name, as the language menu shows it."""

_TRADITIONAL_REGIONS = {"tw", "hk", "mo"}


def language_of(tag: str) -> str | None:
    """The site's language for one language tag (``zh-TW`` -> ``zh-Hant``, ``zh`` and
    ``zh-CN`` -> ``zh-Hans``, ``de-AT`` -> ``de``); ``None`` for one the site lacks."""
    parts = tag.strip().lower().replace("_", "-").split("-")
    if not parts or not parts[0]:
        return None
    if parts[0] == "zh":
        rest = set(parts[1:])
        if "hant" in rest or (rest & _TRADITIONAL_REGIONS and "hans" not in rest):
            return "zh-Hant"
        return "zh-Hans"
    return parts[0] if parts[0] in LANGUAGES else None


def choice(text: str | None) -> str | None:
    """A reader's explicit choice (``?lang=ko``, a cookie): the site's language, or ``None``."""
    if not text:
        return None
    exact = {lang.lower(): lang for lang in LANGUAGES}
    return exact.get(text.strip().lower()) or language_of(text)


def negotiate(accept_language: str | None, default: str = DEFAULT) -> str:
    """The site's language a browser's ``Accept-Language`` prefers most (q-values weigh; a
    tie keeps the header's order); ``default`` when it names none of them."""
    best: tuple[float, int, str] | None = None
    for order, item in enumerate((accept_language or "").split(",")):
        tag, _, params = item.partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = language_of(tag) if tag.strip() != "*" else None
        if lang is None or not 0 < q <= 1:
            continue
        if best is None or (q, -order) > (best[0], -best[1]):
            best = (q, order, lang)
    return best[2] if best is not None else default
