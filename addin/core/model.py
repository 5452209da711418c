"""The tournament as plain data: what every pure computation takes and returns.

Nothing here knows about spreadsheets. Readers in ``addin.workbook`` build these
objects from sheets; writers turn them back into rows.

Conventions
-----------
* A player is identified by an ``int`` AGA number (temporary members use 90000-99999).
* Ratings are AGA ratings: dan >= 1.0, kyu <= -1.0, nothing strictly between -1 and 1.
* McMahon scores are ``float`` and may be fractional (halves after jigo or no result);
  halves are exact in binary floating point, so equality tests are safe.
* Rounds are numbered from 1.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property

from addin.core.european import McMahonRules, Options, Resolved, resolve

PlayerId = int


class Color(enum.Enum):
    WHITE = "W"
    BLACK = "B"

    @property
    def other(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE


class Result(enum.Enum):
    """The outcome of a game, as the AGA interface document lists them."""

    WHITE_WINS = "White wins"
    BLACK_WINS = "Black wins"
    WHITE_WINS_BY_FORFEIT = "White wins by forfeit"
    BLACK_WINS_BY_FORFEIT = "Black wins by forfeit"
    JIGO = "Jigo"
    NO_RESULT = "No result"
    DOUBLE_FORFEIT = "Double forfeit"

    @property
    def winner(self) -> Color | None:
        if self in (Result.WHITE_WINS, Result.WHITE_WINS_BY_FORFEIT):
            return Color.WHITE
        if self in (Result.BLACK_WINS, Result.BLACK_WINS_BY_FORFEIT):
            return Color.BLACK
        return None

    @property
    def is_forfeit(self) -> bool:
        return self in (
            Result.WHITE_WINS_BY_FORFEIT,
            Result.BLACK_WINS_BY_FORFEIT,
            Result.DOUBLE_FORFEIT,
        )

    def points(self, color: Color) -> float:
        """McMahon points the player of ``color`` earns (AGA protocol, Game Results)."""
        if self in (Result.JIGO, Result.NO_RESULT):
            return 0.5
        if self is Result.DOUBLE_FORFEIT:
            return 0.0
        return 1.0 if self.winner is color else 0.0


class ByeKind(enum.Enum):
    VOLUNTARY = "Voluntary"
    FORCED = "Forced"


class Status(enum.Enum):
    ACTIVE = "Active"
    DROPPED = "Dropped"
    NOT_ARRIVED = "Not arrived"
    """Pre-registered, not checked in yet (OpenGotha's PRE): never paired until ``checkin``."""


class ColorPolicy(enum.Enum):
    MANUAL = "Manual"
    RESTRICTED = "Restricted"
    UNRESTRICTED = "Unrestricted"


class HandicapPolicy(enum.Enum):
    FULL = "Full"
    MINUS_1 = "Minus 1"
    MINUS_2 = "Minus 2"
    MINUS_3 = "Minus 3"
    NONE = "None (all even)"

    @property
    def reduction(self) -> int | None:
        """Stones taken off the full handicap; ``None`` means every game is even."""
        return {"Full": 0, "Minus 1": 1, "Minus 2": 2, "Minus 3": 3}.get(self.value)


class HandicapBasis(enum.Enum):
    """What the handicap is the difference of (BGA spec 6.2; OpenGotha's hdBasedOnMMS)."""

    RATING = "Rating difference"
    MMS = "McMahon score difference"


class Rules(enum.Enum):
    AGA = "AGA"
    ING = "Ing"
    JAPANESE = "Japanese"
    CHINESE = "Chinese"


class ScoreOrigin(enum.Enum):
    """Where the zero of initial McMahon scores lies."""

    TOP = "0 at top"
    BOTTOM = "0 at bottom"


@dataclass(frozen=True)
class Contact:
    name: str = ""
    address: str = ""
    phone: str = ""
    email: str = ""
    web: str = ""


@dataclass(frozen=True)
class Settings:
    """Everything the Tournament sheet holds: AGA tournament data and program options."""

    name: str = ""
    venue: str = ""
    venue_address: str = ""
    start_date: date | None = None
    end_date: date | None = None
    director: Contact = Contact()
    sponsor: Contact = Contact()
    convener: Contact = Contact()
    pairing_format: str = "McMahon"
    rules: Rules = Rules.AGA
    basic_time_minutes: int | None = None
    overtime_format: str = ""
    overtime_conditions: str = ""
    komi: float = 7.5
    rounds: int = 5
    bar: float | None = None
    band_d: float = 0.75
    top_band_separation_one: bool = False
    score_origin: ScoreOrigin = ScoreOrigin.TOP
    bottom_score_offset: float = 0.0
    handicap_policy: HandicapPolicy = HandicapPolicy.MINUS_1
    handicap_basis: HandicapBasis = HandicapBasis.RATING
    handicap_even_from: float | None = None
    """Rating from which a player's games are even (OpenGotha's hdNoHdRankThreshold)."""
    handicap_ceiling: int = 9
    top_band_even: bool = False
    color_policy: ColorPolicy = ColorPolicy.RESTRICTED
    avoid_same_family: bool = False
    avoid_same_club: bool = False
    avoid_same_city: bool = False
    avoid_same_state: bool = False
    avoid_same_country: bool = False
    avoid_handicap_games: bool = False
    avoidance_points: int = 0
    """EGF style: avoidance may cost this many McMahon points, read as OpenGotha reads its
    preferMMSDiffRatherThanSameClub (a pairing up to 1.2 N + 0.5 points further apart in
    total is preferred to one game avoidance objects to; 0: the AGA rule)."""
    tiebreaks: tuple[str, ...] = ("SOS", "SODOS", "Face to face", "Random")
    extra_columns: tuple[str, ...] = ()
    """Tiebreak-like columns shown in the standings that break no tie ("(CUSP)")."""
    seed: int = 0
    check_in: bool = False
    """Players check in at the desk: ``preregister`` adds them as Not arrived, and ``pair``
    pairs only those here (a setting, No by default: an event without check-in is as before)."""
    projected_ratings: bool = False
    """The Standings sheet shows each player's projected AGA rating (unofficial): rating
    before, projected rating and sigma, change (a new workbook's template says Yes)."""
    mcmahon_rules: McMahonRules = McMahonRules.AGA
    """The preset every blank European option follows (``addin.core.european``)."""
    typed_options: Options = field(default_factory=Options)
    """The European options as the TD typed them (``None``: from the preset)."""
    ghost_player: int | None = None
    """AGA # of the ghost player (spec 7.1), who plays only when the field is odd."""

    @cached_property
    def options(self) -> Resolved:
        """The European options in force: typed, else from the McMahon rules preset (worked
        out once: the pairing asks for them per player)."""
        return resolve(self.mcmahon_rules, self.typed_options)


@dataclass(frozen=True)
class Player:
    aga_id: PlayerId
    family_name: str
    given_name: str = ""
    rank: str = ""
    """Rank or rating as entered ("3k", "4d", "-3.45"); informational once ``rating`` is set."""
    rating: float | None = None
    """Entry rating: drives ordering, bands and handicaps."""
    aga_rating: float | None = None
    """The published AGA rating (TDListA) at registration; ``rating`` may differ from it."""
    membership_type: str = ""
    membership_expiry: date | None = None
    chapter: str = ""
    state: str = ""
    city: str = ""
    country: str = ""
    egd_pin: int | None = None
    """The player's PIN in the European Go Database (``register --pin``)."""
    gor: int | None = None
    """The EGF rating (GoR) the EGD list gave at registration."""
    family_group: str = ""
    band: int | None = None
    """Band number (1 = top) as computed; ``band_override`` wins when set."""
    band_override: int | None = None
    above_bar: bool = False
    initial_score: float | None = None
    status: Status = Status.ACTIVE
    bye_volunteer: bool = False
    bye_requests: frozenset[int] = frozenset()
    """Rounds in which the player asked not to play (voluntary byes)."""
    volunteer_rounds: frozenset[int] = frozenset()
    """Rounds in which the player volunteers for the forced bye, should one be needed."""
    email: str = ""
    phone: str = ""
    address: str = ""
    citizenship: str = ""
    birth_date: date | None = None
    aga_fee: float | None = None
    """Membership fee in dollars the desk collected for the AGA (new member or renewal)."""
    notes: str = ""

    @property
    def name(self) -> str:
        """ "Family, Given" as the AGA reports write it."""
        return f"{self.family_name}, {self.given_name}" if self.given_name else self.family_name

    @property
    def effective_band(self) -> int | None:
        return self.band_override if self.band_override is not None else self.band


@dataclass(frozen=True)
class Game:
    white: PlayerId
    black: PlayerId
    handicap: int = 0
    komi: float = 0.0
    result: Result | None = None
    """``None``: not played yet."""
    board: int | None = None
    notes: str = ""

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        return (self.white, self.black)

    def color_of(self, player: PlayerId) -> Color:
        if player == self.white:
            return Color.WHITE
        if player == self.black:
            return Color.BLACK
        raise KeyError(player)

    def opponent_of(self, player: PlayerId) -> PlayerId:
        return self.black if self.color_of(player) is Color.WHITE else self.white


@dataclass(frozen=True)
class Bye:
    player: PlayerId
    kind: ByeKind


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()

    def paired_players(self) -> set[PlayerId]:
        return {p for g in self.games for p in g.players}


class RequestKind(enum.Enum):
    FORCE = "Force"
    PROHIBIT = "Prohibit"


@dataclass(frozen=True)
class PairRequest:
    """A forced or prohibited pair; ``round`` ``None`` means every round."""

    kind: RequestKind
    first: PlayerId
    second: PlayerId
    round: int | None = None


@dataclass(frozen=True)
class Band:
    """A McMahon band as the TD approved it (1 = top band)."""

    number: int
    label: str
    min_rating: float
    """Lowest entry rating that belongs to this band (the bar for band 1)."""
    separation: int | None = None
    """Points between this band and the next higher one; ``None`` for the top band."""
    separation_override: int | None = None
    initial_score: float | None = None

    @property
    def effective_separation(self) -> int | None:
        return self.separation_override if self.separation_override is not None else self.separation


@dataclass
class Tournament:
    settings: Settings = field(default_factory=Settings)
    players: dict[PlayerId, Player] = field(default_factory=dict)
    bands: list[Band] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    requests: list[PairRequest] = field(default_factory=list)

    def round(self, number: int) -> Round | None:
        return next((r for r in self.rounds if r.number == number), None)
