"""The EGF tournament table: the ".h9" file in which the European Go Database takes results.

The format is the EGF rating pages' "Tournament table format" (gemma.ujf.cas.cz/~cieply/GO/
format.html), as OpenGotha (``ExternalDocument.generateH9File``) and pairgoth write it:

* header lines, each a comment the results parser skips: ``; CL[A]`` the EGF class,
  ``; EV[name]``, ``; PC[country,place]``, ``; DT[first day,last day]``, ``; HA[h2]`` the
  handicap rule (grade difference minus 2), ``; KM[7.5]``, ``; TM[82]`` the adjusted time in
  minutes, ``; CM[...]`` a comment;
* one line per player in the order of the final standings: place, "Family Given" (blanks
  inside a name as ``_``), grade (``3k``, ``4d``, ``1p``), country code, club, the score and
  tiebreak columns, then one entry a round, then ``|PIN`` where the EGD PIN is known;
* a round's entry is ``<opponent's line><+|-|=>/<w|b><handicap>`` (``12+/b0``, ``3-/w2``); a
  round without a game is a free round: ``0+`` (a point without playing: a forced bye, a
  game won by forfeit), ``0-`` (nothing: absent, a voluntary bye, a game lost by forfeit, a
  double forfeit), ``0=`` (half a point: a game with no result). A game whose result is not
  in yet is written ``<line>?/<w|b><h>``, which the EGD refuses (``check-egd`` says so first).

Character conventions: the file is ISO-8859-15, OpenGotha's; a letter that encoding lacks is
written as its base letter (``ř`` as ``r``), not as OpenGotha's ``?``. Characters that would
end a line or a field early (``;`` a comment, ``|`` the PIN, a control character, and in a
header ``]``) are replaced; ``check-egd`` lists the players whose names change.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from addin.core.model import ByeKind, Color, HandicapPolicy, Player, PlayerId, Settings, Tournament
from addin.core.ratings import RatingError, entry_rating, rank_of
from addin.core.scoring import Outcome, RoundRecord, last_round, player_records
from addin.core.tiebreaks import Standing, resolve, standings
from addin.formats.aga_xml import Overtime, OvertimeError, read_overtime

ENCODING = "iso-8859-15"
"""OpenGotha's encoding for the table (Latin-9: the Latin-1 letters, and the euro sign)."""
NAME_WIDTH = 30
"""OpenGotha's name column; a longer name is written whole (the fields are blank-separated)."""
NO_COUNTRY = "XX"
NO_CLUB = "xxxx"
"""What OpenGotha writes for a player without a country or a club."""
LONGEST_NAME = 100
"""The longest "Family Given" the check lets through: a name, not a text pasted in."""
CLUB_LENGTH = 4
LOWEST_GRADE = 30
"""The EGD's grades stop at 30k."""
PINS = (10_000_000, 99_999_999)
"""The lowest and highest EGD PIN: eight digits."""
COUNTRY = re.compile(r"[A-Za-z]{2}")

_UNSAFE_IN_LINE = str.maketrans({";": ",", "|": "/"})
"""Characters that end a player's line early: a comment, the PIN."""
_UNSAFE_IN_HEADER = str.maketrans({";": ",", "|": "/", "[": "(", "]": ")"})
"""And in a header field, the bracket that ends its value."""
_BLANKS = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")
_NO_DECOMPOSITION = str.maketrans(
    {"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T"}
)
"""Letters Unicode gives no base letter, written as the one they are read as."""


class EgfClass(enum.Enum):
    """The EGF's tournament classes, by time limits (EGF rating pages, "Tournament classes")."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"
    """An online tournament."""
    X = "X"
    """Too short for any class: the EGD does not rate it."""


@dataclass(frozen=True)
class TimeLimit:
    """The least basic and adjusted time (minutes) a class needs."""

    basic: int
    adjusted: int


CLASS_LIMITS: dict[bool, dict[EgfClass, TimeLimit]] = {
    False: {
        EgfClass.A: TimeLimit(60, 75),
        EgfClass.B: TimeLimit(40, 50),
        EgfClass.C: TimeLimit(25, 30),
        EgfClass.D: TimeLimit(40, 50),
    },
    True: {
        EgfClass.A: TimeLimit(45, 75),
        EgfClass.B: TimeLimit(30, 50),
        EgfClass.C: TimeLimit(20, 30),
        EgfClass.D: TimeLimit(30, 50),
    },
}
"""By Fischer time (True) or not: OpenGotha's ``Tournament.egfClass`` and pairgoth's export.
Class D (online) has class B's limits."""

MOVES_IN_OVERTIME = {"ByoYomi": 45, "Canadian": 60, "Fischer": 120}
"""The adjusted time is the basic time plus the time of this many moves in the overtime:
45 in byo-yomi, 60 in Canadian overtime (EGF rating pages), 120 with a Fischer increment
(OpenGotha, pairgoth)."""


@dataclass(frozen=True)
class EventDetails:
    """What the EGD asks for that the workbook does not hold: the TD gives it to the export."""

    country: str = ""
    """The event's country code (PC): the EGD files the event under it."""
    egf_class: EgfClass | None = None
    """The class the TD declares (the organiser may choose a lower one); None: by the time."""


@dataclass(frozen=True)
class TimeClass:
    """The time limits as the EGF counts them."""

    basic: int | None
    """Basic time in minutes (None: not set)."""
    adjusted: int | None
    """Adjusted time in minutes (None: the overtime cannot be read)."""
    fischer: bool
    egf_class: EgfClass
    """The highest class the time limits allow (X when unknown)."""
    overtime_problem: OvertimeError | None = None


def time_class(s: Settings) -> TimeClass:
    """The adjusted time and the highest EGF class the Tournament sheet's time limits give.

    Only the time a move has in overtime counts: a byo-yomi period's length, a Canadian
    block's time over its moves, the Fischer increment (the number of periods does not)."""
    basic = s.basic_time_minutes
    try:
        overtime = read_overtime(s.overtime_format, s.overtime_conditions)
    except OvertimeError as err:
        return TimeClass(basic, None, False, EgfClass.X, err)
    fischer = overtime.kind == "Fischer"
    per_move = _seconds_a_move(overtime)
    if per_move is None:
        wanted = {"Canadian": "the moves and the time of a block"}.get(overtime.kind, "a time")
        problem = OvertimeError(
            f"overtime conditions {s.overtime_conditions.strip()[:60]!r} do not give {wanted} "
            "(for example: 5 periods of 30 seconds; 25 stones in 10 minutes; 30 seconds "
            "increment)",
            "overtime_conditions",
        )
        return TimeClass(basic, None, fischer, EgfClass.X, problem)
    if basic is None:
        return TimeClass(None, None, fischer, EgfClass.X)
    adjusted = (60 * basic + round(MOVES_IN_OVERTIME.get(overtime.kind, 0) * per_move)) // 60
    allowed = next(
        (
            c
            for c in (EgfClass.A, EgfClass.B, EgfClass.C)
            if basic >= CLASS_LIMITS[fischer][c].basic
            and adjusted >= CLASS_LIMITS[fischer][c].adjusted
        ),
        EgfClass.X,
    )
    return TimeClass(basic, adjusted, fischer, allowed)


def _seconds_a_move(overtime: Overtime) -> float | None:
    """The overtime's time for one move (None: the conditions do not say it)."""
    if overtime.kind == "SuddenDeath":
        return 0.0
    if overtime.seconds is None:
        return None
    if overtime.kind == "Canadian":
        return overtime.seconds / overtime.stones if overtime.stones else None
    return overtime.seconds


def class_allowed(declared: EgfClass, time: TimeClass) -> bool:
    """Whether the time limits allow the class the TD declares (a lower one always)."""
    if declared is EgfClass.X:
        return True
    limit = CLASS_LIMITS[time.fischer][declared]
    return (
        time.basic is not None
        and time.adjusted is not None
        and time.basic >= limit.basic
        and time.adjusted >= limit.adjusted
    )


# --------------------------------------------------------------------------- characters


def latin9(text: str) -> str:
    """``text`` in the table's character set: a letter it lacks as its base letter, and
    what has none (a Chinese name) as ``?``."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if _encodable(ch):
            out.append(ch)
            continue
        base = "".join(
            c
            for c in unicodedata.normalize("NFD", ch.translate(_NO_DECOMPOSITION))
            if not unicodedata.combining(c) and _encodable(c)
        )
        out.append(base or "?")
    return "".join(out)


def _encodable(ch: str) -> bool:
    try:
        ch.encode(ENCODING)
    except UnicodeEncodeError:
        return False
    return True


def name_part(text: str) -> str:
    """A family or given name as the EGD writes it: blanks inside as ``_`` (OpenGotha's
    ``fullUnblankedName``), field-ending characters replaced, Latin-9 letters."""
    return _BLANKS.sub("_", latin9(text.translate(_UNSAFE_IN_LINE)).strip()).strip("_")


def header_value(text: str) -> str:
    """A header field's value on one line, with no bracket to end it early."""
    return _BLANKS.sub(" ", latin9(text.translate(_UNSAFE_IN_HEADER))).strip()


def table_name(p: Player) -> str:
    """The player's name in the table: ``Family Given`` (the family name alone without a
    given name; ``?`` for a family name with nothing to write)."""
    return " ".join(filter(None, (name_part(p.family_name) or "?", name_part(p.given_name))))


def grade(p: Player) -> str:
    """The grade the EGD reads: the entry rating's rank (``5k``, ``3d``, ``2p``), at least
    30k. Raises :class:`RatingError` when the player has no rank or rating."""
    rank = rank_of(entry_rating(p))
    if rank.endswith("k") and int(rank[:-1]) > LOWEST_GRADE:
        return f"{LOWEST_GRADE}k"
    return rank


def country_code(p: Player) -> str:
    """The player's 2-letter country code, upper case; ``XX`` for anything else."""
    code = p.country.strip()
    return code.upper() if COUNTRY.fullmatch(code) else NO_COUNTRY


def club_code(p: Player) -> str:
    """The club as the EGD holds it: at most 4 characters, no blank (``xxxx`` for none)."""
    club = name_part(p.chapter).replace("_", "")
    return club[:CLUB_LENGTH] or NO_CLUB


def is_pin(pin: int | None) -> bool:
    """Whether ``pin`` is an EGD PIN: eight digits."""
    return pin is not None and PINS[0] <= pin <= PINS[1]


def pin_of(p: Player) -> str:
    """The EGD PIN when the player's is one, else ``""``."""
    return str(p.egd_pin) if is_pin(p.egd_pin) else ""


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class TableLine:
    """One player's line."""

    number: int
    """The line's number: what other players' entries name."""
    place: int
    """The standings place (players tied on everything share it)."""
    player: PlayerId
    name: str
    grade: str
    country: str
    club: str
    pin: str
    scores: tuple[str, ...]
    entries: tuple[str, ...]
    """One a round."""


@dataclass(frozen=True)
class Table:
    header: tuple[tuple[str, str], ...]
    """(key, value) of each header field, in the file's order."""
    columns: tuple[str, ...]
    """The score and tiebreak columns' names."""
    lines: tuple[TableLine, ...]
    rounds: int
    software: str = ""

    def text(self) -> str:
        out = [f"; {key}[{value}]" for key, value in self.header]
        if self.software:
            out.append(f"; Generated by {header_value(self.software)}")
        out.append(";")
        columns = "".join(f"{c:>5}" for c in self.columns)
        out.append(f"; Pl {'Name':<{NAME_WIDTH}}  Rk Co Club{columns}")
        previous = None
        for line in self.lines:
            place = "" if line.place == previous else str(line.place)
            previous = line.place
            scores = "".join(f" {s:>4}" for s in line.scores)
            entries = "".join(f" {e:>8}" for e in line.entries)
            pin = f" |{line.pin}" if line.pin else ""
            out.append(
                f"{place:>4} {line.name:<{NAME_WIDTH}} {line.grade:>3} {line.country} "
                f"{line.club:>4}{scores}{entries}{pin}"
            )
        return "\n".join(out) + "\n"

    def data(self) -> bytes:
        return self.text().encode(ENCODING, errors="replace")


def egd_table(t: Tournament, details: EventDetails = EventDetails(), software: str = "") -> Table:
    """The EGF tournament table of ``t``: the rounds played, the players of the standings
    who played. Raises ValueError for a player with no rank or rating (no grade)."""
    rounds = last_round(t)
    order = _standings_order(t, rounds)
    numbers = {s.player: n for n, s in enumerate(order, start=1)}
    records = player_records(t, rounds)
    columns, values = _score_columns(t, order)
    lines = []
    place = 0
    previous: int | None = None
    for n, s in enumerate(order, start=1):
        p = t.players[s.player]
        if s.place != previous:
            place, previous = n, s.place
        try:
            rank = grade(p)
        except RatingError as err:
            raise ValueError(f"{p.name} ({p.aga_id}) has no grade: {err}") from err
        lines.append(
            TableLine(
                number=n,
                place=place,
                player=s.player,
                name=table_name(p),
                grade=rank,
                country=country_code(p),
                club=club_code(p),
                pin=pin_of(p),
                scores=values[s.player],
                entries=tuple(_entry(r, numbers) for r in records[s.player]),
            )
        )
    return Table(_header(t, details), columns, tuple(lines), rounds, software)


def write_h9(t: Tournament, details: EventDetails = EventDetails(), software: str = "") -> bytes:
    """The table as the EGD takes it: ISO-8859-15 text."""
    return egd_table(t, details, software).data()


def _standings_order(t: Tournament, rounds: int) -> list[Standing]:
    played = listed_players(t, rounds)
    return [s for s in standings(t, after_round=rounds) if s.player in played]


def listed_players(t: Tournament, rounds: int) -> set[PlayerId]:
    """Registered players with a game or a forced bye in the rounds written (as OpenGotha,
    which leaves out a registered player who never played)."""
    played: set[PlayerId] = set()
    for rnd in t.rounds:
        if rnd.number <= rounds:
            played |= rnd.paired_players()
            played |= {b.player for b in rnd.byes if b.kind is ByeKind.FORCED}
    return played & set(t.players)


def _entry(record: RoundRecord, numbers: dict[PlayerId, int]) -> str:
    """One round of one player, as the EGD writes it."""
    outcome = record.outcome
    if outcome in _FREE:
        return _FREE[outcome]
    symbol = _SYMBOLS[outcome]
    opponent = numbers.get(record.opponent, 0) if record.opponent is not None else 0
    colour = "w" if record.color is Color.WHITE else "b"
    return f"{opponent}{symbol}/{colour}{record.handicap}"


_FREE = {
    Outcome.FORCED_BYE: "0+",
    Outcome.FORFEIT_WIN: "0+",
    Outcome.VOLUNTARY_BYE: "0-",
    Outcome.ABSENT: "0-",
    Outcome.FORFEIT_LOSS: "0-",
    Outcome.DOUBLE_FORFEIT: "0-",
    Outcome.NO_RESULT: "0=",
}
"""Rounds without a game the EGD can rate: free rounds, with the points the standings give."""
_SYMBOLS = {Outcome.WIN: "+", Outcome.LOSS: "-", Outcome.JIGO: "=", Outcome.PENDING: "?"}


def _score_columns(
    t: Tournament, order: Sequence[Standing]
) -> tuple[tuple[str, ...], dict[PlayerId, tuple[str, ...]]]:
    """The score (MMS; NBW in a Swiss event) and the tiebreaks with a value for everyone
    (not face to face or the random draw), as the standings give them."""
    score = "NBW" if t.settings.pairing_format == "Swiss" else "MMS"
    criteria = (
        [n for n in order[0].criteria if not resolve(n).group_dependent and n != "Random"]
        if order
        else []
    )
    values = {s.player: (_number(s.score), *(_number(s.value(n)) for n in criteria)) for s in order}
    return (score, *(_short(n) for n in criteria)), values


def _short(name: str) -> str:
    return name.replace(" ", "")[:5]


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _header(t: Tournament, details: EventDetails) -> tuple[tuple[str, str], ...]:
    s = t.settings
    time = time_class(s)
    egf_class = details.egf_class or time.egf_class
    first, last = s.start_date, s.end_date or s.start_date
    dates = f"{first.isoformat()},{last.isoformat()}" if first and last else ""
    fields = [
        ("CL", egf_class.value),
        ("EV", header_value(s.name)),
        ("PC", f"{header_value(details.country).upper()},{header_value(s.venue)}"),
        ("DT", dates),
        ("HA", f"h{handicap_rule(s.handicap_policy)}"),
        ("KM", f"{s.komi:g}"),
    ]
    if time.adjusted is not None:
        fields.append(("TM", str(time.adjusted)))
    comment = time_comment(s)
    if comment:
        fields.append(("CM", comment))
    return tuple(fields)


def handicap_rule(policy: HandicapPolicy) -> int:
    """HA's number: the stones taken off the grade difference (9: every game even)."""
    reduction = policy.reduction
    return 9 if reduction is None else reduction


def time_comment(s: Settings) -> str:
    """The time limits in words, for CM: ``60 minutes, Byo-yomi: 5 periods of 30 seconds``."""
    parts: Iterable[str] = (
        f"{s.basic_time_minutes} minutes" if s.basic_time_minutes is not None else "",
        ": ".join(filter(None, (s.overtime_format.strip(), s.overtime_conditions.strip()))),
    )
    return header_value(", ".join(filter(None, parts)))
