"""AGA ranks and ratings: the one parser every reader uses.

The AGA scale has dan ratings at 1.0 and above and kyu ratings at -1.0 and below; nothing
lies strictly between -1 and 1. A rank covers one unit of rating:

* ``Nd`` is ``N <= r < N + 1`` (4.2 is 4d), entered at its midpoint ``N + 0.5``;
* ``Nk`` is ``-(N + 1) < r <= -N`` (-1.0 and -1.99 are 1k, -2.0 is 2k), entered at ``-(N + 0.5)``;
* ``Np`` (professional) lies above every amateur rank, ``10.0 <= r < 11.0``, entered at
  ``10 + N / 10``. See :func:`parse_rating` for why.

The weakest rank accepted is 50k: the AGA list holds ratings down to about -49.7.
"""

from __future__ import annotations

import math
import re
from numbers import Real

from addin.core.limits import shown
from addin.core.model import Player

MAX_KYU = 50
MAX_DAN = 9
MAX_PRO = 9
PRO_BASE = 10.0
"""Rating at which the professional ranks start (just above 9d)."""
PRO_STEP = 0.1
"""Rating distance between consecutive professional ranks."""
RATING_MIN = -(MAX_KYU + 1.0)
"""Exclusive lower bound of a rating (the bottom of 50k)."""
RATING_MAX = PRO_BASE + 1.0
"""Exclusive upper bound of a rating (the top of 9p)."""
RATING_RESOLUTION = 1e-5
"""AGA ratings carry five decimals; the greatest rating below a kyu rank is this far under it."""

_RANK = re.compile(r"(\d{1,2})\s*(k|kyu|d|dan|p|pro)", re.IGNORECASE)
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
_EXPECTED = (
    "expected a rank such as 3k, 3 kyu, 4d, 4 dan or 1p, "
    f"or an AGA rating above {RATING_MIN:g} and below {RATING_MAX:g}, not between -1 and 1"
)


class RatingError(ValueError):
    """A value that is neither an AGA rank nor an AGA rating."""

    def __init__(self, value: object, reason: str = "") -> None:
        self.value = value
        self.reason = reason
        detail = f" ({reason})" if reason else ""
        super().__init__(f"{shown(value)} is not a rank or rating{detail}: {_EXPECTED}")


def is_valid_rating(rating: float) -> bool:
    """True for a finite rating on the AGA scale (outside -1..1, within the accepted range)."""
    return (
        math.isfinite(rating)
        and RATING_MIN < rating < RATING_MAX
        and (rating <= -1.0 or rating >= 1.0)
    )


def _check(rating: float, original: object) -> float:
    if not math.isfinite(rating):
        raise RatingError(original, "not a finite number")
    if -1.0 < rating < 1.0:
        raise RatingError(original, "AGA ratings have no values strictly between -1 and 1")
    if not RATING_MIN < rating < RATING_MAX:
        raise RatingError(original, "outside the AGA scale")
    return float(rating)


def _rank_rating(number: int, kind: str, original: object) -> float:
    kind = kind[0].lower()
    if kind == "k":
        if not 1 <= number <= MAX_KYU:
            raise RatingError(original, f"kyu ranks run from 1k to {MAX_KYU}k")
        return -(number + 0.5)
    if kind == "d":
        if not 1 <= number <= MAX_DAN:
            raise RatingError(original, f"dan ranks run from 1d to {MAX_DAN}d")
        return number + 0.5
    if not 1 <= number <= MAX_PRO:
        raise RatingError(original, f"professional ranks run from 1p to {MAX_PRO}p")
    return PRO_BASE + number * PRO_STEP


def parse_rating(value: object) -> float:
    """The entry rating of a rank ("3k", "4 dan", "1p") or a rating ("-3.45", 4.5).

    A rank enters at its midpoint: 4d is 4.5, 3k is -3.5 (AGA interface document,
    Registration). Case, inner spaces and the long forms "kyu"/"dan"/"pro" are accepted.

    Professional ranks map to ``10 + N/10`` (1p = 10.1 ... 9p = 10.9): above every amateur
    rank, as in the AGA ratings list where active professionals are rated about 10.0 to 10.4,
    and a tenth of a stone apart, so games between professionals stay even and a 9p gives a
    9d amateur (9.5) one stone at full handicap. The AGA scale has no official pro mapping.

    Raises :class:`RatingError` for empty or malformed text, ranks beyond 50k, 9d or 9p,
    booleans, non-finite numbers, ratings strictly between -1 and 1 and ratings outside
    ``RATING_MIN < r < RATING_MAX``.
    """
    if isinstance(value, bool):
        raise RatingError(value, "a true/false value")
    if isinstance(value, Real):
        return _check(float(value), value)
    if not isinstance(value, str):
        raise RatingError(value, f"a {type(value).__name__}")
    text = value.strip()
    if not text:
        raise RatingError(value, "empty")
    if match := _RANK.fullmatch(text):
        return _rank_rating(int(match.group(1)), match.group(2), value)
    if _NUMBER.fullmatch(text):
        return _check(float(text), value)
    raise RatingError(value)


def is_rating_text(text: str) -> bool:
    """Whether ``text`` is written as a rating (a number such as -3.45), not as a rank."""
    return bool(_NUMBER.fullmatch(text.strip()))


def rank_of(rating: float) -> str:
    """The rank label of a rating: "3k" for -3.5, "4d" for 4.2, "1k" for -1.0 to -1.99..."""
    rating = _check(float(rating), rating)
    if rating >= PRO_BASE:
        number = math.floor(round((rating - PRO_BASE) / PRO_STEP, 9) + 0.5)
        return f"{min(max(number, 1), MAX_PRO)}p"
    if rating >= 1.0:
        return f"{math.floor(rating)}d"
    return f"{math.floor(-rating)}k"


def rank_floor(rank: str) -> float:
    """The lowest rating that carries ``rank`` (a band or bar starting at that rank).

    4d -> 4.0; 3k -> -3.99999 (-4.0 itself is 4k); 1p -> 10.0.
    """
    midpoint = parse_rating(rank)
    if not _RANK.fullmatch(rank.strip()):
        raise RatingError(rank, "a rank is needed here, not a rating")
    label = rank_of(midpoint)
    if label.endswith("p"):
        number = int(label[:-1])
        return PRO_BASE if number == 1 else round(PRO_BASE + (number - 0.5) * PRO_STEP, 10)
    if label.endswith("d"):
        return float(int(label[:-1]))
    return -(int(label[:-1]) + 1.0) + RATING_RESOLUTION


def closed_rating(rating: float) -> float:
    """The rating with the -1..1 gap closed (1.5 -> 0.5, -1.5 -> -0.5): gaps between
    ratings are differences of these (checked like every rating)."""
    rating = _check(float(rating), rating)
    return rating - 1.0 if rating > 0 else rating + 1.0


def rating_gap(a: float, b: float) -> float:
    """``a - b`` on the AGA scale with the -1..1 gap closed: 1.5 vs -1.5 is 1.0, not 3.0."""
    return closed_rating(a) - closed_rating(b)


def entry_rating(player: Player) -> float:
    """The player's entry rating: ``rating`` when set, else the midpoint of ``rank``.

    Raises :class:`RatingError` (naming the player) when neither gives a rating.
    """
    try:
        if player.rating is not None:
            return parse_rating(player.rating)
        return parse_rating(player.rank)
    except RatingError as error:
        raise RatingError(
            player.rating if player.rating is not None else player.rank,
            "; ".join(
                filter(
                    None, [f"entry rating of player {player.aga_id} {player.name}", error.reason]
                )
            ),
        ) from error
