"""A player of the European Go Database's rating list, and the entry rating GoR and grade give.

The EGD lists each player once, keyed by a PIN (8 digits), with a name, a country, a club,
a grade ("rank professed by the player at last tournament") and a GoR, the EGF rating
(2100 is the middle of 1d, a grade is 100 points; see ``addin.formats.egd_list``).

The entry rating follows the event's McMahon scale (``Settings.options.grade_scale``):

* on a one-point-per-grade scale (BGA, EGF), the grade is the player's McMahon grade, as the
  BGA specification (4) says ("the grade of the player"), and the GoR places the player
  within it (the order of seeding and of a handicap by rating difference);
* on the AGA bands, the rating is primary, as in the AGA's own list: the GoR, as a rating.

A professional grade (1p-9p) enters at its professional rating on every scale. A grade that
cannot be read leaves the GoR; no GoR leaves the grade.

Pure: no spreadsheet library is imported here.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable
from dataclasses import dataclass

from addin.core.european import GradeScale
from addin.core.grades import is_grade_scale
from addin.core.lookup import either_order, is_number_query, name_key, prefix_range, query_key
from addin.core.model import Player
from addin.core.ratings import (
    MAX_DAN,
    RATING_MIN,
    RATING_RESOLUTION,
    RatingError,
    is_rating_text,
    parse_rating,
    rank_floor,
    rank_of,
)

__all__ = ["EgdIndex", "EgdPlayer", "entry_rating", "gor_rating", "to_player"]

PINS = (1, 99_999_999)
"""The lowest and highest EGD PIN (8 digits)."""
EGD_RANK_MISMATCH = "egd-rank-mismatch"
"""A registration warning's code: a rank other than the one the EGD list gives."""
UNKNOWN_EGD_PIN = "unknown-egd-pin"
"""A registration warning's code: a PIN the EGD list does not hold."""
GOR_1D_FLOOR = 2050
"""The lowest GoR of 1d (2100 is its middle): GoR 2050-2149 is 1d, 1950-2049 is 1k."""
GOR_PER_GRADE = 100


@dataclass(frozen=True, slots=True)
class EgdPlayer:
    """One line of the EGD's rating list, typed."""

    pin: int
    family_name: str
    given_name: str
    country: str
    """Internet country code (UK, DE, ...); blank where the EGD says XX (unknown)."""
    club: str
    """The EGD's club code (up to 4 characters); blank where it says xxx (unknown)."""
    grade: str
    """As the list writes it, lower case: 20k, 1d, 3p; blank when unreadable."""
    gor: int | None
    promotion: str = ""
    """The EGD's suggested promotion or demotion (P&D), as listed; blank for "--"."""
    tournaments: int | None = None
    last_tournament: str = ""
    """The EGD's code of the player's last tournament (T181215B)."""

    @property
    def name(self) -> str:
        """ "Family, Given", as the Players sheet and the AGA reports write a name."""
        return f"{self.family_name}, {self.given_name}" if self.given_name else self.family_name


def gor_rating(gor: int) -> float:
    """The AGA-scale rating of a GoR: 2100 -> 1.5 (1d), 2000 -> -1.5 (1k), 100 -> -20.5.

    A grade is 100 GoR points and one rating unit; the EGF counts a grade's lower edge in the
    grade (1950 is 1k), the AGA counts a whole kyu number in the weaker rank (-2.0 is 2k), so
    an edge GoR lands just inside its EGF grade. Amateur GoRs above 9d stay 9d (a
    professional's grade says so)."""
    steps = (gor - GOR_1D_FLOOR) / GOR_PER_GRADE
    if steps >= 0:
        return round(min(1.0 + steps, MAX_DAN + 1.0 - RATING_RESOLUTION), 5)
    rating = -1.0 + steps
    if rating == math.floor(rating):
        rating += RATING_RESOLUTION
    return round(max(rating, RATING_MIN + RATING_RESOLUTION), 5)


def grade_rating(grade: str) -> float | None:
    """The midpoint rating of a grade as the EGD writes one (3k -> -3.5), or None."""
    text = grade.strip()
    if not text or text[-1].lower() not in "kdp":
        return None
    try:
        return parse_rating(text)
    except RatingError:
        return None


def _within(rating: float, grade_value: float) -> float:
    """``rating`` moved into the rank of ``grade_value`` (its nearest rating there)."""
    rank = rank_of(grade_value)
    low = rank_floor(rank)
    high = (
        float(int(rank[:-1]) + 1) - RATING_RESOLUTION
        if rank.endswith("d")
        else -float(int(rank[:-1]))
    )
    return min(max(rating, low), high)


def entry_rating(gor: int | None, grade: str, scale: GradeScale) -> float | None:
    """The rating a player of the EGD list enters at on ``scale`` (see the module)."""
    graded = grade_rating(grade)
    if graded is not None and grade.strip().lower().endswith("p"):
        return graded
    if gor is None:
        return graded
    by_gor = gor_rating(gor)
    if graded is None or not is_grade_scale(scale):
        return by_gor
    return _within(by_gor, graded)


def describe(player: EgdPlayer) -> str:
    """One player of the EGD list on one line, as a TD compares candidates."""
    gor = "no GoR" if player.gor is None else f"GoR {player.gor}"
    place = " ".join(p for p in (player.country, player.club) if p)
    parts = [f"EGD {player.pin} {player.name}", player.grade or "no grade", gor]
    if place:
        parts.append(place)
    if player.last_tournament:
        parts.append(f"last played {player.last_tournament}")
    return ", ".join(parts)


class EgdIndex:
    """The EGD list indexed once: by PIN, and by folded "family, given" prefix, as
    ``addin.core.lookup.MemberIndex`` finds members of the TDListA."""

    def __init__(self, players: Iterable[EgdPlayer]) -> None:
        self._by_pin: dict[int, EgdPlayer] = {}
        entries: list[tuple[str, int]] = []
        for player in players:
            if self._by_pin.setdefault(player.pin, player) is not player:
                continue
            family, given = name_key(player.family_name), name_key(player.given_name)
            entries.append((f"{family}, {given}" if given else family, player.pin))
        entries.sort()
        self._keys = [key for key, _ in entries]
        self._pins = [pin for _, pin in entries]

    def __len__(self) -> int:
        return len(self._by_pin)

    def __contains__(self, pin: object) -> bool:
        return pin in self._by_pin

    def by_pin(self, pin: int) -> EgdPlayer | None:
        return self._by_pin.get(pin)

    def search(self, query: str) -> list[EgdPlayer]:
        """Players for a query: a PIN when it is digits, else a name prefix, or a name of
        several words in either order (as ``MemberIndex.search``)."""
        if is_number_query(query):
            found = self.by_pin(int(query.strip().removeprefix("#")))
            return [found] if found else []
        prefix = query_key(query)
        if not prefix:
            return []
        start, stop = prefix_range(self._keys, prefix)
        pins = self._pins[start:stop] + either_order(self._keys, self._pins, query)
        return [self._by_pin[pin] for pin in dict.fromkeys(pins)]

    def by_name(self, name: str) -> list[EgdPlayer]:
        """Players whose whole name equals ``name`` ("Family, Given"), folded."""
        family, _, given = name.partition(",")
        key = name_key(family, given)
        start = bisect.bisect_left(self._keys, key)
        stop = bisect.bisect_right(self._keys, key, lo=start)
        return [self._by_pin[pin] for pin in self._pins[start:stop]]


def listed_rating(player: EgdPlayer, scale: GradeScale, requested: str | None) -> float | None:
    """The entry rating of ``player``: the list's (``entry_rating``), unless the TD asked
    for another rank (a rank other than the list's, or a rating typed)."""
    listed = entry_rating(player.gor, player.grade, scale)
    text = (requested or "").strip()
    if not text:
        return listed
    asked = parse_rating(text)
    if listed is not None and rank_of(asked) == rank_of(listed) and not is_rating_text(text):
        return listed  # the list's own rank: the GoR still places the player within it
    return asked


def rank_warning(player: EgdPlayer, scale: GradeScale, requested: str | None) -> str | None:
    """A requested rank other than the one the list gives (None when they agree)."""
    listed = entry_rating(player.gor, player.grade, scale)
    text = (requested or "").strip()
    if not text or listed is None or rank_of(parse_rating(text)) == rank_of(listed):
        return None
    return (
        f"EGD {player.pin} {player.name} asks to play at {text}; the EGD list gives "
        f"{rank_of(listed)} (grade {player.grade or 'none'}, GoR {player.gor})"
    )


def to_player(
    player: EgdPlayer, pid: int, scale: GradeScale, requested: str | None = None
) -> Player:
    """A tournament player (number ``pid``) from a player of the EGD list: the entry rating
    on ``scale`` (``listed_rating``), the PIN, GoR, club (as the chapter) and country."""
    rating = listed_rating(player, scale, requested)
    return Player(
        aga_id=pid,
        family_name=player.family_name,
        given_name=player.given_name,
        rank=(requested or "").strip() or (rank_of(rating) if rating is not None else ""),
        rating=rating,
        chapter=player.club,
        country=player.country,
        egd_pin=player.pin,
        gor=player.gor,
    )
