"""The whole site as files in memory: ``build_site(tournament, ...) -> Site`` (pure).

Each page has its own stamp: a digest of the page as built (before its stamp and the time
are filled in) and of the style sheet and script, written in the page (``data-stamp``) and
in the page's stamp file (``index.stamp.js``, ``p12345.stamp.js``), which an open page
polls. A page reloads only when its own content changed: a new result in round 3 reloads
round 3's pairings, the standings, the cross table and the two players' pages, not every
other player's page nor an earlier round's pairings; a publication that changes nothing
keeps every stamp. ``stamp.js`` holds the site's stamp (a digest of every page's) under
:data:`assets.STAMP_MARK`, the mark ``publish`` knows its folder by.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from addin.core.model import Tournament
from addin.core.scoring import player_records
from addin.core.tiebreaks import TiebreakContext
from addin.publish import assets, pages
from addin.publish.explain import bye_reasons
from addin.publish.i18n import DEFAULT, LANGUAGES
from addin.publish.i18n.site_paths import folder
from addin.reports.common import paired_rounds, standings_after
from addin.reports.projected import Projections

STAMP_FILE = "stamp.js"


@dataclass(frozen=True)
class Site:
    files: dict[str, bytes]
    """File name -> content: the pages, style sheet and script; no stamp file."""
    stamp: str
    round: int
    players: int
    """The players ranked (a player who never came has a page, but no place)."""
    page_stamps: dict[str, bytes] = field(default_factory=dict)
    """Each page's stamp file (``index.stamp.js``...), written after every page."""

    @property
    def stamp_file(self) -> bytes:
        return assets.stamp_script(self.stamp).encode("utf-8")


def site_data(
    t: Tournament,
    log: Sequence[tuple[str, str]] = (),
    states: Mapping[int, str] | None = None,
    projection: Projections | None = None,
) -> pages.SiteData:
    """Everything the pages show, after the last round paired. Raises ``ReportError``
    when the Tournament's tiebreak order cannot be read. ``projection``: each player's
    projected AGA rating (unofficial; ``None``: not shown)."""
    done = paired_rounds(t)
    current = done[-1] if done else 0
    return pages.SiteData(
        tournament=t,
        round=current,
        records=player_records(t, current),
        standings=standings_after(t, current),
        context=TiebreakContext(t, current),
        bye_reasons=bye_reasons(log),
        states=dict(states or {}),
        projection=projection,
    )


def build_site(
    t: Tournament,
    published: datetime,
    log: Sequence[tuple[str, str]] = (),
    states: Mapping[int, str] | None = None,
    projection: Projections | None = None,
    languages: Sequence[str] = LANGUAGES,
) -> Site:
    """Every file of the site. ``log``: the Log's (level, message) lines, for the forced
    byes' reasons; ``states``: the round in play's report states by board, as the reports
    kept beside the workbook stand (``board_reports.desk_states``); ``projection``: the
    projected AGA ratings the player pages and the standings page show (unofficial);
    ``languages``: the site's languages, English at its root and each other in a folder of
    its own (``ko/index.html``: ``addin.publish.i18n.site_paths``)."""
    data = site_data(t, log, states, projection)
    html: dict[str, str] = {}
    for lang in dict.fromkeys((DEFAULT, *languages)):
        pages_of = _pages(replace(data, lang=lang))
        html.update((folder(lang) + name, text) for name, text in pages_of.items())
    # The time stays ISO 8601 (2026-11-29 05:33) in every language: the pages' script
    # writes the stamp file's time into the page as it polls (assets.page_stamp_script).
    when = published.strftime("%Y-%m-%d %H:%M")
    own = {name: page_stamp(text) for name, text in html.items()}
    site = hashlib.sha256()
    for name in sorted(own):
        site.update(f"{name}\x00{own[name]}\x00".encode())
    files = {
        name: text.replace(pages.STAMP, own[name]).replace(pages.TIME, when).encode("utf-8")
        for name, text in html.items()
    }
    files["site.css"] = assets.CSS.encode("utf-8")
    files["site.js"] = assets.SCRIPT.encode("utf-8")
    stamps = {
        pages.stamp_file(name): assets.page_stamp_script(own[name], when).encode("utf-8")
        for name in html
    }
    return Site(files, site.hexdigest()[:20], data.round, len(data.standings), stamps)


def _pages(data: pages.SiteData) -> dict[str, str]:
    """Every page of the site in ``data``'s language, by file name."""
    html = {
        "index.html": pages.pairings_page(data),
        "standings.html": pages.standings_page(data),
        "crosstable.html": pages.crosstable_page(data),
        "event.html": pages.event_page(data),
        "report.html": pages.report_page(data),
        pages.HALL_FILE: pages.hall_page(data),
        pages.HALL_BOARDS_FILE: pages.hall_page(data, by_board=True),
    }
    for number in range(1, data.round):
        html[pages.pairings_file(data, number)] = pages.pairings_page(data, number)
    for pid in sorted(data.records):
        html[pages.player_file(pid)] = pages.player_page(data, pid)
    return html


def page_stamp(text: str) -> str:
    """A page's stamp: its text as built (placeholders, not their values) and the style
    sheet and script it uses, so a new version of either reloads every page too."""
    digest = hashlib.sha256()
    for part in (text, assets.CSS, assets.SCRIPT):
        digest.update(part.encode("utf-8", "replace") + b"\x00")
    return digest.hexdigest()[:20]
