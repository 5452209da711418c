"""Eggplant's extensions of the AGA XML report, so a TD can carry on in the AGA's own program.

Eggplant (the AGA's Java tournament program, github.com/Optay/eggplant, ``XmlEncoderAGA``)
writes and needs, beside the AGA's elements:

* ``eggplant-version`` on ``TournamentReport``: without it Eggplant takes the file for a save
  of 1.0.45 or earlier and offers to swap every game's colours. We write ``1.0.46``, the save
  format whose colours are right.
* per Player ``eggplantagarating`` (the exact rating; -30.50 when there is none) and
  ``eggplantparticipation``: one entry per round, each followed by a comma.
  ``PAIRED`` played, ``BYE`` the round's forced bye, ``ABSENT`` sat out (a voluntary bye in a
  round with games, a bye request or a drop in a round to come), ``NOT_ASSIGNED`` otherwise
  (also a round with games the player missed without a bye: late entry, dropped).
  Eggplant fails on the whole file when the attribute is missing.
* per Game ``eggplantresult`` (its enum: WHITE, BLACK, WHITE_BY_DEFAULT, ...): Eggplant reads
  the result only from here, and the forfeits only here survive (its GameResult says
  "Black win" for a forfeit too).
* an ``<eggplant>`` block after RoundList: number of rounds, bar and floor, handicap rules,
  default komi, bye values (points x 2). Without it Eggplant assumes 3 rounds, no handicap
  games and a half point for a bye.

Eggplant holds one bye player per round (its forced bye, written as a self-game); voluntary
byes are therefore absences. What Eggplant cannot represent is listed by
:func:`eggplant_limits`, which the export raises as a warning.

Our own extension: ``Status="Dropped"`` on a Player whom the TD dropped (Eggplant ignores it;
its ABSENT entries for the remaining rounds keep the player out of its pairings too).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from addin.core import limits
from addin.core.handicap import aga_text_komi, komi_from_report
from addin.core.limits import komi_problem
from addin.core.model import (
    ByeKind,
    Game,
    HandicapBasis,
    HandicapPolicy,
    Player,
    PlayerId,
    Result,
    Settings,
    Status,
    Tournament,
)
from addin.core.ratings import RatingError, rank_floor, rank_of
from addin.formats.aga_text import format_number, format_rating

EGGPLANT_VERSION = "1.0.46"
"""The first Eggplant save format with colours the right way round (build 46)."""
MAX_ROUNDS = 10
MAX_BOARDS = 600
MIN_RATING = -31.0
NO_RATING = "-30.50"
"""Eggplant's eggplantagarating for a player without an AGA rating."""
DROPPED = "Dropped"

PAIRED, BYE, ABSENT, NOT_ASSIGNED = "PAIRED", "BYE", "ABSENT", "NOT_ASSIGNED"

RESULTS: dict[Result | None, str] = {
    Result.WHITE_WINS: "WHITE",
    Result.BLACK_WINS: "BLACK",
    Result.WHITE_WINS_BY_FORFEIT: "WHITE_BY_DEFAULT",
    Result.BLACK_WINS_BY_FORFEIT: "BLACK_BY_DEFAULT",
    Result.JIGO: "DRAW",
    Result.NO_RESULT: "DRAW",  # Eggplant has no void result; a draw scores the same
    Result.DOUBLE_FORFEIT: "BOTH_LOSE_BY_DEFAULT",
    None: "UNKNOWN",
}
_FORFEITS: dict[tuple[str, Result | None], Result] = {
    ("WHITE_BY_DEFAULT", Result.WHITE_WINS): Result.WHITE_WINS_BY_FORFEIT,
    ("BLACK_BY_DEFAULT", Result.BLACK_WINS): Result.BLACK_WINS_BY_FORFEIT,
}
_SHOWN = 8
"""Games or players a warning names before it says "and N more"."""


def agarating(player: Player) -> str:
    return format_rating(player.rating) if player.rating is not None else NO_RATING


def refine_result(result: Result | None, eggplant_result: str) -> Result | None:
    """GameResult as read, made a forfeit where Eggplant's own result says so."""
    return _FORFEITS.get((eggplant_result.strip().upper(), result), result)


def round_count(t: Tournament) -> int:
    return max(t.settings.rounds, max((r.number for r in t.rounds), default=0))


Seated = tuple[frozenset[PlayerId], dict[PlayerId, set[ByeKind]], bool]
"""One round's paired players, bye kinds per player, and whether it has games."""


@dataclass(frozen=True)
class Seats:
    """Who each round seated, read once for all players (a 2,000-player export asks for
    every player in every round)."""

    rounds: dict[int, Seated]
    count: int

    @classmethod
    def of(cls, t: Tournament) -> Seats:
        rounds = {}
        for r in t.rounds:
            kinds: dict[PlayerId, set[ByeKind]] = {}
            for b in r.byes:
                kinds.setdefault(b.player, set()).add(b.kind)
            rounds[r.number] = (frozenset(r.paired_players()), kinds, bool(r.games))
        return cls(rounds, round_count(t))


def participation(t: Tournament, player: Player, seats: Seats | None = None) -> str:
    """Eggplant's ``eggplantparticipation`` for ``player``: "PAIRED,ABSENT,NOT_ASSIGNED,".
    ``seats``: :meth:`Seats.of` ``t``, when asking for many players."""
    seats = seats if seats is not None else Seats.of(t)
    entries = [_entry(player, n, seats.rounds.get(n)) for n in range(1, seats.count + 1)]
    return "".join(f"{e}," for e in entries)


def _entry(player: Player, number: int, seated: Seated | None) -> str:
    if seated is not None:
        paired, byes, has_games = seated
        if player.aga_id in paired:
            return PAIRED
        kinds = byes.get(player.aga_id, set())
        if ByeKind.FORCED in kinds:
            return BYE
        if ByeKind.VOLUNTARY in kinds:
            return ABSENT
        if has_games:
            return NOT_ASSIGNED
    if player.status is Status.DROPPED or number in player.bye_requests:
        return ABSENT
    return NOT_ASSIGNED


def absences(text: str) -> set[int]:
    """Rounds (1, 2, ...) an ``eggplantparticipation`` marks ABSENT."""
    entries = [p.strip().upper() for p in text.split(",")]
    return {number for number, entry in enumerate(entries, start=1) if entry == ABSENT}


def block(t: Tournament) -> list[tuple[str, str]]:
    """The ``<eggplant>`` block's elements, in Eggplant's order."""
    s = t.settings
    policy = s.handicap_policy
    return [
        ("numberofrounds", str(round_count(t))),
        ("mmbar", _eggplant_rank(s.bar) if s.bar is not None else "9D"),
        ("mmfloor", "30K"),
        ("bandspacingscheme", "SPACED"),  # keep the initial scores as written
        ("lastroundforseedsystem", "1"),
        ("pairingscheme1", "SPLIT_AND_RANDOM"),
        ("pairingscheme2", "SPLIT_AND_FOLD"),
        ("handicapgames", "false" if policy.reduction is None else "true"),
        (
            "maxhandicappedrank",
            "9D" if s.handicap_even_from is None else _eggplant_rank(s.handicap_even_from),
        ),
        ("handicapbasis", "MMS" if s.handicap_basis is HandicapBasis.MMS else "RANK"),
        ("handicapmodifier", str(policy.reduction or 0)),
        ("handicapceiling", str(s.handicap_ceiling)),
        ("defaultkomi", str(aga_text_komi(0, s.komi, s.rules)[1])),
        ("lastassignedagano", "99999"),
        ("absentnbwx2", "0"),
        ("absentmmsx2", "0"),
        ("byenbwx2", "2"),  # a forced bye scores a win (AGA protocol)
        ("byemmsx2", "2"),
    ]


def _eggplant_rank(rating: float) -> str:
    """Eggplant's rank ("6D", "20K"): 1 to 99 kyu or dan, so a professional bar is 9D."""
    return rank_of(min(rating, rank_floor("9d"))).upper()


# --------------------------------------------------------------------------- limits


def _game_name(number: int, index: int, g: Game) -> str:
    board = g.board if g.board is not None else index + 1
    return f"round {number} board {board} ({g.white} W v {g.black} B)"


def _listed(names: list[str]) -> str:
    shown = ", ".join(names[:_SHOWN])
    more = len(names) - _SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


def _games(t: Tournament) -> Iterable[tuple[int, int, Game]]:
    for rnd in sorted(t.rounds, key=lambda r: r.number):
        for index, g in enumerate(rnd.games):
            yield rnd.number, index, g


def eggplant_limits(t: Tournament) -> list[str]:
    """What Eggplant cannot represent in this tournament, one warning per kind, naming games."""
    warnings = []
    void = [_game_name(*x) for x in _games(t) if x[2].result is Result.NO_RESULT]
    if void:
        warnings.append(
            "Eggplant has no 'void' result; these games are given to it as draws "
            f"(same points): {_listed(void)}"
        )
    whole = [_game_name(*x) for x in _games(t) if float(x[2].komi).is_integer()]
    if whole:
        warnings.append(
            "komi with no half point (jigo possible): the report's integer komi k means k.5 "
            f"to Eggplant and the AGA: {_listed(whole)}"
        )
    count = round_count(t)
    if count > MAX_ROUNDS:
        warnings.append(f"{count} rounds: Eggplant holds at most {MAX_ROUNDS}")
    big = [f"round {r.number} ({len(r.games)})" for r in t.rounds if len(r.games) > MAX_BOARDS]
    if big:
        warnings.append(f"Eggplant holds at most {MAX_BOARDS} boards a round: {_listed(big)}")
    low = [
        f"{p.aga_id} {p.name} ({format_rating(p.rating)})"
        for p in t.players.values()
        if p.rating is not None and p.rating < MIN_RATING
    ]
    if low:
        warnings.append(
            f"Eggplant raises ratings below {MIN_RATING:g} to {MIN_RATING:g}: {_listed(low)}"
        )
    forced = [
        f"round {r.number}" for r in t.rounds if sum(b.kind is ByeKind.FORCED for b in r.byes) > 1
    ]
    if forced:
        warnings.append(
            f"Eggplant keeps one forced bye a round; more than one in {_listed(forced)}"
        )
    halves = [
        f"{p.aga_id} {p.name} ({format_number(p.initial_score)})"
        for p in t.players.values()
        if p.initial_score is not None and not float(p.initial_score).is_integer()
    ]
    if halves:
        warnings.append(
            f"Eggplant reads only whole initial scores (others as 0): {_listed(halves)}"
        )
    return warnings


# --------------------------------------------------------------------------- reading


def _text(values: dict[str, str], key: str) -> str:
    return values.get(key, "").strip()


def read_settings(
    values: dict[str, str], settings: Settings, by_eggplant: bool = True
) -> tuple[Settings, list[str], set[str]]:
    """The Tournament settings Eggplant's block gives, and a note of each one taken or not.

    ``settings`` are those read so far (from the header's Comment, exact); an integer
    ``defaultkomi`` that is their komi without the half point keeps them. The third value
    names the :class:`Settings` fields the block gives. ``by_eggplant``: the file was
    written by Eggplant itself, whose handicap rules (:func:`_handicap_rules`) are taken
    over; our own block only mirrors settings the Comment and header already give.
    """
    notes: list[str] = []
    taken: dict[str, str] = {}
    rounds = _text(values, "numberofrounds")
    if rounds.isdecimal() and len(rounds) <= 6 and 1 <= int(rounds) <= limits.MAX_ROUNDS:
        settings = replace(settings, rounds=int(rounds))
        taken["rounds"] = f"Number of rounds {rounds}"
    komi = _number(_text(values, "defaultkomi"))
    if komi is not None and komi_problem(komi):
        komi = None
    if komi is not None and komi != aga_text_komi(0, settings.komi, settings.rules)[1]:
        if komi.is_integer():
            komi = komi_from_report(0, int(komi), settings.rules, half_point=True)
        settings = replace(settings, komi=komi)
    if komi is not None:
        taken["komi"] = f"Komi (even games) {format_number(settings.komi)}"
    bar = _text(values, "mmbar")
    try:
        if bar:
            settings = replace(settings, bar=rank_floor(bar.lower()))
            taken["bar"] = f"Bar {bar.lower()}"
    except RatingError:
        notes.append(f"Eggplant's bar {bar!r} is not a rank; not taken over")
    policy = _handicap_policy(values)
    if policy is not None:
        settings = replace(settings, handicap_policy=policy)
        taken["handicap_policy"] = f"Handicap {policy.value}"
    if by_eggplant and policy is not None and policy is not HandicapPolicy.NONE:
        settings, handicap_notes = _handicap_rules(values, settings, taken)
        notes += handicap_notes
    # The number of rounds is the import's to settle (never lowered): it says so itself.
    said = [text for key, text in taken.items() if key != "rounds"]
    if said:
        notes.insert(0, "Taken over from the file's Eggplant settings: " + "; ".join(said))
    notes += _not_taken(values)
    return settings, notes, set(taken)


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _handicap_policy(values: dict[str, str]) -> HandicapPolicy | None:
    games = _text(values, "handicapgames").casefold()
    if games == "false":
        return HandicapPolicy.NONE
    modifier = _text(values, "handicapmodifier")
    if games != "true" or not modifier.isdecimal():
        return None
    for policy in HandicapPolicy:
        if policy.reduction == int(modifier):
            return policy
    return None


def _handicap_rules(
    values: dict[str, str], settings: Settings, taken: dict[str, str]
) -> tuple[Settings, list[str]]:
    """Eggplant's handicap rules for an event with handicap games, into ``settings``.

    Eggplant has no "top band games even": every game gets the handicap its rule gives,
    so the import plays the top band's games by the same rule (Top band games even: No).
    ``maxhandicappedrank`` caps the ranks the handicap counts, as Handicap counts ranks
    up to does (9D caps nothing); the ceiling and the basis (rank or McMahon score) are
    taken as they are.
    """
    notes: list[str] = []
    settings = replace(settings, top_band_even=False)
    taken["top_band_even"] = "Top band games even No (Eggplant has no such rule)"
    ceiling = _text(values, "handicapceiling")
    if ceiling.isdecimal() and len(ceiling) <= 2 and int(ceiling) <= 9:
        settings = replace(settings, handicap_ceiling=int(ceiling))
        taken["handicap_ceiling"] = f"Handicap ceiling {ceiling}"
    elif ceiling:
        notes.append(f"Eggplant's handicap ceiling {ceiling!r} is not carried over (0 to 9)")
    basis = _text(values, "handicapbasis").upper()
    if basis in ("MMS", "RANK"):
        chosen = HandicapBasis.MMS if basis == "MMS" else HandicapBasis.RATING
        settings = replace(settings, handicap_basis=chosen)
        taken["handicap_basis"] = f"Handicap from {chosen.value}"
    cap = _text(values, "maxhandicappedrank")
    try:
        if cap and cap.upper() != "9D":
            settings = replace(settings, handicap_even_from=rank_floor(cap.lower()))
            taken["handicap_even_from"] = f"Handicap counts ranks up to {cap.lower()}"
    except RatingError:
        notes.append(f"Eggplant's maxhandicappedrank {cap!r} is not a rank; not taken over")
    return settings, notes


def _not_taken(values: dict[str, str]) -> list[str]:
    notes = []
    floor = _text(values, "mmfloor")
    if floor and floor.upper() != "30K":
        notes.append(f"Eggplant's floor {floor} is not carried over (this program has no floor)")
    bye, absent = _text(values, "byemmsx2"), _text(values, "absentmmsx2")
    if (bye and bye != "2") or (absent and absent != "0"):
        notes.append(
            f"Eggplant scored a bye {_half(bye)} and an absence {_half(absent)}; this program "
            "scores a forced bye 1 and a voluntary bye or absence 0 (AGA protocol)"
        )
    return notes


def _half(text: str) -> str:
    value = _number(text)
    return format_number(value / 2) if value is not None else repr(text)


def is_dropped(status: str) -> bool:
    return status.strip().casefold() == DROPPED.casefold()
