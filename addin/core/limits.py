"""The ranges every value from the TD, a file or the command line must lie in.

One place, so that the Settings sheet, the Round sheets, the command line and the file
readers refuse the same things with the same words. Sizes are bounded before anything is
allocated from them: a round number of a million in a file must be a message, not a
MemoryError.
"""

from __future__ import annotations

import math

MAX_ROUNDS = 30
"""The most rounds a tournament may have (the Settings sheet's Number of rounds)."""

MAX_KOMI = 50.0
"""Komi lies within -50..50, in half points."""

MAX_BASIC_TIME = 1_440
"""Main time per player, in minutes: at most a day (title matches play eight hours)."""

BAND_D = (0.01, 100.0)
"""The band parameter D: above 0; past 100 every separation is already its most, R/3."""

MAX_AVOIDANCE_POINTS = 100
"""The largest "Avoidance may cost (points)" (OpenGotha's preferMMSDiffRatherThanSameClub)."""

MAX_SEED = 999_999_999_999
"""The Random seed: any whole number a cell holds exactly (Excel keeps 15 digits)."""

MAX_SCORE = 1_000_000.0
"""A McMahon score (and so an initial one) lies within a million points either way. Far
beyond any band plan: AGA band separations grow with the field and shrink with the rounds
(a 2,000-player, 10-round demo starts its lowest band 101 points down; 10,000 players in one
round, with D at 5, would spread 50,000). Near enough that the pairing's sums of squared
differences stay exact; 1e308 would make them infinite."""


def number_said(number: float) -> str:
    """A bound as a message says it: ``1,000,000``, ``-7.5``."""
    return f"{number:,.0f}" if float(number).is_integer() else f"{number:g}"


MAX_SHOWN = 200
"""At most this many characters of an offending value are quoted in a message."""


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """``repr(value)`` cut to ``limit`` characters: a hostile value is named, never echoed."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


MAX_SAID = 60
"""A text said in a line of output (a name, a chapter) longer than this is cut."""


def cut(text: str, limit: int = MAX_SAID) -> str:
    """``text`` as said in a line of output: a long one cut, its length named."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def komi_problem(komi: float) -> str | None:
    """Why ``komi`` is not a komi, or ``None`` when it is one."""
    if not math.isfinite(komi) or abs(komi) > MAX_KOMI:
        return f"komi {komi:g} is not between {-MAX_KOMI:g} and {MAX_KOMI:g}"
    if (komi * 2) != int(komi * 2):
        return f"komi {komi:g} is not in half points (7.5, 0.5, 6, -7.5)"
    return None


MAX_AGA_ID = 99_999
"""AGA numbers are 1 to 99999 (temporary ones 90000-99999); a larger one is no member's."""

MAX_AGA_FEE = 5000.0
"""The largest membership fee in dollars (a life membership is well below it)."""


def fee_problem(fee: float) -> str | None:
    """Why ``fee`` is not a membership fee in dollars, or ``None`` when it is one."""
    if not math.isfinite(fee) or not 0 <= fee <= MAX_AGA_FEE:
        return f"{fee:g} is not an amount from 0 to {MAX_AGA_FEE:,.0f} dollars"
    if abs(round(fee * 100) - fee * 100) > 1e-6:
        return f"{fee:g} has more than two decimals (dollars and cents)"
    return None
