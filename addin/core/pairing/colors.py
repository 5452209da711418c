"""Colours, handicap and komi of a game, and criterion 4 (colour restrictions).

* Handicap games: White is the stronger player, Black the weaker (AGA).
* Even games: colours balance each player's history; with restricted colours
  (``ColorPolicy.RESTRICTED``) criterion 4 comes first: no colour more than three times
  running, and none in more than half the rounds (rounded up, so that an odd number of
  rounds stays playable: 3 of 5 is allowed, 4 of 5 is not).
* Manual colours: the pairing lists the stronger player as White and the TD enters the
  colours drawn at the board.

Criterion 4 constrains only the choice the program makes: colours in a handicap game
follow the handicap, so such a game never counts as a colour-rule break.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from addin.core.handicap import (
    HANDICAP_KOMI,
    game_conditions,
    scheme_stones,
    scheme_text,
    top_band_game,
)
from addin.core.model import Color, ColorPolicy, HandicapBasis, Settings
from addin.core.pairing.field import Entrant, Field
from addin.core.ratings import rating_gap

MAX_RUN = 3
"""Criterion 4: the same colour at most three times running."""


def stones(a: Entrant, b: Entrant, settings: Settings) -> int:
    """Handicap stones of a game under the settings' handicap scheme."""
    top = top_band_game(settings, a.top_band, b.top_band)
    return scheme_stones(a.rating, b.rating, settings, top, (a.score, b.score))


def stronger_first(
    a: Entrant, b: Entrant, settings: Settings | None = None
) -> tuple[Entrant, Entrant]:
    """(stronger, weaker) by entry rating, or by McMahon score when the handicap comes from
    the scores; a tie: the one higher in the field."""
    if settings is not None and settings.handicap_basis is HandicapBasis.MMS:
        if a.score != b.score:
            return (a, b) if a.score > b.score else (b, a)
        return (a, b) if a.order < b.order else (b, a)
    gap = rating_gap(a.rating, b.rating)
    if gap > 0 or (gap == 0 and a.order < b.order):
        return a, b
    return b, a


def forbidden_colors(history: Sequence[Color], total_rounds: int) -> frozenset[Color]:
    """Colours that would break criterion 4 for a player with this colour history."""
    limit = math.ceil(total_rounds / 2)
    bad = {c for c in Color if history.count(c) + 1 > limit}
    if len(history) >= MAX_RUN and len(set(history[-MAX_RUN:])) == 1:
        bad.add(history[-1])
    return frozenset(bad)


def _why(history: Sequence[Color], color: Color, total_rounds: int) -> str:
    if len(history) >= MAX_RUN and all(c is color for c in history[-MAX_RUN:]):
        return f"a {MAX_RUN + 1}th time running"
    return f"in more than half of the {total_rounds} rounds"


def _name(color: Color) -> str:
    return "White" if color is Color.WHITE else "Black"


def breaks(white: frozenset[Color], black: frozenset[Color]) -> int:
    """Criterion 4 breaks when the player forbidden ``white`` takes White and the one
    forbidden ``black`` takes Black."""
    return (Color.WHITE in white) + (Color.BLACK in black)


def unavoidable_breaks(a: frozenset[Color], b: frozenset[Color]) -> int:
    """Criterion 4 breaks an even game must have between players forbidden ``a`` and ``b``."""
    return min(breaks(a, b), breaks(b, a))


COLOUR_SETS: tuple[frozenset[Color], ...] = (
    frozenset(),
    frozenset({Color.WHITE}),
    frozenset({Color.BLACK}),
    frozenset(Color),
)
"""Every set of forbidden colours; the pairing refers to a player's by its place here."""
UNAVOIDABLE = tuple(tuple(unavoidable_breaks(a, b) for b in COLOUR_SETS) for a in COLOUR_SETS)
""":func:`unavoidable_breaks` of every two :data:`COLOUR_SETS`, by their places (the
pairing asks it for every candidate game; an Enum's hash is slow in bulk)."""
BREAKS = tuple(tuple(breaks(a, b) for b in COLOUR_SETS) for a in COLOUR_SETS)
""":func:`breaks` of every two :data:`COLOUR_SETS` (White's, then Black's), by their places."""


def first_takes_white(ba: int, bb: int, breaks_first: int, breaks_second: int) -> bool | None:
    """The colouring step's choice for an even game between two players whose Whites minus
    Blacks are ``ba`` and ``bb``, when the first taking White breaks criterion 4
    ``breaks_first`` times and the second taking White ``breaks_second`` times (both 0 unless
    colours are restricted): fewer breaks first, then whoever has had more Whites takes
    Black. None: a tie, which the last colour or the coin breaks; the players' balance then
    ends the same either way (one at ``ba`` + 1 and one at ``ba`` - 1)."""
    if breaks_first != breaks_second:
        return breaks_first < breaks_second
    if ba != bb:
        return ba < bb
    return None


def off_balance(ba: int, bb: int, even: bool, first_white: bool | None = None) -> int:
    """Players of a game left two or more colours off balance (Whites minus Blacks in even
    games): as they stand after a handicap game (its colours do not count), after an even
    game coloured with the first player as White (``first_white`` True or None, the tie
    :func:`first_takes_white` leaves, which ends the same either way) or as Black."""
    if not even:
        return (abs(ba) >= 2) + (abs(bb) >= 2)
    d = -1 if first_white is False else 1
    return (abs(ba + d) >= 2) + (abs(bb - d) >= 2)


@dataclass(frozen=True)
class Colouring:
    """White, Black and the game conditions, with the notes explaining them."""

    white: Entrant
    black: Entrant
    handicap: int
    komi: float
    notes: tuple[str, ...]
    breaks: int
    """Criterion 4 breaks in this game (restricted colours only)."""


class ColorBook:
    """Colour histories of the field, and the colour decisions built on them."""

    def __init__(self, field: Field) -> None:
        self.field = field
        self.settings = field.settings
        self.restricted = self.settings.color_policy is ColorPolicy.RESTRICTED
        colors = field.history.colors
        self._history = {e.id: colors.get(e.id, ()) for e in field.by_id.values()}
        self._forbidden = {
            p: forbidden_colors(h, field.total_rounds) for p, h in self._history.items()
        }

    def forbidden(self, e: Entrant) -> frozenset[Color]:
        return self._forbidden[e.id]

    def breaks(self, white: Entrant, black: Entrant) -> int:
        """Criterion 4 breaks if ``white`` takes White and ``black`` takes Black."""
        return breaks(self._forbidden[white.id], self._forbidden[black.id])

    def unavoidable_breaks(self, a: Entrant, b: Entrant, handicap: int) -> int:
        """Criterion 4 breaks a game between ``a`` and ``b`` must have (0 unless restricted)."""
        if not self.restricted or handicap > 0:
            return 0
        return unavoidable_breaks(self._forbidden[a.id], self._forbidden[b.id])

    def _balance(self, e: Entrant) -> int:
        """Whites minus Blacks in even games."""
        return self.field.history.balance.get(e.id, 0)

    def _coin(self, a: Entrant, b: Entrant) -> bool:
        """A seeded, reproducible coin: True gives White to the lower AGA number."""
        lo, hi = sorted((a.id, b.id))
        text = f"{self.settings.seed}|{self.field.round}|{lo}|{hi}".encode()
        return hashlib.blake2b(text, digest_size=8).digest()[0] & 1 == 0

    def _even(self, a: Entrant, b: Entrant) -> tuple[Entrant, Entrant]:
        """(White, Black) of an even game: criterion 4 first when restricted, then balance
        (:func:`first_takes_white`, which the pairing's colour tier prices), then the
        colours of the last round, then a seeded coin."""
        ab, ba = (self.breaks(a, b), self.breaks(b, a)) if self.restricted else (0, 0)
        a_white = first_takes_white(self._balance(a), self._balance(b), ab, ba)
        if a_white is not None:
            return (a, b) if a_white else (b, a)
        last_a, last_b = self._history[a.id][-1:], self._history[b.id][-1:]
        if last_a and last_b and last_a != last_b:
            return (b, a) if last_a[0] is Color.WHITE else (a, b)
        lo, hi = (a, b) if a.id < b.id else (b, a)
        return (lo, hi) if self._coin(a, b) else (hi, lo)

    def colour(self, a: Entrant, b: Entrant) -> Colouring:
        """Decide colours, handicap and komi of the game ``a`` against ``b``."""
        settings = self.settings
        strong, weak = stronger_first(a, b, settings)
        top = top_band_game(settings, a.top_band, b.top_band)
        conditions = game_conditions(
            strong.rating, weak.rating, settings, top, (strong.score, weak.score)
        )
        notes: list[str] = []
        if settings.color_policy is ColorPolicy.MANUAL:
            white, black = strong, weak
            notes.append("Colours: the TD enters them (manual colours; stronger listed as White)")
        elif conditions.handicap > 0:
            white, black = strong, weak
        else:  # an even game's conditions are the same either way round
            white, black = self._even(a, b)
        if conditions.handicap > 0:
            by_score = settings.handicap_basis is HandicapBasis.MMS
            what, low, high = (
                ("McMahon score", f"{black.score:g}", f"{white.score:g}")
                if by_score
                else ("rating", f"{black.rating:.2f}", f"{white.rating:.2f}")
            )
            notes.append(
                f"Handicap {conditions.handicap} ({scheme_text(settings)}): {black.label} "
                f"takes Black ({what} {low} against {high})"
            )
            if conditions.komi < HANDICAP_KOMI:  # spec 6.2: komi for the stones beyond 9
                notes.append(
                    f"Komi {conditions.komi:g}: Black gets {HANDICAP_KOMI - conditions.komi:g} "
                    f"points for the stones beyond 9 ({settings.options.beyond_nine.value})"
                )
        elif (
            top
            and settings.top_band_even
            and scheme_stones(a.rating, b.rating, settings, False, (a.score, b.score))
        ):
            notes.append("Even game: top band games are even")
        breaks = 0
        if self.restricted and conditions.handicap == 0:
            for e, c in ((white, Color.WHITE), (black, Color.BLACK)):
                if c in self._forbidden[e.id]:
                    breaks += 1
                    why = _why(self._history[e.id], c, self.field.total_rounds)
                    notes.append(f"Colour rule relaxed: {e.label} takes {_name(c)} {why}")
        return Colouring(white, black, conditions.handicap, conditions.komi, tuple(notes), breaks)
