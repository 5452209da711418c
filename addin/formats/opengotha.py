"""OpenGotha's tournament file (.xml): read it into the model (docs/opengotha.md).

OpenGotha (info.vannier.gotha, 3.x) saves the whole tournament in one XML file: players,
every round's games and bye player, and the parameter sets. What is read, and how:

* Players are matched by OpenGotha's key string: family + given name, blanks removed,
  upper case (``Player.computeKeyString``); games and byes are matched here ignoring case
  and underscores too (hand-edited files write ``GuneyMete``).
* Player ids: the ``agaId`` when it is an AGA number (1-99999) no earlier player has; every
  other player gets the next free temporary number 90000-99999, as a new member at the desk.
* Ranks are OpenGotha's ``convertKDPToInt``: 30k..9d, pros 1-3p as 7d, 4-6p 8d, 7-9p 9d,
  anything weaker as 30k. The entry rating is the rank's midpoint (3k -> -3.5).
* Initial McMahon score: OpenGotha's ``Player.smms``, the rank clamped between genMMFloor
  and genMMBar, minus genMMZero, plus smmsCorrection; a Swiss event (first placement
  criterion NBW, number of wins) starts everyone at 0. The McMahon groups become bands,
  one per rank from the strongest player's (the bar at most) to the weakest's (the floor
  at least), each one point below the one above (a separation override of 1).
* Results (``info.vannier.gotha.Game``): RESULT_WHITEWINS / _BLACKWINS, their ``_BYDEF``
  forms (won by default = forfeit), RESULT_EQUAL (jigo), RESULT_EQUAL_BYDEF (no result),
  RESULT_BOTHLOSE(_BYDEF) (double forfeit), RESULT_UNKNOWN (not played yet).
  RESULT_BOTHWIN(_BYDEF) has no AGA equivalent: refused, naming the game.
* Komi: OpenGotha keeps one komi for the event; an even game gets it, a handicap game the
  AGA's 0.5.
* ``<ByePlayer player=... roundNumber=...>``: OpenGotha's odd-player bye, a forced bye.
* ``participating``: one 0/1 per round. A 0 is a bye request in that round (the Players
  sheet's R cell) and, in a round with games, a voluntary bye. A player preregistered but
  not confirmed (registeringStatus PRE), whom OpenGotha never pairs, is Dropped here.
* Absent rounds: OpenGotha's main score (MMS, or NBW in a Swiss event) adds
  ``gen...2ValueAbsent`` half points a round absent, the sum rounded down with the byes'
  (``genRoundDownNBWMMS``). Its usual ½ a round rounded down is the Sleeping players option
  "Half a point a round" (BGA 4.3: a whole point every two rounds, for the pairing only),
  which the import sets; any other value stays the AGA's 0 and the import names what differs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

from lxml import etree

from addin.core import sleeping
from addin.core.bands import Banding, band_for_rating, rebuild_bands
from addin.core.european import Options, Sleeping
from addin.core.handicap import HANDICAP_KOMI
from addin.core.limits import MAX_ROUNDS, komi_problem, shown
from addin.core.model import (
    Band,
    Bye,
    ByeKind,
    Contact,
    Game,
    HandicapBasis,
    HandicapPolicy,
    Player,
    PlayerId,
    Result,
    Round,
    ScoreOrigin,
    Settings,
    Status,
    Tournament,
)
from addin.core.ratings import parse_rating, rank_floor
from addin.core.registration import RegistrationError, next_temporary_id
from addin.core.tiebreaks import TiebreakError, resolve

MAX_BYTES = 20 * 1024 * 1024

RESULTS: dict[str, Result | None] = {
    "RESULT_UNKNOWN": None,
    "RESULT_WHITEWINS": Result.WHITE_WINS,
    "RESULT_BLACKWINS": Result.BLACK_WINS,
    "RESULT_WHITEWINS_BYDEF": Result.WHITE_WINS_BY_FORFEIT,
    "RESULT_BLACKWINS_BYDEF": Result.BLACK_WINS_BY_FORFEIT,
    "RESULT_EQUAL": Result.JIGO,
    "RESULT_EQUAL_BYDEF": Result.NO_RESULT,
    "RESULT_BOTHLOSE": Result.DOUBLE_FORFEIT,
    "RESULT_BOTHLOSE_BYDEF": Result.DOUBLE_FORFEIT,
}

OVERTIME = {
    "SUDDENDEATH": "Sudden death",
    "STDBYOYOMI": "Byo-yomi",
    "CANBYOYOMI": "Canadian",
    "FISCHER": "Fischer",
}

GIVEN = frozenset(
    {
        "name", "venue", "start_date", "end_date", "director", "pairing_format",
        "basic_time_minutes", "overtime_format", "overtime_conditions", "komi", "rounds",
        "bar", "score_origin", "bottom_score_offset", "top_band_even", "handicap_policy",
        "handicap_basis", "handicap_even_from", "handicap_ceiling", "avoid_same_club",
        "avoid_same_country", "avoid_handicap_games", "avoidance_points", "tiebreaks",
        "sleeping",
    }
)  # fmt: skip
"""The :class:`Settings` fields (and European options) an OpenGotha file gives; the workbook
keeps the others."""


class OpenGothaError(ValueError):
    """A file that is not an OpenGotha tournament this program can take; names the file."""


@dataclass(frozen=True)
class OpenGothaEvent:
    """A tournament as read from an OpenGotha file, with what did not carry over."""

    tournament: Tournament
    keys: dict[str, PlayerId]
    """OpenGotha key string (folded by :func:`key_of`) -> player id, in file order."""
    assigned: frozenset[PlayerId]
    """Ids this import gave (players without a usable agaId)."""
    participation: dict[PlayerId, str]
    """Each player's ``participating`` string, as the file has it."""
    not_carried: tuple[str, ...]
    """What has no counterpart here, one phrase each (said in one message)."""
    notes: tuple[str, ...]
    """How something was carried over, one line each."""


def rank_value(rank: str) -> int:
    """OpenGotha's ``Player.convertKDPToInt``: 30k -> -30, 1k -> -1, 1d -> 0, 9d -> 8."""
    text = rank.strip() or " "
    try:
        last = text[-1].upper()
        number = int(text) if last.isdecimal() else int(text[:-1])
    except ValueError:
        return -30
    if last == "D":
        value = number - 1
    elif last == "P":
        value = 6 if number <= 3 else 7 if number <= 6 else 8
    else:
        value = -number
    return max(-30, min(8, value))


def rank_text(value: int) -> str:
    """The rank of an OpenGotha rank value: -30 -> "30k", 0 -> "1d"."""
    return f"{value + 1}d" if value >= 0 else f"{-value}k"


def _pin(text: str) -> int | None:
    """An EGF PIN (``egfPin``: eight digits) as a number; anything else none."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdecimal() and len(text) <= 8 else None


def key_of(text: str) -> str:
    return text.replace(" ", "").replace("_", "").upper()


def _parse(data: bytes, source: str) -> etree._Element:
    if len(data) > MAX_BYTES:
        raise OpenGothaError(f"{source}: {len(data):,} bytes is more than an OpenGotha file has")
    doctype = data.find(b"<!DOCTYPE")
    if doctype >= 0 and data.find(b"<!ENTITY", doctype) >= 0:
        raise OpenGothaError(f"{source}: refused: its DOCTYPE declares entities (<!ENTITY ...>)")
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        raise OpenGothaError(
            f"{source}, line {error.lineno}: not well-formed XML: {error.msg}"
        ) from None
    if root.tag != "Tournament" or root.find("TournamentParameterSet") is None:
        raise OpenGothaError(
            f"{source}: not an OpenGotha tournament file (expected <Tournament> with a "
            "<TournamentParameterSet>)"
        )
    return root


class _Reader:
    def __init__(self, root: etree._Element, source: str) -> None:
        self.root = root
        self.source = source
        tps = root.find("TournamentParameterSet")
        assert tps is not None
        self.gps = self._part(tps, "GeneralParameterSet")
        self.hps = self._part(tps, "HandicapParameterSet")
        self.pps = tps.find("PairingParameterSet")
        self.criteria = [
            el.get("name", "NULL")
            for el in sorted(
                tps.iterfind("PlacementParameterSet/PlacementCriteria/PlacementCriterion"),
                key=lambda el: self._int(el, "number", 0),
            )
        ]
        self.swiss = bool(self.criteria) and self.criteria[0] == "NBW"
        self.not_carried: list[str] = []
        self.notes: list[str] = []

    def _part(self, parent: etree._Element, tag: str) -> etree._Element:
        el = parent.find(tag)
        if el is None:
            raise OpenGothaError(f"{self.source}: no <{tag}> in <TournamentParameterSet>")
        return el

    def error(self, el: etree._Element, message: str) -> OpenGothaError:
        return OpenGothaError(f"{self.source}, line {el.sourceline}: {message}")

    def _int(self, el: etree._Element | None, name: str, default: int) -> int:
        if el is None or el.get(name) in (None, ""):
            return default
        try:
            return int(el.get(name, ""))
        except ValueError:
            raise self.error(
                el, f"{name}={shown(el.get(name), 60)} is not a whole number"
            ) from None

    def _rank(self, el: etree._Element, name: str, default: str) -> int:
        return rank_value(el.get(name) or default)

    # --- settings -------------------------------------------------------------------

    def settings(self) -> Settings:
        gps, hps = self.gps, self.hps
        rounds = self._int(gps, "numberOfRounds", 5)
        if not 1 <= rounds <= MAX_ROUNDS:
            raise self.error(
                gps,
                f"numberOfRounds={shown(gps.get('numberOfRounds'), 30)} is not a number "
                f"of rounds (1 to {MAX_ROUNDS})",
            )
        try:
            komi = float(gps.get("komi", "7.5"))
        except ValueError:
            raise self.error(gps, f"komi={shown(gps.get('komi'), 60)} is not a number") from None
        if problem := komi_problem(komi):
            raise self.error(gps, f"komi: {problem}")
        start, end = _date(gps.get("beginDate", "")), _date(gps.get("endDate", ""))
        if start and end and end < start:
            raise self.error(gps, f"endDate {end} is before beginDate {start}")
        if gps.get("size", "19") != "19":
            self.not_carried.append(f"board size {gps.get('size')}")
        floor, bar, zero = self.floor_bar_zero()
        correction = self._int(hps, "hdCorrection", 1)
        ceiling = self._int(hps, "hdCeiling", 9)
        if correction > 3:
            self.notes.append(f"Handicap: OpenGotha's correction {correction} taken as Minus 3")
        policy = (
            HandicapPolicy.FULL
            if correction <= 0
            else HandicapPolicy(f"Minus {min(correction, 3)}")
        )
        settings = Settings(
            name=gps.get("name", ""),
            venue=gps.get("location", "").strip(),
            start_date=start,
            end_date=end,
            director=Contact(name=gps.get("director", "").strip()),
            pairing_format="Swiss" if self.swiss else "McMahon",
            basic_time_minutes=self._int(gps, "basicTime", 0) or None,
            overtime_format=OVERTIME.get(gps.get("complementaryTimeSystem", ""), ""),
            overtime_conditions=self._overtime(),
            komi=komi,
            rounds=rounds,
            bar=None if self.swiss else rank_floor(rank_text(bar)),
            score_origin=ScoreOrigin.BOTTOM,
            bottom_score_offset=0.0 if self.swiss else float(floor - zero),
            top_band_even=False,
            handicap_policy=policy,
            handicap_basis=HandicapBasis.MMS
            if hps.get("hdBasedOnMMS", "true") == "true"
            else HandicapBasis.RATING,
            handicap_even_from=rank_floor(rank_text(self._rank(hps, "hdNoHdRankThreshold", "1D"))),
            handicap_ceiling=max(0, min(ceiling, 9)),
            tiebreaks=self._tiebreaks(),
            typed_options=Options(sleeping=self.sleeping()),
        )
        return self._avoidance(settings)

    def absence_values(self) -> tuple[int, int, bool]:
        """Half points an absent round and a bye add to the main score, and the round-down."""
        gps, kind = self.gps, "NBW" if self.swiss else "MMS"
        return (
            self._int(gps, f"gen{kind}2ValueAbsent", 0),
            self._int(gps, f"gen{kind}2ValueBye", 2),
            gps.get("genRoundDownNBWMMS", "true") == "true",
        )

    def sleeping(self) -> Sleeping:
        """The Sleeping players option that pairs absences as OpenGotha does: its ½ point a
        round absent, rounded down, is a whole point every two rounds (BGA 4.3); any other
        value keeps the AGA's nothing (the import names the difference)."""
        absent, _, round_down = self.absence_values()
        if absent != 1:
            return Sleeping.NOTHING
        name = f"gen{'NBW' if self.swiss else 'MMS'}2ValueAbsent"
        self.notes.append(
            "Sleeping players: Half a point a round, as OpenGotha scores an absent round "
            f"({name} 1: ½ point{', rounded down' if round_down else ''}): for the pairing "
            "only; the standings and the AGA report keep 0 for a voluntary bye"
        )
        return Sleeping.HALF

    def floor_bar_zero(self) -> tuple[int, int, int]:
        gps = self.gps
        return (
            self._rank(gps, "genMMFloor", "20K"),
            self._rank(gps, "genMMBar", "4D"),
            self._rank(gps, "genMMZero", "30K"),
        )

    def _overtime(self) -> str:
        gps = self.gps
        system = gps.get("complementaryTimeSystem", "")
        if system == "STDBYOYOMI":
            seconds = gps.get("stdByoYomiTime", "?")
            self.not_carried.append(
                f"the number of byo-yomi periods (OpenGotha keeps only their length, {seconds} s:"
                " type it into Overtime conditions before the AGA report)"
            )
            return f"periods of {seconds} seconds"
        if system == "CANBYOYOMI":
            moves, seconds = gps.get("nbMovesCanTime", "?"), gps.get("canByoYomiTime", "?")
            return f"{moves} moves in {seconds} s"
        if system == "FISCHER":
            return f"{gps.get('fischerTime', '?')} s added per move"
        return ""

    def _avoidance(self, settings: Settings) -> Settings:
        """OpenGotha's geographical criterion: prefer a score difference of up to N points
        to a game within a club or country; here, avoidance that may cost N points."""
        pps = self.pps
        geo = self._int(pps, "paiSeAvoidSameGeo", 100_000_000_000) if pps is not None else 0
        club = self._int(pps, "paiSePreferMMSDiffRatherThanSameClub", 3) if geo else 0
        country = self._int(pps, "paiSePreferMMSDiffRatherThanSameCountry", 1) if geo else 0
        handicap = self._int(pps, "paiSeMinimizeHandicap", 0) if pps is not None else 0
        if club and country and club != country:
            self.notes.append(
                f"Avoidance may cost {max(club, country)} points for club and country alike "
                f"(OpenGotha: {club} for the same club, {country} for the same country)"
            )
        return replace(
            settings,
            avoid_same_club=club > 0,
            avoid_same_country=country > 0,
            avoid_handicap_games=handicap > 0,
            avoidance_points=min(max(club, country), 100),
        )

    def _tiebreaks(self) -> tuple[str, ...]:
        """Placement criteria 2..6; the first (MMS or NBW) is the score itself.

        In a Swiss event the score is the number of wins, so OpenGotha's wins-based
        criteria (SOSW, SODOSW, ...) are this program's McMahon-score ones.
        """
        kept: list[str] = []
        dropped: list[str] = []
        for name in self.criteria[1:]:
            if name == "NULL":
                continue
            label = _wins_to_mms(name) if self.swiss else name
            try:
                tiebreak = resolve(label)
            except TiebreakError:
                dropped.append(name)
                continue
            if tiebreak.uses_raw_wins:  # the AGA rules base no tiebreak on raw wins
                dropped.append(name)
            else:
                kept.append(tiebreak.name)
        if dropped:
            self.not_carried.append(f"placement criteria {', '.join(dropped)}")
        if self.criteria and self.criteria[0] not in ("MMS", "NBW"):
            self.not_carried.append(f"main placement criterion {self.criteria[0]} (MMS used)")
        unique = tuple(dict.fromkeys(kept))
        return unique or Settings().tiebreaks

    # --- players, games, byes --------------------------------------------------------

    def players(self) -> tuple[dict[PlayerId, Player], dict[str, PlayerId], set[PlayerId]]:
        floor, bar, zero = self.floor_bar_zero()
        players: dict[PlayerId, Player] = {}
        keys: dict[str, PlayerId] = {}
        assigned: set[PlayerId] = set()
        elements = list(self.root.iterfind("Players/Player"))
        wanted: dict[int, PlayerId] = {}
        for el in elements:
            aga = el.get("agaId", "").strip()
            if (
                aga.isascii()  # "²" is a digit to str.isdigit, not to int
                and aga.isdecimal()
                and 1 <= int(aga) <= 99_999
                and int(aga) not in wanted.values()
            ):
                wanted[id(el)] = int(aga)
        used = set(wanted.values())
        clamped: list[str] = []
        unconfirmed: list[str] = []
        for el in elements:
            key = key_of(el.get("name", "") + el.get("firstName", ""))
            if not el.get("name", "").strip():
                raise self.error(el, "a player without a name (OpenGotha's name attribute)")
            if key in keys:
                raise self.error(
                    el, f"a second player named {shown(key, 60)} (OpenGotha's key string)"
                )
            pid = wanted.get(id(el))
            if pid is None:
                try:
                    pid = next_temporary_id(used)
                except RegistrationError as err:
                    raise self.error(el, f"{len(elements):,} players: {err}") from None
                used.add(pid)
                assigned.add(pid)
            keys[key] = pid
            value = rank_value(el.get("rank", "30K"))
            rank = rank_text(value)
            written = el.get("rank", "").strip().lower()
            if written != rank:
                clamped.append(
                    f"{_cut(el.get('name', ''))} {shown(written, 20) if written else '(none)'} "
                    f"-> {rank}"
                )
            smms = min(max(value, floor), bar) - zero + self._int(el, "smmsCorrection", 0)
            pre = el.get("registeringStatus", "FIN") == "PRE"
            if pre:
                unconfirmed.append(f"{_cut(el.get('name', ''))}, {_cut(el.get('firstName', ''))}")
            players[pid] = Player(
                aga_id=pid,
                family_name=el.get("name", "").strip(),
                given_name=_given(el.get("firstName", "")),
                rank=rank,
                rating=parse_rating(rank),
                membership_expiry=_date(el.get("agaExpirationDate", "")),
                chapter=el.get("club", "").strip(),
                country=el.get("country", "").strip(),
                egd_pin=_pin(el.get("egfPin", "")),
                initial_score=0.0 if self.swiss else float(smms),
                status=Status.DROPPED if pre else Status.ACTIVE,
            )
        if unconfirmed:
            self.notes.append(
                f"{len(unconfirmed)} players not finally registered in OpenGotha (PRE) are "
                f"Dropped; readmit brings them in: {'; '.join(unconfirmed)}"
            )
        if clamped:
            self.notes.append(
                "Ranks OpenGotha reads otherwise (30k..9d, pros as dans): " + "; ".join(clamped)
            )
        return players, keys, assigned

    def game(self, el: etree._Element, keys: dict[str, PlayerId], komi: float) -> Game:
        code = el.get("result", "RESULT_UNKNOWN")
        if code not in RESULTS:
            raise self.error(el, f"result {_cut(code)} has no AGA equivalent (both players win)")
        handicap = self._int(el, "handicap", 0)
        if not 0 <= handicap <= 9:
            raise self.error(el, f"handicap={handicap} is not a number of stones (0 to 9)")
        return Game(
            white=self._player(el, "whitePlayer", keys),
            black=self._player(el, "blackPlayer", keys),
            handicap=handicap,
            komi=komi if handicap == 0 else HANDICAP_KOMI,
            result=RESULTS[code],
            board=self._int(el, "tableNumber", 0) or None,
        )

    def _player(self, el: etree._Element, name: str, keys: dict[str, PlayerId]) -> PlayerId:
        pid = keys.get(key_of(el.get(name, "")))
        if pid is None:
            raise self.error(el, f"{name}={shown(el.get(name), 60)} is no player of the file")
        return pid

    def rounds(self, keys: dict[str, PlayerId], komi: float) -> dict[int, Round]:
        games: dict[int, list[Game]] = {}
        for el in self.root.iterfind("Games/Game"):
            games.setdefault(self._round(el), []).append(self.game(el, keys, komi))
        byes: dict[int, list[Bye]] = {}
        for el in self.root.iterfind(".//ByePlayer[@player]"):
            byes.setdefault(self._round(el), []).append(
                Bye(self._player(el, "player", keys), ByeKind.FORCED)
            )
        numbers = sorted(set(games) | set(byes))
        return {
            r: Round(
                r,
                tuple(sorted(games.get(r, ()), key=lambda g: g.board or 0)),
                tuple(byes.get(r, ())),
            )
            for r in numbers
        }

    def _round(self, el: etree._Element) -> int:
        number = self._int(el, "roundNumber", 1)
        if not 1 <= number <= MAX_ROUNDS:
            raise self.error(el, f"roundNumber={number} is not a round (1 to {MAX_ROUNDS})")
        return number


def _cut(text: str, limit: int = 60) -> str:
    """A name as said in a note: a hostile one is named, never echoed at length."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _given(text: str) -> str:
    """OpenGotha needs a given name; "-" stands for none (as ``export-opengotha`` writes)."""
    text = text.strip()
    return "" if text == "-" else text


def _date(text: str) -> date | None:
    text = text.strip()
    for fmt in ("%Y-%m-%d", "%m/%d/%Y"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _wins_to_mms(name: str) -> str:
    """SOSW -> SOSM, SOSOSW -> SOSOSM, SOSWM1 -> SOSMM1: the same sum over the score."""
    return name.replace("SOSW", "SOSM").replace("SODOSW", "SODOSM").replace("CUSSW", "CUSSM")


def _participation(
    players: dict[PlayerId, Player],
    elements: dict[PlayerId, str],
    rounds: dict[int, Round],
    total: int,
) -> dict[PlayerId, Player]:
    """Absences as bye requests; in a round with games, as voluntary byes too."""
    out = {}
    for pid, p in players.items():
        flags = elements.get(pid, "")
        absent = frozenset(r for r in range(1, total + 1) if flags[r - 1 : r] == "0")
        out[pid] = replace(p, bye_requests=absent)
    for number, rnd in list(rounds.items()):
        there = rnd.paired_players() | {b.player for b in rnd.byes}
        extra = tuple(
            Bye(pid, ByeKind.VOLUNTARY)
            for pid, p in out.items()
            if number in p.bye_requests and pid not in there and p.status is Status.ACTIVE
        )
        if rnd.games and extra:
            rounds[number] = replace(rnd, byes=rnd.byes + extra)
    return out


def _bands(
    players: dict[PlayerId, Player], settings: Settings, floor: int, bar: int, zero: int
) -> tuple[Banding | None, dict[PlayerId, Player]]:
    """OpenGotha's McMahon groups as bands: one per rank from the strongest player's (the bar
    at most) down to the weakest's (the floor at least), a point apart. Players not
    confirmed (Dropped) do not count towards the sizes but get the band of their rank."""
    values = [min(max(rank_value(p.rank), floor), bar) for p in players.values()]
    if not values:
        return None, players
    top, bottom = max(values), min(values)
    rows = [
        Band(
            number=i + 1,
            label="",
            min_rating=rank_floor(rank_text(value)),
            separation_override=None if value == top else 1,
        )
        for i, value in enumerate(range(top, bottom - 1, -1))
    ]
    offset = float(bottom - zero)
    active = [p for p in players.values() if p.status is Status.ACTIVE]
    banding = rebuild_bands(rows, active, replace(settings, bottom_score_offset=offset))
    placed = {
        pid: replace(
            p,
            band=banding.band_of.get(pid) or band_for_rating(banding.bands, p.rating or 0.0),
        )
        for pid, p in players.items()
    }
    return banding, placed


def read_opengotha_event(data: bytes, source: str) -> OpenGothaEvent:
    """The tournament an OpenGotha file holds; OpenGothaError names what cannot be read."""
    reader = _Reader(_parse(data, source), source)
    settings = reader.settings()
    players, keys, assigned = reader.players()
    rounds = reader.rounds(keys, settings.komi)
    played = max(rounds, default=0)
    if played > settings.rounds:
        reader.notes.append(f"Number of rounds: {played}, the rounds the file has games for")
        settings = replace(settings, rounds=played)
    flags = {
        keys[key_of(el.get("name", "") + el.get("firstName", ""))]: el.get("participating", "")
        for el in reader.root.iterfind("Players/Player")
    }
    players = _participation(players, flags, rounds, settings.rounds)
    banding: Banding | None = None
    if not reader.swiss:
        banding, players = _bands(players, settings, *reader.floor_bar_zero())
        if banding and banding.bands:  # "Lowest band initial score": the lowest group's
            lowest = banding.bands[-1].initial_score
            settings = replace(settings, bottom_score_offset=lowest or 0.0)
    tournament = Tournament(
        settings=settings,
        players=players,
        bands=list(banding.bands) if banding else [],
        rounds=[rounds[r] for r in sorted(rounds)],
    )
    reader.not_carried += _unmapped(reader, tournament, flags, rounds)
    return OpenGothaEvent(
        tournament=tournament,
        keys=keys,
        assigned=frozenset(assigned),
        participation=flags,
        not_carried=tuple(reader.not_carried),
        notes=tuple(reader.notes),
    )


def _unmapped(
    reader: _Reader, t: Tournament, flags: dict[PlayerId, str], rounds: dict[int, Round]
) -> list[str]:
    """What the file holds that this program has no place for."""
    out: list[str] = []
    elements = list(reader.root.iterfind("Players/Player"))
    for attribute, what in (
        ("rating", "EGF-style ratings (rating, ratingOrigin)"),
        ("ffgLicence", "FFG licences"),
    ):
        if any(el.get(attribute, "").strip() for el in elements):
            out.append(what)
    corrected = [el.get("name", "") for el in elements if el.get("smmsCorrection", "0") != "0"]
    if corrected:
        out.append(
            f"McMahon score corrections (smmsCorrection) of {', '.join(corrected)}: kept in "
            "their initial scores, but a new `bands` would drop them"
        )
    gps = reader.gps
    absent_value, bye_value, round_down = reader.absence_values()
    if absent_value:
        points = absence_points(flags, rounds, absent_value, bye_value, round_down)
        last = max((r for r, rnd in rounds.items() if rnd.games), default=0)
        bonus = sleeping.pairing_bonus(t, last + 1)
        differences = {pid: x - bonus.get(pid, 0.0) for pid, x in points.items()}
        named = ", ".join(
            f"{t.players[pid].name} {x:g}"
            for pid, x in differences.items()
            if x and t.players[pid].status is Status.ACTIVE
        )
        if named:
            option = t.settings.options.sleeping
            given = "nothing" if option is Sleeping.NOTHING else f"'{option.value}'"
            out.append(
                f"points for absent rounds ({absent_value / 2:g} a round in OpenGotha; "
                f"Sleeping players gives {given} for the pairing here): {named}"
            )
    if bye_value != 2:
        out.append(f"the bye's value {bye_value / 2:g} (the AGA's forced bye scores 1)")
    if gps.get("genCountNotPlayedGamesAsHalfPoint", "false") == "true":
        out.append("genCountNotPlayedGamesAsHalfPoint")
    if (
        reader.pps is not None
        and reader._int(reader.pps, "paiMaAvoidMixingCategories", 0)
        and (reader._int(gps, "numberOfCategories", 1) > 1)
    ):
        out.append("categories")
    out.append("pairing weights and seeding systems (paiMa..., paiBa...; the AGA rules pair)")
    return out


def absence_points(
    flags: dict[PlayerId, str],
    rounds: dict[int, Round],
    absent_value: int,
    bye_value: int,
    round_down: bool,
) -> dict[PlayerId, float]:
    """The points OpenGotha's scores add for absent rounds beyond what a bye earns here, up
    to the last round with games (its ``fillBaseScoringInfoIfNecessary``)."""
    last = max((r for r, rnd in rounds.items() if rnd.games), default=0)
    out: dict[PlayerId, float] = {}
    for pid, text in flags.items():
        byes = absent = 0
        for r in range(1, last + 1):
            rnd = rounds.get(r, Round(r))
            if any(b.player == pid and b.kind is ByeKind.FORCED for b in rnd.byes):
                byes += 1
            elif text[r - 1 : r] == "0" and pid not in rnd.paired_players():
                absent += 1
        total = absent * absent_value + byes * bye_value
        if round_down:
            total = total // 2 * 2
        out[pid] = (total - byes * 2) / 2
    return out


def read_opengotha(path: str | Path) -> Tournament:
    """The tournament of an OpenGotha file on disk."""
    return read_opengotha_event(Path(path).read_bytes(), Path(path).name).tournament
