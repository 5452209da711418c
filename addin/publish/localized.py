"""The pieces of the players' pages written in the reader's language (``addin.publish.i18n``):
kept here so that the pages themselves only name a message where they wrote English."""

from __future__ import annotations

from addin.core.scoring import Outcome
from addin.publish.i18n import DEFAULT, format_number, translate
from addin.reports.model import show_score
from addin.reports.text import esc

RESULT_KEYS = {
    Outcome.WIN: "result.win",
    Outcome.FORFEIT_WIN: "result.forfeit_win",
    Outcome.LOSS: "result.loss",
    Outcome.FORFEIT_LOSS: "result.forfeit_loss",
    Outcome.DOUBLE_FORFEIT: "result.double_forfeit",
    Outcome.JIGO: "result.jigo",
    Outcome.NO_RESULT: "result.no_result",
    Outcome.PENDING: "result.pending",
    Outcome.FORCED_BYE: "result.forced_bye",
    Outcome.VOLUNTARY_BYE: "result.voluntary_bye",
    Outcome.ABSENT: "result.absent",
}
"""One player's round, as the pages say it."""


def number(value: float | None, lang: str = DEFAULT) -> str:
    """A score, komi or tiebreak as ``lang`` writes it (``6.5``, ``6,5``); ``0`` for none.
    English keeps the reports' own form (:func:`show_score`)."""
    if lang == DEFAULT or value is None:
        return show_score(value) or "0"
    return format_number(value, lang)


def conditions(handicap: int, komi: float, lang: str = DEFAULT) -> str:
    """``2 stones, komi 0.5``; ``Even, komi 7.5``: the game's handicap (plural by CLDR's
    rules for the language) and komi."""
    said = number(komi, lang)
    if not handicap:
        return translate("conditions.even", lang, komi=said)
    return translate("conditions.stones", lang, count=handicap, komi=said)


def find_box(lang: str = DEFAULT) -> str:
    """The find box the script shows (``pages.FIND``), in ``lang``."""
    return (
        f'<input type="search" id="find" class="find" '
        f'placeholder="{esc(translate("find.placeholder", lang))}" '
        f'aria-label="{esc(translate("find.label", lang))}" autocomplete="off" hidden>'
        '<p id="no-match" class="empty" role="status" hidden><span></span>'
        f'<button type="button" class="clear">{esc(translate("find.everyone", lang))}</button></p>'
    )
