"""Handicap stones and komi, as the AGA interface document specifies them.

How a game's conditions are written
-----------------------------------
In the workbook (``Game.handicap``, ``Game.komi``; komi is points White receives):

* even game: handicap 0, komi = ``Settings.komi`` (7.5 by default);
* one-stone handicap: handicap 1, komi 0.5 - no stone is placed, Black moves first and gives
  White 0.5 points ("Black giving a reverse komi of 0.5 points"), so there is no jigo;
* N-stone handicap (2..9): handicap N, komi 0.5 (AGA rules: White gets half a point).

In the AGA text report both are integers (see :func:`aga_text_komi`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from addin.core.european import BeyondNine
from addin.core.limits import MAX_KOMI
from addin.core.model import HandicapBasis, HandicapPolicy, Rules, Settings
from addin.core.ratings import rank_of, rating_gap

MAX_HANDICAP = 9
HANDICAP_KOMI = 0.5
"""Komi of every handicap game, one stone included."""


class GameConditions(NamedTuple):
    handicap: int
    komi: float


def round_half_up(value: float) -> int:
    """Nearest integer, halves upwards (2.5 -> 3).

    The interface document says "rounded to the nearest integer" without a rule for halves;
    a TD rounding by hand rounds them up, and so do we. The value is first rounded to six
    decimals so that float noise (4.3 - 1.8 = 2.4999999999999996) counts as the half it is.
    """
    return math.floor(round(value, 6) + 0.5)


def _reduce(full: int, reduction: int) -> int:
    """Reduce, never below even, then cap: 10 stones minus 1 is 9, minus 2 is 8."""
    return min(max(full - reduction, 0), MAX_HANDICAP)


def handicap_stones(stronger: float, weaker: float, policy: HandicapPolicy) -> int:
    """Stones for a game between two entry ratings (the order does not matter).

    Full handicap is the rating difference with the -1..1 gap closed, rounded to the
    nearest integer (:func:`round_half_up`); the policy then takes off 0, 1 or 2 stones,
    never below an even game; the cap of 9 applies after the reduction, which is what the
    document's table requires (-11.0 vs -1.0: 9 full, 9 minus one, 8 minus two).
    ``HandicapPolicy.NONE`` makes every game even.
    """
    if policy.reduction is None:
        return 0
    full = round_half_up(abs(rating_gap(stronger, weaker)))
    return _reduce(full, policy.reduction)


def top_band_game(settings: Settings, a_top: bool, b_top: bool) -> bool:
    """Whether 'Top band games even' speaks for a game whose players are (or are not) in the
    top band. With the rating basis (AGA) a game with a top band player is even. With the
    McMahon score basis (BGA/EGF presets) only a game of two top band players is: BGA 6.2
    plays the games above the bar even, and a game across the bar takes its score
    difference (a 20k drawn against a 6d is not an even game)."""
    if settings.handicap_basis is HandicapBasis.MMS:
        return a_top and b_top
    return a_top or b_top


def scheme_stones(
    a: float,
    b: float,
    settings: Settings,
    top_band_game: bool = False,
    scores: tuple[float, float] | None = None,
) -> int:
    """Stones for a game between entry ratings ``a`` and ``b`` under the handicap scheme
    of ``settings`` (the order does not matter).

    The basis is the rating difference (AGA, the default) or the McMahon score difference
    (``scores``, BGA spec 6.2 and OpenGotha's hdBasedOnMMS); the policy takes 0 to 3 stones
    off. ``handicap_even_from``: ratings above it count as that rating (OpenGotha's
    hdNoHdRankThreshold), so games between two such players are even; with the score
    basis a game between two players rated at or above it is even (BGA 6.2: games above
    the bar). ``handicap_ceiling`` caps the stones; with
    ``top_band_even`` a game with a top band player is even.
    """
    if top_band_game and settings.top_band_even:
        return 0
    threshold = settings.handicap_even_from
    if settings.handicap_basis is HandicapBasis.MMS:
        if scores is None:
            raise ValueError("a handicap from the McMahon score difference needs the scores")
        if threshold is not None and min(a, b) >= threshold:
            return 0
        stones = handicap_from_mms(max(scores), min(scores), settings.handicap_policy)
        return max(0, min(stones, settings.handicap_ceiling))
    if threshold is not None:
        a, b = min(a, threshold), min(b, threshold)
    policy = settings.handicap_policy
    return gap_stones(rating_gap(a, b), policy.reduction, settings.handicap_ceiling)


def gap_stones(gap: float, reduction: int | None, ceiling: int) -> int:
    """Stones of the rating basis for a rating gap (:func:`.ratings.rating_gap` of the
    ratings, each capped at ``handicap_even_from``), a game outside the top band: the
    policy's ``reduction`` (``None``: all games even), then the ``ceiling``. The pairing
    calls it with gaps precomputed per player, tens of thousands of times a round."""
    if reduction is None:
        return 0
    return max(0, min(_reduce(round_half_up(abs(gap)), reduction), ceiling))


def scheme_text(settings: Settings) -> str:
    """The handicap scheme in words, for notes: "rating difference minus 1", ..."""
    policy = settings.handicap_policy
    if policy.reduction is None or settings.handicap_ceiling <= 0:
        return "no handicap (all games even)"
    basis = (
        "McMahon score difference"
        if settings.handicap_basis is HandicapBasis.MMS
        else "rating difference"
    )
    text = f"{basis} {'in full' if policy.reduction == 0 else f'minus {policy.reduction}'}"
    if settings.handicap_ceiling < MAX_HANDICAP:
        text += f", at most {settings.handicap_ceiling}"
    if settings.handicap_even_from is not None:
        text += f", even from {rank_of(settings.handicap_even_from)}"
    return text


def game_conditions(
    white_rating: float,
    black_rating: float,
    settings: Settings,
    top_band_game: bool = False,
    scores: tuple[float, float] | None = None,
) -> GameConditions:
    """Handicap and komi for the round sheet.

    ``top_band_game``: a player of the top band is in the game; with
    ``settings.top_band_even`` such games are even whatever the handicap policy.
    ``scores``: (White's, Black's) McMahon scores, needed when the handicap comes from them.
    In a handicap game White must be the stronger player (higher rating, or higher score
    when the handicap comes from the scores): choose colours first with
    :func:`scheme_stones`; a ``ValueError`` here means the colours are the wrong way round.
    """
    stones = scheme_stones(white_rating, black_rating, settings, top_band_game, scores)
    if stones == 0:
        return GameConditions(0, settings.komi)
    if settings.handicap_basis is HandicapBasis.MMS and scores is not None:
        what, (mine, theirs) = "McMahon score", scores
        wrong = mine < theirs
    else:
        what, mine, theirs = "rating", white_rating, black_rating
        wrong = rating_gap(white_rating, black_rating) < 0
    if wrong:
        raise ValueError(
            f"a {stones}-stone handicap game needs the stronger player as White, "
            f"but White's {what} is {mine} and Black's {theirs}"
        )
    extra = beyond_nine_points(white_rating, black_rating, settings, top_band_game, scores)
    return GameConditions(stones, HANDICAP_KOMI - extra)


def beyond_nine_points(
    a: float,
    b: float,
    settings: Settings,
    top_band_game: bool = False,
    scores: tuple[float, float] | None = None,
) -> float:
    """Spec 6.2: points Black receives in place of the stones beyond 9 ("award komi points
    instead of the remaining stones": twice the even komi, 15 or 20 a stone); 0 under the
    AGA cap or with a ceiling below 9 (the TD's cap stays a cap). The komi stops at -50,
    the largest a Round sheet takes."""
    per_stone = {
        BeyondNine.TWICE_KOMI: 2 * settings.komi,
        BeyondNine.FIFTEEN: 15.0,
        BeyondNine.TWENTY: 20.0,
    }.get(settings.options.beyond_nine)
    reduction = settings.handicap_policy.reduction
    if per_stone is None or settings.handicap_ceiling < MAX_HANDICAP or reduction is None:
        return 0.0
    if top_band_game and settings.top_band_even:
        return 0.0
    threshold = settings.handicap_even_from
    if settings.handicap_basis is HandicapBasis.MMS:
        if scores is None or (threshold is not None and min(a, b) >= threshold):
            return 0.0
        full = round_half_up(abs(scores[0] - scores[1]))
    else:
        if threshold is not None:
            a, b = min(a, threshold), min(b, threshold)
        full = round_half_up(abs(rating_gap(a, b)))
    extra = max(0, full - reduction - MAX_HANDICAP) * per_stone
    return min(extra, MAX_KOMI + HANDICAP_KOMI)  # a komi the Round sheet accepts (-50)


def handicap_from_mms(
    higher_score: float,
    lower_score: float,
    policy: HandicapPolicy,
    above_bar_game: bool = False,
) -> int:
    """European option: handicap from the McMahon score difference (BGA spec 6.2).

    ``policy`` picks the style: FULL = Leamington (MMS diff), MINUS_1 = UK (diff - 1),
    MINUS_2 = European (diff - 2); NONE = all even. Games above the McMahon bar
    (``above_bar_game``) are even. Half-point differences round as in
    :func:`handicap_stones`; never below even, capped at 9 after the reduction.
    """
    if above_bar_game or policy.reduction is None:
        return 0
    full = round_half_up(abs(higher_score - lower_score))
    return _reduce(full, policy.reduction)


def aga_text_komi(handicap: int, komi: float, rules: Rules) -> tuple[int, int]:
    """The (handicap, komi) integers of a game line in the AGA text report.

    Komi is truncated towards zero (7.5 -> 7, 0.5 -> 0, -7.5 -> -7): the report's komi counts
    whole points Black gives White. Following the report's table:

    * AGA, Japanese, Chinese: even (0, 7); a no-komi or one-stone game is "no komi" (0, 0),
      so a one-stone handicap is written with handicap 0; reverse komi (0, -7); N stones (N, 0).
    * Ing: Black's first move counts as a stone, which the komi gives back: even (0, 7);
      no-komi and one-stone games (0, -1); N stones (N, -N). The table has no Ing reverse
      komi; such a game is written as under AGA rules, (0, -7).

    A komi the TD changed in a handicap game is carried over: 2 stones with komi 5.5 is
    (2, 5) under AGA rules and (2, 3) under Ing rules.
    """
    if isinstance(handicap, bool) or not isinstance(handicap, int):
        raise ValueError(f"handicap {handicap!r} is not a whole number of stones")
    if not 0 <= handicap <= MAX_HANDICAP:
        raise ValueError(f"handicap {handicap} is outside 0..{MAX_HANDICAP}")
    if not math.isfinite(komi):
        raise ValueError(f"komi {komi!r} is not a number")
    whole = math.trunc(komi)
    stones = handicap if handicap >= 2 else 0
    if rules is not Rules.ING:
        return stones, whole
    if handicap >= 2:
        return stones, whole - handicap
    if handicap == 1 or whole == 0:
        return 0, whole - 1
    return 0, whole


def komi_from_report(handicap: int, komi: int, rules: Rules, half_point: bool) -> float:
    """The model's komi for a report's (handicap, integer komi): inverse of ``aga_text_komi``.

    Under Ing rules N stones are written as komi - N and a no-komi game as -1; under the other
    rules the integer is the komi. ``half_point``: the AGA convention that an integer k means
    k.5 away from zero (6 -> 6.5, 0 -> 0.5, -7 -> -7.5), as Eggplant and the AGA read it;
    without it the integer is taken as it stands (the text report loses the half point).
    """
    whole = komi
    if rules is Rules.ING and handicap >= 1:
        whole = komi + handicap
    elif rules is Rules.ING and handicap == 0 and komi == -1:
        whole = 0
    if not half_point:
        return float(whole)
    return whole + 0.5 if whole >= 0 else whole - 0.5
