"""One McMahon point per grade (BGA McMahon functional specification, 4 and 4.1).

The UK "Zero shodan" scale puts 1d at 0 and each kyu one point lower (1k = -1); the European
"Zero 20 kyu" scale puts 20k and weaker at 0, so 1d is 20. Each scale has its bottom bar
(spec 6.2: 30k in the UK, 20k in most European countries): weaker players are promoted to it.
Professional ranks continue above 9d (1p = 9d + 1).
"""

from __future__ import annotations

from addin.core.european import GradeScale
from addin.core.ratings import rank_floor, rank_of

BOTTOM_BAR: dict[GradeScale, str] = {GradeScale.ZERO_SHODAN: "30k", GradeScale.ZERO_20_KYU: "20k"}
"""The rank weaker players are promoted to on each grade scale."""
ORIGIN: dict[GradeScale, int] = {GradeScale.ZERO_SHODAN: 0, GradeScale.ZERO_20_KYU: 20}
"""The McMahon points of 1d on each grade scale."""


def is_grade_scale(scale: GradeScale) -> bool:
    """True for the one-point-per-grade scales; False for the AGA bands."""
    return scale in BOTTOM_BAR


def shodan_steps(rating: float) -> int:
    """Grades above 1d: 4d -> 3, 1d -> 0, 1k -> -1, 3k -> -3, 1p -> 9."""
    rank = rank_of(rating)
    number, kind = int(rank[:-1]), rank[-1]
    if kind == "p":
        return 8 + number
    return number - 1 if kind == "d" else -number


def bottom_floor(scale: GradeScale) -> float:
    """The lowest rating of the scale's bottom bar rank."""
    return rank_floor(BOTTOM_BAR[scale])


def grade_points(rating: float, scale: GradeScale) -> int:
    """The initial McMahon score of ``rating`` on ``scale``, before the bar lowers the top."""
    steps = max(shodan_steps(rating), shodan_steps(bottom_floor(scale)))
    return steps + ORIGIN[scale]


def grade_scale_text(scale: GradeScale) -> str:
    """The scale in a TD's words, for the ``bands`` summary and the pairing notes."""
    return (
        f"{scale.value}, one point per grade (1d = {ORIGIN[scale]}; players below "
        f"{BOTTOM_BAR[scale]} start as {BOTTOM_BAR[scale]})"
    )
