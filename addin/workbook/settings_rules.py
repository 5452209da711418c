"""The Tournament sheet's settings checked against the AGA rules, each problem on its cell."""

from __future__ import annotations

from addin.core.model import Settings
from addin.core.tiebreaks import TiebreakError, resolve, resolve_order
from addin.workbook.gateway import Problem

TIEBREAK_LABEL = "Tiebreak order"


def is_extra(name: str) -> bool:
    """A tiebreak written in parentheses, "(CUSP)": an extra column that breaks no tie."""
    text = name.strip()
    return text.startswith("(") and text.endswith(")")


def tiebreak_problems(settings: Settings, sheet: str, cell: str | None) -> list[Problem]:
    """Unknown tiebreaks, and raw-wins tiebreaks in the official order.

    The AGA interface document: "under no circumstances can tiebreaks be based upon a
    player's raw score (number of wins)". Wins and CUSP are allowed only as extra,
    labelled columns, written in parentheses.
    """
    problems: list[Problem] = []

    def problem(message: str) -> None:
        problems.append(Problem(sheet, message, cell, TIEBREAK_LABEL))

    for name in settings.tiebreaks:
        try:
            tb = resolve(name)
        except TiebreakError as err:
            problem(str(err))
            continue
        if tb.uses_raw_wins:
            problem(
                f"{name!r} breaks ties on raw wins, which the AGA rules forbid (tiebreaks "
                f"must follow the McMahon score); write it in parentheses, ({name}), to show "
                "it as an extra column that breaks no tie"
            )
    for name in settings.extra_columns:
        try:
            resolve(name)
        except TiebreakError as err:
            problem(str(err))
    if not problems:
        try:
            resolve_order(settings.tiebreaks)
        except TiebreakError as err:
            problem(str(err))
    return problems
