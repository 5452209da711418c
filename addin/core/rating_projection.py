"""The AGA rating update, projected: what an event will do to each player's AGA rating.

The method the AGA publishes (Matthews; Waldron: "AGA Ratings: the math"), with the constants
the AGA's program (BayRate) uses -- the handicap equivalents, the initial-sigma table, the
self-promotion and time-growth coefficients, numbers of the method read from its source --
in code of this project's own, checked against that program run as an oracle
(benchmarks/bench_ratings.py). The method, in the order it is applied:

1. **Seed** (the prior's mean): the rank a player entered at, mid-rank: ``3k`` is -3.5,
   ``2d`` is 2.5. A member with a rating keeps the rating as the seed unless they promoted
   themselves (below); nobody is seeded below their rating (no self-demotion).
2. **Prior sigma**: the TDListA sigma, widened for the days since the rating's date
   (``sqrt(sigma^2 + (0.0005 * days)^2)``; an unknown date, or one after the event, counts as
   no days). A player with no
   rating or no sigma (a new member, an unrated one) takes the method's initial sigma for the
   seed: about 1.0 for a 5 dan, 2.9 for a 20 kyu, 6.0 below 50 kyu.
3. **Self-promotion** (the rank entered is above the rating by ``delta`` stones, counted across
   the kyu/dan gap) applies only to a player who wins a game in the event: by 3 stones or more,
   the player is reseeded as new at the rank entered; by 1 to 3 stones the seed moves a third
   of the way (``rating + 0.024746 + 0.32127 * delta``) and the sigma grows
   (``sqrt(sigma^2 + 0.256 * delta^1.9475)``). Otherwise the rating is the seed.
4. **Each game** is worth a rating difference and a spread from its handicap and komi (the
   whole-point komi of the AGA report): even or one stone ``0.580 - 0.0757 * komi``, spread
   ``1.0649 - 0.0021976 * komi + 0.00014984 * komi^2``; N stones ``N - 0.0757 * komi``, spread
   ``STONE_SPREAD[N] - 0.0035169 * komi``. White wins with probability
   ``Phi((white - black - difference) / spread)``.
5. **The kyu/dan gap** is closed while computing (every rating moves one stone towards zero,
   so 1k and 1d are one stone apart) and opened again after: no rating lies between -1 and 1.
6. **The new ratings** maximise the posterior (the seeds' normal priors times every game's
   probability). The AGA program uses a quasi-Newton minimiser and, when it fails, a simplex
   search from the seeds; here Newton's method (the posterior is log-concave, so its maximum is
   unique), and when Newton stalls, a coordinate-wise search from the seeds that cannot fail
   (``_coordinate_ascent``): both reach the same maximum.
7. **The new sigma** of each player: the spread of the posterior along that player's rating,
   the others held at their new ratings, integrated numerically over 100 points a tenth of the
   prior sigma apart around the new rating.

Games not rated: forfeits, double forfeits, jigo, no result, games not played, byes (the AGA
report leaves them out), and games the AGA's own checks exclude (more than 9 stones; a
handicap game with komi of 10 or more either way; an even game with komi of -20 or less).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import Enum

from addin.core.handicap import aga_text_komi
from addin.core.model import Color, Game, PlayerId, Result, Rules

SIGMA_GROWTH_PER_DAY = 0.0005
"""How much a rating's sigma grows a day since it was last rated (in quadrature)."""

STONE_SPREAD = {
    2: 1.13672,
    3: 1.18795,
    4: 1.22841,
    5: 1.27457,
    6: 1.31978,
    7: 1.35881,
    8: 1.39782,
    9: 1.43614,
}
"""The spread of an N-stone game's outcome before the komi correction."""

_INITIAL_SIGMA_RATINGS = tuple(x + 0.5 for x in range(-50, 9))
_INITIAL_SIGMA = (
    5.73781, 5.63937, 5.54098, 5.44266, 5.34439, 5.24619, 5.14806, 5.05000, 4.95202, 4.85412,
    4.75631, 4.65859, 4.56098, 4.46346, 4.36606, 4.26878, 4.17163, 4.07462, 3.97775, 3.88104,
    3.78451, 3.68816, 3.59201, 3.49607, 3.40037, 3.30492, 3.20975, 3.11488, 3.02035, 2.92617,
    2.83240, 2.73907, 2.64622, 2.55392, 2.46221, 2.37118, 2.28090, 2.19146, 2.10297, 2.01556,
    1.92938, 1.84459, 1.76139, 1.68003, 1.60078, 1.52398, 1.45000, 1.37931, 1.31244, 1.25000,
    1.19269, 1.14127, 1.09659, 1.05948, 1.03078, 1.01119, 1.00125, 1.00000, 1.00000,
)  # fmt: skip
"""The method's initial sigma of a new player by closed-gap rating (-49.5 .. 8.5, mid-ranks),
from the AGA's calibration of its former (Accelrat) system; between points, a natural cubic
spline."""

SELF_PROMOTION_RESEED = 3.0
"""A self-promotion by this many stones or more is a reseeding: the player counts as new."""

_SQRT2 = math.sqrt(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


class Seeding(Enum):
    """How a player's prior was set (the projection says which)."""

    RATED = "rated"
    NEW = "new"
    """No rating or no sigma: seeded from the rank with the method's initial sigma."""
    PROMOTED = "self-promoted"
    RESEEDED = "reseeded"
    """Self-promoted by 3 stones or more and won a game: seeded as new at the rank entered."""


@dataclass(frozen=True)
class Entrant:
    """A player as the rating update sees them before the event."""

    player: PlayerId
    seed: float
    """The rank entered, mid-rank (``3k`` = -3.5, ``2d`` = 2.5): see :func:`seed_of_rank`."""
    rating: float | None = None
    """The TDListA rating, if any."""
    sigma: float | None = None
    """The TDListA sigma, if any (must be above 0)."""
    rated_on: date | None = None
    """The TDListA rating date, if known."""


@dataclass(frozen=True)
class RatedGame:
    """A game the AGA rates, in the report's whole-number handicap and komi."""

    white: PlayerId
    black: PlayerId
    handicap: int
    komi: int
    white_wins: bool


@dataclass(frozen=True)
class Prior:
    seed: float
    sigma: float
    seeding: Seeding


@dataclass(frozen=True)
class Projection:
    player: PlayerId
    prior: Prior
    rating: float
    sigma: float


class ProjectionError(ValueError):
    """Input the method cannot rate (the message names the player or game)."""


def seed_of_rank(rating: float) -> float:
    """The mid-rank seed of a rank or entry rating: -3.47 (3k) -> -3.5, 2.0 (2d) -> 2.5."""
    if rating >= 1.0:
        return math.floor(rating) + 0.5
    if rating <= -1.0:
        return -(math.floor(-rating) + 0.5)
    raise ProjectionError(f"rating {rating} lies in the kyu/dan gap (-1 to 1)")


def initial_sigma(seed: float) -> float:
    """The method's sigma for a player new to the system, seeded at ``seed`` (open scale)."""
    if seed > 7.5:
        return 1.0
    if seed < -50.5:
        return 6.0
    return _INITIAL_SPLINE(_closed(seed))


def handicap_difference(handicap: int, komi: int) -> tuple[float, float]:
    """The rating difference a game's handicap and komi are worth, and the outcome's spread."""
    if handicap < 2:
        return 0.580 - 0.0757 * komi, 1.0649 - 0.0021976 * komi + 0.00014984 * komi * komi
    return handicap - 0.0757 * komi, STONE_SPREAD[handicap] - 0.0035169 * komi


def is_excluded(handicap: int, komi: int) -> bool:
    """Handicap and komi the AGA's checks refuse to rate."""
    if handicap > 9:
        return True
    if handicap >= 2:
        return abs(komi) >= 10
    return komi <= -20


def rated_game(game: Game, rules: Rules) -> RatedGame | None:
    """``game`` as the AGA rates it, or ``None`` for a game it does not rate."""
    result = game.result
    if result is None or result.is_forfeit or result.winner is None:
        return None
    handicap, komi = aga_text_komi(game.handicap, game.komi, rules)
    if is_excluded(handicap, komi):
        return None
    return RatedGame(game.white, game.black, handicap, komi, result.winner is Color.WHITE)


def is_rated_result(result: Result | None) -> bool:
    return result is not None and not result.is_forfeit and result.winner is not None


def prior(entrant: Entrant, wins: int, on: date | None) -> Prior:
    """The prior of ``entrant``, who won ``wins`` rated games in an event held ``on``."""
    seed, rating, sigma = entrant.seed, entrant.rating, entrant.sigma
    if rating is None or sigma is None or rating == 0 or sigma == 0:
        return Prior(seed, initial_sigma(seed), Seeding.NEW)
    delta = seed - rating if seed * rating > 0 else seed - rating - 2.0
    if delta >= SELF_PROMOTION_RESEED and wins > 0:
        return Prior(seed, initial_sigma(seed), Seeding.RESEEDED)
    if delta >= 1.0 and wins > 0:
        grown = math.sqrt(sigma * sigma + 0.256 * delta**1.9475)
        return Prior(rating + 0.024746 + 0.32127 * delta, grown, Seeding.PROMOTED)
    days = max((on - entrant.rated_on).days, 0) if on is not None and entrant.rated_on else 0
    grown = math.hypot(sigma, SIGMA_GROWTH_PER_DAY * days)
    return Prior(rating, grown, Seeding.RATED)


def project(
    entrants: Iterable[Entrant], games: Sequence[RatedGame], on: date | None
) -> dict[PlayerId, Projection]:
    """The new rating and sigma of every player in ``games`` (others are not rated)."""
    by_id = {e.player: e for e in entrants}
    playing = sorted({p for g in games for p in (g.white, g.black)})
    missing = [p for p in playing if p not in by_id]
    if missing:
        raise ProjectionError(f"player {missing[0]} plays a game but is not an entrant")
    wins = dict.fromkeys(playing, 0)
    for g in games:
        wins[g.white if g.white_wins else g.black] += 1
    priors = [prior(by_id[p], wins[p], on) for p in playing]
    if not playing:
        return {}
    index = {p: i for i, p in enumerate(playing)}
    model = _Model(
        [_closed(pr.seed) for pr in priors],
        [pr.sigma for pr in priors],
        [_game_terms(g, index) for g in games],
    )
    ratings = model.maximise()
    sigmas = model.sigmas(ratings)
    return {p: Projection(p, priors[i], _opened(ratings[i]), sigmas[i]) for p, i in index.items()}


# --- the numerics ------------------------------------------------------------------------


def _closed(rating: float) -> float:
    return rating - 1.0 if rating > 0 else rating + 1.0


def _opened(rating: float) -> float:
    return rating + 1.0 if rating > 0 else rating - 1.0


@dataclass(frozen=True)
class _Term:
    """A game as the posterior sees it: ``sign * (r[up] - r[down] - shift) / spread``."""

    up: int
    down: int
    shift: float
    spread: float


def _game_terms(g: RatedGame, index: Mapping[PlayerId, int]) -> _Term:
    shift, spread = handicap_difference(g.handicap, g.komi)
    w, b = index[g.white], index[g.black]
    # the winner's side goes up: P(white wins) = Phi((w - b - shift) / spread)
    if g.white_wins:
        return _Term(w, b, shift, spread)
    return _Term(b, w, -shift, spread)


def _log_phi(y: float) -> float:
    """log Phi(y), the standard normal distribution, without underflow."""
    if y > -30.0:
        return math.log(0.5 * math.erfc(-y / _SQRT2))
    return -0.5 * y * y - math.log(-y) - _LOG_SQRT_2PI + math.log1p(-1.0 / (y * y))


def _mills(y: float) -> float:
    """phi(y) / Phi(y), the slope of log Phi at ``y``."""
    if y > -30.0:
        return math.exp(-0.5 * y * y - _LOG_SQRT_2PI) / (0.5 * math.erfc(-y / _SQRT2))
    return -y / (1.0 - 1.0 / (y * y) + 3.0 / y**4)


class _Model:
    """The log posterior of the closed-scale ratings: normal priors times probit games."""

    def __init__(self, seeds: list[float], sigmas: list[float], terms: list[_Term]) -> None:
        self.seeds = seeds
        self.sigmas_in = sigmas
        self.precision = [1.0 / (s * s) for s in sigmas]
        self.terms = terms
        self.by_player: list[list[_Term]] = [[] for _ in seeds]
        for t in terms:
            self.by_player[t.up].append(t)
            self.by_player[t.down].append(t)

    def value(self, r: Sequence[float]) -> float:
        total = 0.0
        for m, p, x in zip(self.seeds, self.precision, r, strict=True):
            total -= 0.5 * p * (x - m) ** 2
        for t in self.terms:
            total += _log_phi((r[t.up] - r[t.down] - t.shift) / t.spread)
        return total

    def slope_and_curvature(
        self, r: Sequence[float]
    ) -> tuple[list[float], list[float], list[float]]:
        """The gradient, the Hessian's diagonal (negated) and each game's curvature weight."""
        grad = [p * (m - x) for m, p, x in zip(self.seeds, self.precision, r, strict=True)]
        diag = list(self.precision)
        weights = []
        for t in self.terms:
            y = (r[t.up] - r[t.down] - t.shift) / t.spread
            lam = _mills(y)
            g = lam / t.spread
            w = lam * (y + lam) / (t.spread * t.spread)
            grad[t.up] += g
            grad[t.down] -= g
            diag[t.up] += w
            diag[t.down] += w
            weights.append(w)
        return grad, diag, weights

    def _newton_step(
        self, grad: list[float], diag: list[float], weights: list[float]
    ) -> list[float]:
        """Solve H d = grad (H the negated Hessian, sparse) by conjugate gradients."""
        n = len(grad)
        terms = self.terms

        def times(v: list[float]) -> list[float]:
            out = [p * x for p, x in zip(self.precision, v, strict=True)]
            for t, w in zip(terms, weights, strict=True):
                d = w * (v[t.up] - v[t.down])
                out[t.up] += d
                out[t.down] -= d
            return out

        x = [0.0] * n
        res = list(grad)
        z = [a / b for a, b in zip(res, diag, strict=True)]
        p = list(z)
        rz = sum(a * b for a, b in zip(res, z, strict=True))
        target = rz * min(1e-8, rz)  # inexact Newton: tighter as the gradient vanishes
        for _ in range(4 * n + 20):
            if rz <= target:
                break
            hp = times(p)
            alpha = rz / sum(a * b for a, b in zip(p, hp, strict=True))
            x = [a + alpha * b for a, b in zip(x, p, strict=True)]
            res = [a - alpha * b for a, b in zip(res, hp, strict=True)]
            z = [a / b for a, b in zip(res, diag, strict=True)]
            rz_new = sum(a * b for a, b in zip(res, z, strict=True))
            p = [a + (rz_new / rz) * b for a, b in zip(z, p, strict=True)]
            rz = rz_new
        return x

    def maximise(self) -> list[float]:
        """The posterior's maximum: Newton's method, else the coordinate-wise search."""
        r = list(self.seeds)
        current = self.value(r)
        for _ in range(100):
            step = self._newton_step(*self.slope_and_curvature(r))
            if max(abs(b) for b in step) < 1e-7:  # a ten-millionth of a stone
                return [a + b for a, b in zip(r, step, strict=True)]
            scale = 1.0
            while scale > 1e-6:
                trial = [a + scale * b for a, b in zip(r, step, strict=True)]
                value = self.value(trial)
                if value >= current:
                    break
                scale *= 0.5
            else:
                break
            r, current = trial, value
        return self._coordinate_ascent()

    def _coordinate_ascent(self) -> list[float]:
        """The fallback: one player's rating at a time, each to its own maximum, until none
        moves. Slower than Newton, but every move raises the posterior, so it cannot fail."""
        r = list(self.seeds)
        for _ in range(10_000):
            moved = 0.0
            for i in range(len(r)):
                for _ in range(50):
                    g = self.precision[i] * (self.seeds[i] - r[i])
                    h = self.precision[i]
                    for t in self.by_player[i]:
                        y = (r[t.up] - r[t.down] - t.shift) / t.spread
                        lam = _mills(y)
                        sign = 1.0 if t.up == i else -1.0
                        g += sign * lam / t.spread
                        h += lam * (y + lam) / (t.spread * t.spread)
                    d = g / h
                    r[i] += d
                    moved = max(moved, abs(d))
                    if abs(d) < 1e-13:
                        break
            if moved < 1e-11:
                break
        return r

    def sigmas(self, r: Sequence[float]) -> list[float]:
        """Each player's new sigma: the second moment about the new rating of the posterior
        along that rating, the others at theirs, over 100 points a tenth of a sigma apart."""
        erfc, log, exp = math.erfc, math.log, math.exp
        steps = [-5.05 + k / 10.0 for k in range(100)]
        out = []
        for i, (m, s) in enumerate(zip(self.seeds, self.sigmas_in, strict=True)):
            # each game's probability as erfc(slope * x + offset), x the offset from r[i]
            lines = []
            for t in self.by_player[i]:
                sign = 1.0 if t.up == i else -1.0
                y0 = (r[t.up] - r[t.down] - t.shift) / t.spread
                lines.append((-sign / (t.spread * _SQRT2), -y0 / _SQRT2))
            centre = (r[i] - m) / s
            logs = []
            offsets = []
            for k in steps:
                x = k * s
                z = centre + k
                total = -0.5 * z * z
                for slope, offset in lines:
                    u = slope * x + offset
                    p = erfc(u)
                    total += log(p) if p > 1e-300 else _log_phi(-u * _SQRT2) + math.log(2.0)
                logs.append(total)
                offsets.append(x)
            top = max(logs)
            weights = [exp(v - top) for v in logs]
            moment = sum(w * x * x for w, x in zip(weights, offsets, strict=True))
            out.append(math.sqrt(moment / sum(weights)))
        return out


class _NaturalSpline:
    """A natural cubic spline through the points ``(xs, ys)`` (second derivative 0 at ends)."""

    def __init__(self, xs: Sequence[float], ys: Sequence[float]) -> None:
        n = len(xs)
        h = [xs[i + 1] - xs[i] for i in range(n - 1)]
        # tridiagonal system for the second derivatives at the inner points
        a = [0.0] * n
        b = [1.0] * n
        c = [0.0] * n
        d = [0.0] * n
        for i in range(1, n - 1):
            a[i], b[i], c[i] = h[i - 1], 2.0 * (h[i - 1] + h[i]), h[i]
            d[i] = 6.0 * ((ys[i + 1] - ys[i]) / h[i] - (ys[i] - ys[i - 1]) / h[i - 1])
        for i in range(1, n):
            f = a[i] / b[i - 1]
            b[i] -= f * c[i - 1]
            d[i] -= f * d[i - 1]
        m = [0.0] * n
        m[n - 1] = d[n - 1] / b[n - 1]
        for i in range(n - 2, -1, -1):
            m[i] = (d[i] - c[i] * m[i + 1]) / b[i]
        self.xs, self.ys, self.m, self.h = list(xs), list(ys), m, h

    def __call__(self, x: float) -> float:
        xs = self.xs
        i = max(0, min(len(xs) - 2, math.floor(x - xs[0])))  # the knots are 1 apart
        while i > 0 and x < xs[i]:
            i -= 1
        while i < len(xs) - 2 and x > xs[i + 1]:
            i += 1
        h = self.h[i]
        t1, t0 = xs[i + 1] - x, x - xs[i]
        m0, m1 = self.m[i], self.m[i + 1]
        return (
            m0 * t1**3 / (6 * h)
            + m1 * t0**3 / (6 * h)
            + (self.ys[i] / h - m0 * h / 6) * t1
            + (self.ys[i + 1] / h - m1 * h / 6) * t0
        )


_INITIAL_SPLINE = _NaturalSpline(_INITIAL_SIGMA_RATINGS, _INITIAL_SIGMA)
