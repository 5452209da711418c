"""The whole site as files in memory: ``build_site(tournament, ...) -> Site`` (pure).

The stamp is a digest of every page as built (before the time is filled in), so a
publication that changes nothing keeps the stamp and open pages do not reload for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from addin.core.model import Tournament
from addin.core.scoring import player_records
from addin.core.tiebreaks import TiebreakContext
from addin.publish import assets, pages
from addin.publish.explain import bye_reasons
from addin.reports.common import paired_rounds, standings_after

STAMP_FILE = "stamp.js"


@dataclass(frozen=True)
class Site:
    files: dict[str, bytes]
    """File name -> content; ``stamp.js`` is not among them (it is written last)."""
    stamp: str
    round: int
    players: int

    @property
    def stamp_file(self) -> bytes:
        return assets.stamp_script(self.stamp).encode("utf-8")


def site_data(t: Tournament, log: Sequence[tuple[str, str]] = ()) -> pages.SiteData:
    """Everything the pages show, after the last round paired. Raises ``ReportError``
    when the Tournament's tiebreak order cannot be read."""
    done = paired_rounds(t)
    current = done[-1] if done else 0
    return pages.SiteData(
        tournament=t,
        round=current,
        records=player_records(t, current),
        standings=standings_after(t, current),
        context=TiebreakContext(t, current),
        bye_reasons=bye_reasons(log),
    )


def build_site(t: Tournament, published: datetime, log: Sequence[tuple[str, str]] = ()) -> Site:
    """Every file of the site. ``log``: the Log's (level, message) lines, for the forced
    byes' reasons."""
    data = site_data(t, log)
    html = {
        "index.html": pages.pairings_page(data),
        "standings.html": pages.standings_page(data),
        "crosstable.html": pages.crosstable_page(data),
        "event.html": pages.event_page(data),
        "report.html": pages.report_page(data),
    }
    for number in range(1, data.round):
        html[pages.pairings_file(data, number)] = pages.pairings_page(data, number)
    for pid in sorted(data.records):
        html[pages.player_file(pid)] = pages.player_page(data, pid)
    digest = hashlib.sha256()
    for name in sorted(html):
        digest.update(name.encode() + b"\x00" + html[name].encode("utf-8", "replace") + b"\x00")
    stamp = digest.hexdigest()[:20]
    when = published.strftime("%Y-%m-%d %H:%M")
    files = {
        name: text.replace(pages.STAMP, stamp).replace(pages.TIME, when).encode("utf-8")
        for name, text in html.items()
    }
    files["site.css"] = assets.CSS.encode("utf-8")
    files["site.js"] = assets.SCRIPT.encode("utf-8")
    return Site(files, stamp, data.round, len(data.records))
