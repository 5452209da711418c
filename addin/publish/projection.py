"""The projected AGA rating on the phone site: "if the event ended now", marked unofficial
(pure HTML text from the figures the ``publish`` action computed; no file, no sheet).

A player's page has a section of its own (rating before, projected rating, the change); the
standings page a table of every ranked player's. Both read with JavaScript off (plain HTML),
and the find box filters the table's rows like the standings' (``data-find``); its rows are
marked ``class="projected"``, apart from the standings' own. A player
without a rated game has blank figures and is told why; with the Tournament setting
"Projected ratings" at No, or a TDListA the projection cannot use, neither appears.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from addin.reports.projected import (
    CHANGE_NOTE,
    UNOFFICIAL,
    ProjectedRating,
    change_text,
    rank_text,
    rating_text,
)
from addin.reports.text import esc

ANCHOR = "projected"
"""The standings page's section: ``standings.html#projected``."""
HEADING = "AGA rating if the event ended now"
MARK = '<span class="tag">unofficial</span>'


@dataclass(frozen=True)
class Row:
    """One line of the standings page's table."""

    who: str
    """The player's link (HTML)."""
    find: str
    """The row's ``data-find`` key."""
    figures: ProjectedRating | None


def _with_rank(value: float | None) -> str:
    rank = rank_text(value)
    return rating_text(value) + (f" ({rank})" if rank else "")


def _change_words(change: float | None) -> str:
    if change is None:
        return ""
    text = change_text(change)
    if text == "0.00":
        return "no change"
    return f"{text} stone{'' if text in ('+1.00', '-1.00') else 's'}"


def player_section(figures: ProjectedRating | None) -> str:
    """A player's page: "AGA rating if the event ended now", rating before, projected, the
    change, marked unofficial; without a rated game, says so."""
    found = figures or ProjectedRating(None, None, None)
    before = (
        esc(_with_rank(found.before))
        if found.before is not None
        else "none in the AGA list (a new member: rated from the rank entered)"
    )
    if found.rating is None:
        facts = (
            f'<dl class="projected"><dt>Rating before</dt><dd>{before}</dd></dl>'
            '<p class="empty">No rated game yet: the projection starts with your first rated '
            "game (byes, forfeits and games not yet played are not rated).</p>"
        )
    else:
        pairs = [
            ("Rating before", before),
            ("Projected rating", f"<strong>{esc(_with_rank(found.rating))}</strong>"),
            ("Change", esc(_change_words(found.change))),
            ("Projected sigma", esc(rating_text(found.sigma))),
        ]
        facts = (
            '<dl class="projected">'
            + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in pairs if v)
            + "</dl>"
        )
    return (
        '<section class="projection" aria-labelledby="projection-h">'
        f'<h2 id="projection-h">{HEADING} {MARK}</h2>'
        + facts
        + f'<p class="notes">{esc(UNOFFICIAL, 600)} '
        f'<a href="standings.html#{ANCHOR}">Everyone&rsquo;s projection</a></p>'
        "</section>"
    )


def standings_jump() -> str:
    """The link near the top of the standings page to the projection's table."""
    return f'<p class="jump"><a href="#{ANCHOR}">{HEADING} (unofficial)</a></p>'


def standings_section(rows: Sequence[Row]) -> str:
    """The standings page: each ranked player's rating before, projected ("After": after the
    event, if it ended now) and the change, in the standings' order, marked unofficial."""
    body = "".join(
        f'<tr class="projected" data-find="{r.find}"><td class="name">{r.who}</td>'
        f'<td class="num">{esc(rating_text(r.figures.before if r.figures else None))}</td>'
        f'<td class="num">{esc(rating_text(r.figures.rating if r.figures else None))}</td>'
        f'<td class="num">{esc(change_text(r.figures.change if r.figures else None))}</td></tr>'
        for r in rows
    )
    return (
        f'<section aria-labelledby="{ANCHOR}"><h2 id="{ANCHOR}">{HEADING} {MARK}</h2>'
        f'<p class="notes">{esc(UNOFFICIAL, 600)} {esc(CHANGE_NOTE, 600)}</p>'
        '<div class="scroll"><table class="grid projected"><thead><tr><th>Name</th>'
        '<th class="num">Before</th><th class="num">After</th>'
        f'<th class="num">Change</th></tr></thead><tbody>{body}</tbody></table></div>'
        "</section>"
    )
