"""The frame every page of the players' site has, published or answered by the server.

The event's name, the menu, "Updated ..." and the script: the same on a page ``publish``
writes (:mod:`addin.publish.pages`) and on the page ``serve`` answers a report sent without
JavaScript with (:mod:`addin.publish.report_form`). Standard library only, as the server is.
"""

from __future__ import annotations

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
) -> str:
    """A whole page around ``body``. ``stamped``: it polls its stamp file and says when it
    was published (the placeholders :data:`STAMP` and :data:`TIME` are filled in by the
    site); ``longest``: characters of the heading shown; ``head``: more of the head."""
    current = ' aria-current="page"'
    links = "".join(
        f'<a href="{href}"{current if href == file else ""}>{label}</a>' for href, label in MENU
    )
    stamp = f' data-stamp="{STAMP}" data-stamp-file="{stamp_file(file)}"' if stamped else ""
    updated = f'<div class="updated">Updated <time>{TIME}</time></div>' if stamped else ""
    css = f' class="{html_class}"' if html_class else ""
    nav = f'<nav aria-label="Pages">{links}</nav>' if menu else ""
    return f"""<!DOCTYPE html>
<html lang="en"{css}{stamp}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{GENERATOR}
<title>{esc(heading)} - {esc(event)}</title>
<link rel="stylesheet" href="site.css">
{head}</head>
<body>
<header class="site"><div class="event">{esc(event)}</div>
{nav}
{updated}</header>
<main>
<h1>{esc(heading, longest)}</h1>
{body}
</main>
<script src="site.js"></script>
</body>
</html>
"""
