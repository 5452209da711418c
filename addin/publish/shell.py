"""The frame every page of the players' site has, published or answered by the server.

The event's name, the menu, "Updated ..." and the script: the same on a page ``publish``
writes (:mod:`addin.publish.pages`) and on the page ``serve`` answers a report sent without
JavaScript with (:mod:`addin.publish.report_form`). Standard library only, as the server is.
"""

from __future__ import annotations

from addin.publish.i18n import DEFAULT, translate
from addin.publish.i18n.site_paths import menu as language_menu
from addin.publish.i18n.site_paths import up
from addin.reports.text import esc

GENERATOR = '<meta name="generator" content="AGA Swiss McMahon add-in">'
"""In every page's head: how ``publish`` knows a folder it wrote before its stamp was."""

STAMP = "\x00stamp\x00"
TIME = "\x00time\x00"
"""Placeholders no page text can hold (control characters are cleaned out of all text)."""

MENU = (
    ("index.html", "Pairings"),
    ("standings.html", "Standings"),
    ("crosstable.html", "Cross table"),
    ("event.html", "Event"),
    ("report.html", "Report a result"),
)
MENU_KEYS = ("menu.pairings", "menu.standings", "menu.crosstable", "menu.event", "menu.report")
"""Each menu entry's message (:mod:`addin.publish.i18n`), in :data:`MENU`'s order."""


def stamp_file(page: str) -> str:
    """The file holding ``page``'s stamp: ``p12345.html`` -> ``p12345.stamp.js``."""
    return page.removesuffix(".html") + ".stamp.js"


def page(
    event: str,
    file: str,
    heading: str,
    body: str,
    *,
    stamped: bool = True,
    longest: int = 120,
    head: str = "",
    html_class: str = "",
    menu: bool = True,
    lang: str = DEFAULT,
) -> str:
    """A whole page around ``body``. ``stamped``: it polls its stamp file and says when it
    was published (the placeholders :data:`STAMP` and :data:`TIME` are filled in by the
    site); ``longest``: characters of the heading shown; ``head``: more of the head;
    ``lang``: the language of the page's own words (its menu, "Updated"), and the folder
    it is in (``addin.publish.i18n.site_paths``)."""
    current = ' aria-current="page"'
    links = "".join(
        f'<a href="{href}"{current if href == file else ""}>{esc(translate(key, lang))}</a>'
        for (href, _), key in zip(MENU, MENU_KEYS, strict=True)
    )
    stamp = f' data-stamp="{STAMP}" data-stamp-file="{stamp_file(file)}"' if stamped else ""
    updated = (
        f'<div class="updated">{esc(translate("shell.updated", lang))} <time>{TIME}</time></div>'
        if stamped
        else ""
    )
    css = f' class="{html_class}"' if html_class else ""
    nav = f'<nav aria-label="{esc(translate("shell.pages", lang))}">{links}</nav>' if menu else ""
    footer = ""
    if menu:  # the language menu at the foot, a link to it at the top: the board stays high
        jump = translate("shell.language", lang) + ("" if lang == DEFAULT else " / Language")
        updated = (
            f'<div class="bar">{updated}<a class="lang-jump" href="#languages">{esc(jump)}</a>'
            "</div>"
        )
        footer = f'<footer class="site">{languages(lang, file)}</footer>\n'

    root = up(lang)
    return f"""<!DOCTYPE html>
<html lang="{lang}"{css}{stamp}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{GENERATOR}
<title>{esc(heading)} - {esc(event)}</title>
<link rel="stylesheet" href="{root}site.css">
{head}</head>
<body>
<header class="site"><div class="event">{esc(event)}</div>
{nav}
{updated}</header>
<main>
<h1>{esc(heading, longest)}</h1>
{body}
</main>
{footer}<script src="{root}site.js"></script>
</body>
</html>
"""


def languages(lang: str, file: str) -> str:
    """The language menu: plain links (no script), each language by its own name, to the
    same page in that language."""
    links = "".join(
        f'<a href="{href}" hreflang="{tag}" lang="{tag}"'
        + (' aria-current="true"' if chosen else "")
        + f">{esc(name)}</a>"
        for tag, name, href, chosen in language_menu(lang, file)
    )
    label = esc(translate("shell.language", lang))
    return f'<nav class="languages" id="languages" aria-label="{label}">{links}</nav>'
