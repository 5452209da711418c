"""The workbook layout, declared once.

Every sheet, table, header, column type, dropdown list and the action that owns
each column are declared here. The template builder, the readers, the writers,
``check`` and docs/architecture.md all derive from this module: no header
string is typed anywhere else.

Owners
------
``TD``        the tournament director types it; no action overwrites it.
``register``  filled by registration (import, register, pre-registration) when blank.
``bands``     written by ``bands``.
``pair``      written by ``pair`` (the TD may type over it; the next action respects it).
``standings`` written by ``standings``.
``log``       appended by every action.
``import-tdlista``, ``import-egd-list``  the membership and rating lists, replaced whole.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from addin.core.egd import PINS
from addin.core.european import (
    AvoidanceScope,
    BarTable,
    BeyondNine,
    FloatChoice,
    GradeScale,
    GroupPairing,
    GroupSeeding,
    McMahonRules,
    OddPlayer,
    Sleeping,
    Supergroup,
)
from addin.core.handicap import MAX_HANDICAP
from addin.core.limits import (
    BAND_D,
    MAX_AGA_ID,
    MAX_AVOIDANCE_POINTS,
    MAX_BASIC_TIME,
    MAX_KOMI,
    MAX_ROUNDS,
    MAX_SCORE,
    MAX_SEED,
)
from addin.core.model import (
    ByeKind,
    ColorPolicy,
    HandicapBasis,
    HandicapPolicy,
    RequestKind,
    Result,
    Rules,
    ScoreOrigin,
    Status,
)


class Kind(enum.Enum):
    """How a cell's value is read and written."""

    ANY = "any value"
    TEXT = "text"
    INT = "a whole number"
    AGA_ID = "an AGA number (a whole number from 1 to 99999)"
    FLOAT = "a number"
    RATING = "a rank or rating (3k, 4d, -3.45, 4.5)"
    RATING_FLOOR = "a rank or rating (4d: 4 dan and up; or a rating such as 3.5)"
    DATE = "a date (YYYY-MM-DD or M/D/YYYY)"
    BOOL = "Yes or No"
    CHOICE = "one of the listed choices"
    RESULT = "a game result"
    ROUNDS = "round numbers separated by commas (2, 4)"
    TIMESTAMP = "a date and time"
    MONEY = "an amount in dollars from 0 to 5,000 (30 or $30.00)"


class Owner(enum.Enum):
    TD = "TD"
    REGISTER = "register"
    BANDS = "bands"
    PAIR = "pair"
    STANDINGS = "standings"
    LOG = "log"
    IMPORT = "import-tdlista"
    IMPORT_EGD = "import-egd-list"


YES_NO = ("Yes", "No")
SCORES = (-MAX_SCORE, MAX_SCORE)


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    kind: Kind = Kind.TEXT
    owner: Owner = Owner.TD
    width: float = 12
    choices: tuple[str, ...] = ()
    required: bool = False
    number_format: str | None = None
    help: str = ""
    bounds: tuple[float, float] | None = None
    """The lowest and highest number the column takes (both included), when it has a range."""
    wrap: bool = False
    """Long text wraps within the column (the Log's messages): it prints at a readable size
    instead of running on to the right and shrinking the page to fit."""


@dataclass(frozen=True)
class Table:
    """An Excel Table: a header row and typed columns, starting at ``anchor``."""

    sheet: str
    name: str
    columns: tuple[Column, ...]
    anchor_column: int = 1
    unique: str | None = None
    """Key of a column whose non-blank values must be unique (e.g. AGA #)."""
    printed: int | None = None
    """How many leading columns a printout shows (``None``: all); the rest stay on screen."""
    printed_beside: bool = False
    """Printed after the sheet's first table, on a page of its own, and only while it has
    rows (a round's byes; never its codes, a table without ``printed``)."""
    printed_rows: int | None = None
    """How many rows a printout shows, the header's included (``None``: all). A membership
    list of 22,000 rows is 775 pages: it prints its header alone, one page saying what the
    sheet is (a TD who wants part of it filters it and prints the selection)."""
    freeze: str = "A2"
    """The top-left cell that scrolls: the header row (and name columns) stay in view."""
    bulk: bool = False
    """Too large for openpyxl's pace: its rows bypass it (see ``addin.workbook.bulk_sheet``)."""

    @functools.cached_property
    def _by_key(self) -> dict[str, Column]:
        """The columns by key (a column is looked up once per cell written)."""
        return {c.key: c for c in self.columns}

    def column(self, key: str) -> Column:
        found = self._by_key.get(key)
        if found is None:
            raise KeyError(f"{self.name} has no column {key!r}")
        return found

    @property
    def headers(self) -> tuple[str, ...]:
        return tuple(c.header for c in self.columns)


def _choices(enum_type: type[enum.Enum]) -> tuple[str, ...]:
    return tuple(str(m.value) for m in enum_type)


# --- Tournament: Setting / Value rows -------------------------------------------------


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    kind: Kind = Kind.TEXT
    default: object = ""
    choices: tuple[str, ...] = ()
    help: str = ""
    required_for_aga: bool = False
    bounds: tuple[float, float] | None = None
    """The lowest and highest number the setting takes (both included): every setting of a
    number kind has them (a rank or rating keeps to the AGA scale by its kind)."""


SETTINGS: tuple[Setting, ...] = (
    Setting("name", "Tournament name", required_for_aga=True),
    Setting("venue", "Venue", help="Name of the venue"),
    Setting("venue_address", "Venue address"),
    Setting("start_date", "Start date", Kind.DATE, required_for_aga=True),
    Setting("end_date", "End date", Kind.DATE),
    Setting("director_name", "Director name", required_for_aga=True),
    Setting("director_address", "Director address"),
    Setting("director_phone", "Director phone", required_for_aga=True),
    Setting("director_email", "Director email", required_for_aga=True),
    Setting("sponsor_name", "Sponsor name"),
    Setting("sponsor_address", "Sponsor address"),
    Setting("sponsor_email", "Sponsor email"),
    Setting("sponsor_phone", "Sponsor phone"),
    Setting("sponsor_web", "Sponsor web page"),
    Setting("convener_name", "Convener name"),
    Setting("convener_address", "Convener address"),
    Setting("convener_email", "Convener email"),
    Setting("convener_phone", "Convener phone"),
    Setting("convener_web", "Convener web page"),
    Setting(
        "pairing_format",
        "Pairing format",
        Kind.CHOICE,
        "McMahon",
        ("McMahon", "Swiss", "Round robin"),
        required_for_aga=True,
    ),
    Setting("rules", "Rules", Kind.CHOICE, "AGA", _choices(Rules), required_for_aga=True),
    Setting(
        "basic_time_minutes",
        "Basic time (minutes)",
        Kind.INT,
        required_for_aga=True,
        bounds=(0, MAX_BASIC_TIME),
    ),
    Setting(
        "overtime_format",
        "Overtime format",
        Kind.CHOICE,
        "Byo-yomi",
        ("Byo-yomi", "Canadian", "Fischer", "Sudden death"),
    ),
    Setting(
        "overtime_conditions",
        "Overtime conditions",
        help="e.g. 5 periods of 30 seconds; 25 stones in 10 minutes; 5 second increment",
    ),
    Setting(
        "komi",
        "Komi (even games)",
        Kind.FLOAT,
        7.5,
        required_for_aga=True,
        bounds=(-MAX_KOMI, MAX_KOMI),
    ),
    Setting(
        "rounds", "Number of rounds", Kind.INT, 5, required_for_aga=True, bounds=(1, MAX_ROUNDS)
    ),
    Setting(
        "bar",
        "Bar (rank or rating)",
        Kind.RATING_FLOOR,
        help="Players at or above play in the top band",
    ),
    Setting(
        "band_d",
        "Band parameter D",
        Kind.FLOAT,
        0.75,
        help="Separation = int(D x P / R)",
        bounds=BAND_D,
    ),
    Setting(
        "top_band_separation",
        "Top band separation",
        Kind.CHOICE,
        "Automatic",
        ("Automatic", "1 point"),
    ),
    Setting("score_origin", "Initial scores", Kind.CHOICE, "0 at top", _choices(ScoreOrigin)),
    Setting(
        "bottom_score_offset",
        "Lowest band initial score",
        Kind.FLOAT,
        0,
        help="With 0 at bottom: the lowest band's score "
        "(a little above 0 leaves room for late arrivals)",
        bounds=SCORES,
    ),
    Setting("handicap_policy", "Handicap", Kind.CHOICE, "Minus 1", _choices(HandicapPolicy)),
    Setting(
        "handicap_basis",
        "Handicap from",
        Kind.CHOICE,
        "Rating difference",
        _choices(HandicapBasis),
        help="AGA: rating difference; BGA/EGF: McMahon score difference",
    ),
    Setting(
        "handicap_even_from",
        "Handicap counts ranks up to",
        Kind.RATING_FLOOR,
        help="Ranks above count as this rank, so games between them are even (blank: none)",
    ),
    Setting(
        "handicap_ceiling",
        "Handicap ceiling",
        Kind.INT,
        MAX_HANDICAP,
        help=f"Most stones (0-{MAX_HANDICAP})",
        bounds=(0, MAX_HANDICAP),
    ),
    Setting("top_band_even", "Top band games even", Kind.BOOL, "Yes"),
    Setting("color_policy", "Colour assignment", Kind.CHOICE, "Restricted", _choices(ColorPolicy)),
    Setting("avoid_same_family", "Avoid same family", Kind.BOOL, "No"),
    Setting("avoid_same_club", "Avoid same club", Kind.BOOL, "No"),
    Setting("avoid_same_city", "Avoid same city", Kind.BOOL, "No"),
    Setting("avoid_same_state", "Avoid same state", Kind.BOOL, "No"),
    Setting("avoid_same_country", "Avoid same country", Kind.BOOL, "No"),
    Setting("avoid_handicap_games", "Avoid handicap games", Kind.BOOL, "No"),
    Setting(
        "avoidance_points",
        "Avoidance may cost (points)",
        Kind.INT,
        0,
        help=(
            "0: AGA rule (only within a score group); N: EGF style, as OpenGotha's "
            "preferMMSDiffRatherThanSameClub: up to 1.2 N + 0.5 McMahon points more in total"
        ),
        bounds=(0, MAX_AVOIDANCE_POINTS),
    ),
    Setting(
        "tiebreaks",
        "Tiebreak order",
        default="SOS, SODOS, Face to face, Random",
        help="Comma-separated; AGA standard: SOS, SODOS, Face to face, Random",
    ),
    Setting(
        "seed",
        "Random seed",
        Kind.INT,
        0,
        help="Seeds the random draw tiebreak",
        bounds=(0, MAX_SEED),
    ),
    Setting("check_in", "Check-in", Kind.BOOL, "No"),
    Setting("projected_ratings", "Projected ratings", Kind.BOOL, "Yes"),
    # --- European McMahon (BGA functional specification): blank follows "McMahon rules" ---
    Setting(
        "mcmahon_rules",
        "McMahon rules",
        Kind.CHOICE,
        "AGA",
        _choices(McMahonRules),
        help="AGA, BGA or EGF: the European options below follow it while blank",
    ),
    Setting(
        "grade_scale",
        "McMahon scale",
        Kind.CHOICE,
        choices=_choices(GradeScale),
        help="AGA bands; or one point per grade: Zero shodan (UK), Zero 20 kyu (EGF)",
    ),
    Setting(
        "bar_table",
        "Bar population table",
        Kind.CHOICE,
        choices=_choices(BarTable),
        help="The table a proposed bar must fit: BGA, EGF or Toyota Tour",
    ),
    Setting(
        "supergroup",
        "Supergroup",
        Kind.CHOICE,
        choices=_choices(Supergroup),
        help="EGF: 4(N-2) players one point above the bar when too many are at 4d and up",
    ),
    Setting(
        "odd_player",
        "Odd number of players",
        Kind.CHOICE,
        choices=_choices(OddPlayer),
        help="Bye (AGA); or Ghost player: the ghost named below plays instead of a bye",
    ),
    Setting(
        "ghost_player",
        "Ghost player (AGA #)",
        Kind.AGA_ID,
        help="A registered player who plays only when the field is odd",
        bounds=(1, MAX_AGA_ID),
    ),
    Setting(
        "group_seeding",
        "Seeding within a group",
        Kind.CHOICE,
        choices=_choices(GroupSeeding),
        help="The order of a score group before it is split: Rating (AGA), SOS or Random",
    ),
    Setting(
        "group_pairing",
        "Pairing within a group",
        Kind.CHOICE,
        choices=_choices(GroupPairing),
        help="Split and shift (AGA: 1-5, 2-6) or Split and fold (1-8, 2-7)",
    ),
    Setting(
        "float_choice",
        "Who plays up or down",
        Kind.CHOICE,
        choices=_choices(FloatChoice),
        help="AGA: the strongest of the lower group plays up; EGF: by SOS (BGA 6.1.2)",
    ),
    Setting(
        "beyond_nine",
        "Handicap beyond 9 stones",
        Kind.CHOICE,
        choices=_choices(BeyondNine),
        help="Capped at 9 (AGA), or komi to Black for each stone beyond 9 (BGA 6.2)",
    ),
    Setting(
        "avoidance_scope",
        "Avoidance applies",
        Kind.CHOICE,
        choices=_choices(AvoidanceScope),
        help="First half (AGA), or below the current bar, the bar plus one a round (BGA 7.5)",
    ),
    Setting(
        "sleeping",
        "Sleeping players",
        Kind.CHOICE,
        choices=_choices(Sleeping),
        help="A round missed by request: no points (AGA), or ½ a round for pairing (BGA 4.3)",
    ),
)

SETTINGS_TABLE = Table(
    sheet="Tournament",
    name="Settings",
    columns=(
        Column("setting", "Setting", width=28, required=True),
        Column("value", "Value", Kind.ANY, width=36),
        Column("help", "Help", width=60, wrap=True),
    ),
    unique="setting",
    printed=3,
)

SETTING_HELP: dict[str, str] = {
    "name": "The event's name, as printed on every page and sent to the AGA.",
    "venue": "Where the games are played (club, school, hotel).",
    "venue_address": "Street, city and state of the venue.",
    "start_date": "First day of play (YYYY-MM-DD or M/D/YYYY).",
    "end_date": "Last day of play; leave blank for a one-day event.",
    "director_name": "You, the tournament director: the AGA asks for a name.",
    "director_address": "Your mailing address, for the AGA report.",
    "director_phone": "A phone number the AGA can reach you on.",
    "director_email": "Your email, for the AGA report.",
    "sponsor_name": "Who puts on the event (chapter or club); optional.",
    "sponsor_address": "The sponsor's mailing address; optional.",
    "sponsor_email": "The sponsor's email; optional.",
    "sponsor_phone": "The sponsor's phone; optional.",
    "sponsor_web": "The sponsor's web page; optional.",
    "convener_name": "Who organised it, if not the sponsor; optional.",
    "convener_address": "The convener's mailing address; optional.",
    "convener_email": "The convener's email; optional.",
    "convener_phone": "The convener's phone; optional.",
    "convener_web": "The convener's web page; optional.",
    "pairing_format": "McMahon for most AGA events; Swiss when all start at 0; Round robin "
    "for small groups.",
    "rules": "The rule set announced to players (AGA for most events).",
    "basic_time_minutes": "Main time per player, in minutes, before overtime.",
    "overtime_format": "What happens when main time runs out.",
    "overtime_conditions": "For example: 5 periods of 30 seconds; 25 stones in 10 minutes.",
    "komi": "Points White receives in even games (7.5 under AGA rules).",
    "rounds": "How many rounds you will play; the Players sheet gets one column per round.",
    "bar": "Players at or above this rank play in the top band (4d, or a rating such as 3.5).",
    "band_d": "How spread out bands are: bigger D gives more points between bands (0.75).",
    "top_band_separation": "Automatic, or 1 point between the top band and the next.",
    "score_origin": "Whether the top band starts at 0 (usual) or the bottom band does.",
    "bottom_score_offset": "With 0 at bottom: the lowest band's starting score.",
    "handicap_policy": "Handicap stones in uneven games: rank difference minus 1 is usual.",
    "top_band_even": "Yes: games in the top band are always even.",
    "color_policy": "How colours are given: Restricted balances them; Manual leaves them to you.",
    "avoid_same_family": "Yes: the pairing avoids pairing members of one family.",
    "avoid_same_club": "Yes: the pairing avoids pairing players of one club (chapter).",
    "avoid_same_city": "Yes: the pairing avoids pairing players from one city.",
    "avoid_same_state": "Yes: the pairing avoids pairing players from one state.",
    "avoid_same_country": "Yes: the pairing avoids pairing players from one country.",
    "avoid_handicap_games": "Yes: the pairing prefers even games over handicap games.",
    "tiebreaks": "Pick an order from the list, or type tiebreak names separated by commas.",
    "seed": f"A whole number from 0 to {MAX_SEED:,}: it fixes the random draw, the last tiebreak.",
    "check_in": "Yes: pre-registered players are Not arrived until checked in at the desk "
    "(Check in, or a station), and pairing leaves them out. No: everyone registered plays.",
    "projected_ratings": "Yes: the Standings sheet shows each player's AGA rating as the "
    "event would leave it (an unofficial projection by the AGA's published method, from the "
    "TDListA's ratings and sigmas); No: it does not.",
    "mcmahon_rules": "AGA for AGA events; BGA or EGF set the European options below while "
    "they are blank (each may be typed over); the McMahon rules button (`rules`) also sets "
    "the preset's handicap and avoidance rows.",
    "grade_scale": "Blank: as McMahon rules. AGA bands; Zero shodan (one point a grade, "
    "1d = 0, bottom bar 30k); Zero 20 kyu (one point a grade, 20k and weaker = 0).",
    "bar_table": "Blank: as McMahon rules. The population table `bands` proposes a bar from "
    "when none is typed: BGA (4.2.1), EGF (4.2.2) or Toyota Tour.",
    "supergroup": "Blank: as McMahon rules. EGF: when more than 6(N-2) are at 4d and up, "
    "4(N-2) of them start one point above the bar; Toyota Tour: 12 (5 rounds) or 16.",
    "odd_player": "Blank: as McMahon rules. Bye: the AGA forced bye; Ghost player: no byes "
    "(BGA 7.1): the ghost below plays whoever would have had the bye.",
    "ghost_player": "The AGA # of a registered player (often the TD) who plays only when the "
    "field is odd; their games are real games (the Standings still list them).",
    "group_seeding": "Blank: as McMahon rules. How a score group is ordered before it is "
    "split (BGA 7.3): Rating (AGA), SOS so far, or Random (fixed by the Random seed).",
    "group_pairing": "Blank: as McMahon rules. Split and shift pairs 1-5, 2-6 (AGA); Split "
    "and fold pairs the top with the bottom, 1-8, 2-7 (BGA 7.3).",
    "float_choice": "Blank: as McMahon rules. AGA: the strongest of the lower group plays up; "
    "EGF (by SOS): the upper group's highest SOS plays down against the lower group's lowest.",
    "beyond_nine": "Blank: as McMahon rules. Capped at 9 (AGA); or Black gets komi for each "
    "stone beyond 9: twice the even komi (BGA), 15 points (EGF) or 20 points (BGA 6.2).",
    "avoidance_scope": "Blank: as McMahon rules. The avoid-same switches apply in the first "
    "half (AGA), or in every round below the current bar, the bar plus one point a round "
    "(BGA 7.5).",
    "sleeping": "Blank: as McMahon rules. A round missed with your consent (a bye request) "
    "counts nothing (AGA), or for the pairing ½ a round, a whole point every two (BGA 4.3); "
    "'none in the top group' starts a top-group sleeper one point below the bar.",
}
"""One line per setting, in a TD's words, for the Help column of the Tournament sheet."""


def setting_help(setting: Setting) -> str:
    """The Help column's line for ``setting`` (a new setting says what it accepts)."""
    if setting.key in SETTING_HELP:
        return SETTING_HELP[setting.key]
    if setting.help:
        return setting.help
    if setting.choices:
        return "Choose one: " + ", ".join(setting.choices) + "."
    return "Yes or No." if setting.kind is Kind.BOOL else "Type the value."


# --- Membership list ------------------------------------------------------------------

TDLISTA = Table(
    sheet="TDListA",
    name="TDListA",
    columns=(
        Column("name", "Name", owner=Owner.IMPORT, width=30, required=True),
        Column("aga_id", "AGA #", Kind.AGA_ID, Owner.IMPORT, width=9, required=True),
        Column("membership_type", "Type", owner=Owner.IMPORT, width=8),
        Column("rating", "Rating", Kind.FLOAT, Owner.IMPORT, width=9, number_format="0.00"),
        Column("expiry", "Expires", Kind.DATE, Owner.IMPORT, width=11, number_format="yyyy-mm-dd"),
        Column("chapter", "Chapter", owner=Owner.IMPORT, width=9),
        Column("state", "State", owner=Owner.IMPORT, width=7),
        Column("sigma", "Sigma", Kind.FLOAT, Owner.IMPORT, width=8, number_format="0.000"),
        Column(
            "rating_date",
            "Rating date",
            Kind.DATE,
            Owner.IMPORT,
            width=11,
            number_format="yyyy-mm-dd",
        ),
    ),
    unique="aga_id",
    printed=9,
    printed_rows=1,
    bulk=True,
)

_egd = Owner.IMPORT_EGD
EGD_LIST = Table(
    sheet="EGD list",
    name="EGDList",
    columns=(
        Column("pin", "PIN", Kind.INT, _egd, width=10, required=True, bounds=PINS),
        Column("family_name", "Family name", owner=_egd, width=20, required=True),
        Column("given_name", "Given name", owner=_egd, width=16),
        Column("country", "Country", owner=_egd, width=8),
        Column("club", "Club", owner=_egd, width=7),
        Column("grade", "Grade", owner=_egd, width=7),
        Column("gor", "GoR", Kind.INT, _egd, width=7, help="The EGF rating: 2100 is 1d"),
        Column("promotion", "P&D", owner=_egd, width=6, help="Suggested promotion or demotion"),
        Column("tournaments", "Tournaments", Kind.INT, _egd, width=11),
        Column("last_tournament", "Last tournament", owner=_egd, width=14),
    ),
    unique="pin",
    printed=10,
    printed_rows=1,
    bulk=True,
)
"""The European Go Database's list of players (``import-egd-list``), keyed by PIN."""

BULK_SHEETS = (TDLISTA.sheet, EGD_LIST.sheet)
"""The sheets too large for openpyxl's pace (``Table.bulk``)."""

# --- Players --------------------------------------------------------------------------

BYE_REQUEST_CHOICES = ("Bye", "Volunteer")
"""Per-round request: a voluntary bye, or volunteering for the forced bye if one is needed."""


def round_header(number: int) -> str:
    return f"R{number}"


def players_table(rounds: int) -> Table:
    """The Players table; it has one bye-request column per round."""
    reg = Owner.REGISTER
    return Table(
        sheet="Players",
        name="Players",
        columns=(
            Column("aga_id", "AGA #", Kind.AGA_ID, reg, width=8, required=True),
            Column("family_name", "Family name", owner=reg, width=18, required=True),
            Column("given_name", "Given name", owner=reg, width=16),
            Column("rank", "Rank or rating", Kind.TEXT, Owner.TD, width=9),
            Column("rating", "Entry rating", Kind.FLOAT, reg, width=9, number_format="0.00"),
            Column(
                "aga_rating",
                "AGA rating",
                Kind.FLOAT,
                reg,
                width=9,
                number_format="0.00",
                help="The published rating from the TDListA (the entry rating may differ)",
            ),
            Column("above_bar", "Above bar", Kind.BOOL, width=8, choices=YES_NO),
            Column("band", "Band", Kind.INT, Owner.BANDS, width=6),
            Column("band_override", "Band override", Kind.INT, width=8),
            Column(
                "initial_score", "Initial score", Kind.FLOAT, Owner.BANDS, width=8, bounds=SCORES
            ),
            Column("status", "Status", Kind.CHOICE, width=9, choices=_choices(Status)),
            Column("bye_volunteer", "Bye volunteer", Kind.BOOL, width=8, choices=YES_NO),
            *(
                Column(
                    f"r{n}",
                    round_header(n),
                    Kind.CHOICE,
                    width=9,
                    choices=BYE_REQUEST_CHOICES,
                    help=f"Bye request for round {n}",
                )
                for n in range(1, rounds + 1)
            ),
            Column("membership_type", "Membership", owner=reg, width=11),
            Column(
                "membership_expiry", "Expires", Kind.DATE, reg, width=12, number_format="yyyy-mm-dd"
            ),
            Column("chapter", "Chapter", owner=reg, width=8),
            Column("state", "State", owner=reg, width=6),
            Column("city", "City", width=12),
            Column("country", "Country", width=8),
            Column(
                "egd_pin",
                "EGD PIN",
                Kind.INT,
                reg,
                width=10,
                bounds=PINS,
                help="The player's PIN in the European Go Database (register --pin)",
            ),
            Column(
                "gor",
                "GoR",
                Kind.INT,
                reg,
                width=7,
                help="The EGF rating from the EGD list at registration (2100 is 1d)",
            ),
            Column("family_group", "Family group", width=10),
            Column("email", "Email", width=22),
            Column("phone", "Phone", width=14),
            Column("address", "Mailing address", width=28),
            Column("citizenship", "Citizenship", width=10),
            Column("birth_date", "Birth date", Kind.DATE, width=11, number_format="yyyy-mm-dd"),
            Column(
                "aga_fee",
                "AGA fee",
                Kind.MONEY,
                width=8,
                number_format="0.00",
                help="Membership fee collected at the desk (dollars); reported to the AGA",
            ),
            Column("notes", "Notes", width=24),
        ),
        unique="aga_id",
        printed=16 + rounds,
        freeze="C2",
    )


# --- Bands ----------------------------------------------------------------------------

BANDS = Table(
    sheet="Bands",
    name="Bands",
    columns=(
        Column("number", "Band", Kind.INT, Owner.BANDS, width=6, required=True),
        Column("label", "Ranks", owner=Owner.BANDS, width=12),
        Column(
            "min_rating",
            "Lowest rating",
            Kind.RATING_FLOOR,
            Owner.BANDS,
            width=10,
            required=True,
            help="Entry ratings at or above this belong to the band (type a rank or rating)",
        ),
        Column("players", "Players", Kind.INT, Owner.BANDS, width=8),
        Column("separation", "Separation", Kind.INT, Owner.BANDS, width=10),
        Column("separation_override", "Separation override", Kind.INT, width=11),
        Column("initial_score", "Initial score", Kind.FLOAT, Owner.BANDS, width=9, bounds=SCORES),
    ),
    unique="number",
)

# --- Rounds ---------------------------------------------------------------------------


def round_sheet(number: int) -> str:
    return f"Round {number}"


def round_number_of(sheet: str) -> int | None:
    prefix = "Round "
    if sheet.startswith(prefix) and sheet[len(prefix) :].isdecimal():
        return int(sheet[len(prefix) :])
    return None


def games_table(number: int) -> Table:
    p = Owner.PAIR
    return Table(
        sheet=round_sheet(number),
        name=f"Round{number}Games",
        columns=(
            # the printed columns first: a 60-board round fits a page's width at full size
            Column("board", "Board", Kind.INT, p, width=6),
            Column("white_name", "White", owner=p, width=24),
            Column("black_name", "Black", owner=p, width=24),
            Column("handicap", "Handicap", Kind.INT, p, width=9),
            Column("komi", "Komi", Kind.FLOAT, p, width=6, number_format="0.0"),
            Column("result", "Result", Kind.RESULT, Owner.TD, width=20, choices=_choices(Result)),
            Column("white", "White AGA #", Kind.AGA_ID, p, width=9, required=True),
            Column("white_rating", "W rating", Kind.FLOAT, p, width=8, number_format="0.00"),
            Column("black", "Black AGA #", Kind.AGA_ID, p, width=9, required=True),
            Column("black_rating", "B rating", Kind.FLOAT, p, width=8, number_format="0.00"),
            Column("notes", "Notes", owner=p, width=36),
        ),
        unique=None,
        printed=6,
    )


def byes_table(number: int) -> Table:
    p = Owner.PAIR
    return Table(
        sheet=round_sheet(number),
        name=f"Round{number}Byes",
        anchor_column=len(games_table(number).columns) + 2,
        columns=(
            Column("player", "Bye AGA #", Kind.AGA_ID, p, width=9, required=True),
            Column("name", "Bye player", owner=p, width=24),
            Column("kind", "Bye type", Kind.CHOICE, p, width=10, choices=_choices(ByeKind)),
        ),
        unique="player",
        printed=3,
        printed_beside=True,
    )


def codes_table(number: int) -> Table:
    """Each board's result code, right of the byes: the TD's copy of the code printed on the
    board's pairing card and result slip, with which its players report the result from the
    served site (``addin.publish.board_reports``). A table of its own, so that a workbook
    made before it keeps its games and byes where they were."""
    byes = byes_table(number)
    p = Owner.PAIR
    return Table(
        sheet=round_sheet(number),
        name=f"Round{number}Codes",
        anchor_column=byes.anchor_column + len(byes.columns) + 1,
        columns=(
            Column("board", "Code board", Kind.INT, p, width=7),
            Column("code", "Result code", owner=p, width=9),
        ),
        unique="board",
    )


# --- Requests -------------------------------------------------------------------------

REQUESTS = Table(
    sheet="Requests",
    name="Requests",
    columns=(
        Column("round", "Round", Kind.INT, width=7, help="Blank: every round"),
        Column(
            "kind", "Request", Kind.CHOICE, width=10, choices=_choices(RequestKind), required=True
        ),
        Column("first", "Player 1 AGA #", Kind.AGA_ID, width=10, required=True),
        Column("second", "Player 2 AGA #", Kind.AGA_ID, width=10, required=True),
        Column("notes", "Notes", width=40),
    ),
)

# --- Standings and Cross Table --------------------------------------------------------


def standings_table(tiebreaks: Sequence[str], projected: bool = False) -> Table:
    s = Owner.STANDINGS
    projection = (
        Column("rating_before", "AGA rating", Kind.FLOAT, s, width=9, number_format="0.00"),
        Column(
            "projected_rating",
            "Projected rating (unofficial)",
            Kind.FLOAT,
            s,
            width=11,
            number_format="0.00",
        ),
        Column(
            "projected_sigma",
            "Projected sigma (unofficial)",
            Kind.FLOAT,
            s,
            width=11,
            number_format="0.000",
        ),
        Column(
            "rating_change",
            "Change (unofficial)",
            Kind.FLOAT,
            s,
            width=10,
            number_format="+0.00;-0.00;0.00",
        ),
    )
    return Table(
        sheet="Standings",
        name="Standings",
        columns=(
            Column("place", "Place", Kind.INT, s, width=6),
            Column("aga_id", "AGA #", Kind.AGA_ID, s, width=8),
            Column("name", "Name", owner=s, width=26),
            Column("rank", "Rank", owner=s, width=6),
            Column("band", "Band", Kind.INT, s, width=6),
            Column("initial_score", "Initial score", Kind.FLOAT, s, width=8),
            Column("wins", "Wins", Kind.FLOAT, s, width=6),
            Column("mms", "McMahon score", Kind.FLOAT, s, width=10),
            *(
                Column(f"tb{i}", name, Kind.FLOAT, s, width=10)
                for i, name in enumerate(tiebreaks, start=1)
            ),
            *(projection if projected else ()),
        ),
        freeze="D2",
    )


def cross_table(rounds: int, tiebreaks: Sequence[str]) -> Table:
    s = Owner.STANDINGS
    return Table(
        sheet="Cross Table",
        name="CrossTable",
        columns=(
            Column("number", "No.", Kind.INT, s, width=5),
            Column("name", "Name", owner=s, width=26),
            Column("rank", "Rank", owner=s, width=6),
            *(Column(f"r{n}", round_header(n), owner=s, width=7) for n in range(1, rounds + 1)),
            Column("mms", "McMahon score", Kind.FLOAT, s, width=10),
            *(
                Column(f"tb{i}", name, Kind.FLOAT, s, width=10)
                for i, name in enumerate(tiebreaks, start=1)
            ),
        ),
        freeze="C2",
    )


# --- Log ------------------------------------------------------------------------------

LOG_LEVELS = ("Action", "Warning", "Confirmed", "Error")

LOG = Table(
    sheet="Log",
    name="Log",
    columns=(
        Column(
            "timestamp",
            "Time",
            Kind.TIMESTAMP,
            Owner.LOG,
            width=20,
            number_format="yyyy-mm-dd hh:mm:ss",
        ),
        Column("level", "Level", Kind.CHOICE, Owner.LOG, width=10, choices=LOG_LEVELS),
        Column("action", "Action", owner=Owner.LOG, width=16),
        Column("message", "Message", owner=Owner.LOG, width=100, wrap=True),
    ),
)

SHEET_ORDER = (
    "Tournament",
    "Players",
    "Bands",
    "Requests",
    "Standings",
    "Cross Table",
    "TDListA",
    "EGD list",
    "Log",
)
"""Fixed sheets, in tab order; ``Round N`` sheets go after Requests."""


def fixed_tables(rounds: int, tiebreaks: Sequence[str]) -> tuple[Table, ...]:
    return (
        SETTINGS_TABLE,
        players_table(rounds),
        BANDS,
        REQUESTS,
        standings_table(tiebreaks),
        cross_table(rounds, tiebreaks),
        TDLISTA,
        EGD_LIST,
        LOG,
    )


def round_tables(number: int) -> tuple[Table, Table]:
    return games_table(number), byes_table(number)


# --- What an action reads and writes ----------------------------------------------------


class Section(enum.Enum):
    """The sections of the workbook an action declares it reads or writes (the action
    registry): the store loads only what an action declares, and a test holds every
    action to its declaration. A section is a fixed table, or a family of tables made per
    round or per report."""

    SETTINGS = "Tournament settings"
    PLAYERS = "Players"
    BANDS = "Bands"
    REQUESTS = "Requests"
    ROUNDS = "Round sheets"
    STANDINGS = "Standings and Cross Table"
    MEMBERS = "TDListA"
    EGD_LIST = "EGD list"
    LOG = "Log"
    REPORT_SHEETS = "report sheets"


_SECTION_OF_TABLE = {
    SETTINGS_TABLE.name: Section.SETTINGS,
    "Players": Section.PLAYERS,
    BANDS.name: Section.BANDS,
    REQUESTS.name: Section.REQUESTS,
    "Standings": Section.STANDINGS,
    "CrossTable": Section.STANDINGS,
    TDLISTA.name: Section.MEMBERS,
    EGD_LIST.name: Section.EGD_LIST,
    LOG.name: Section.LOG,
}
REPORT_TABLE_PREFIX = "Report"
"""A report sheet's table is named ``Report...`` (``addin.workbook.report_sheet``)."""


def section_of(table: Table) -> Section:
    """The section ``table`` belongs to."""
    part = _SECTION_OF_TABLE.get(table.name)
    if part is not None:
        return part
    if round_number_of(table.sheet) is not None:
        return Section.ROUNDS
    if table.name.startswith(REPORT_TABLE_PREFIX):
        return Section.REPORT_SHEETS
    raise KeyError(f"table {table.name!r} is in no section of the layout")


def section_of_sheet(sheet: str) -> Section | None:
    """The section a whole sheet belongs to (a sheet removed), None for a sheet the layout does
    not declare."""
    if round_number_of(sheet) is not None:
        return Section.ROUNDS
    for table in (SETTINGS_TABLE, BANDS, REQUESTS, TDLISTA, EGD_LIST, LOG):
        if table.sheet == sheet:
            return _SECTION_OF_TABLE[table.name]
    named = {
        "Players": Section.PLAYERS,
        "Standings": Section.STANDINGS,
        "Cross Table": Section.STANDINGS,
    }
    if sheet in named:
        return named[sheet]
    return Section.REPORT_SHEETS if sheet.startswith("Report - ") else None


def section_sheets(sections: Collection[Section]) -> list[str] | None:
    """The sheets that hold ``sections`` when each is a fixed sheet (the TDListA, the Log);
    None when any is a family of sheets (the rounds, the reports) or Players and the like,
    whose sheet a reader finds by its tables."""
    fixed = {
        Section.SETTINGS: SETTINGS_TABLE.sheet,
        Section.BANDS: BANDS.sheet,
        Section.REQUESTS: REQUESTS.sheet,
        Section.MEMBERS: TDLISTA.sheet,
        Section.EGD_LIST: EGD_LIST.sheet,
        Section.LOG: LOG.sheet,
    }
    if not sections or any(s not in fixed for s in sections):
        return None
    return [fixed[s] for s in sections]
