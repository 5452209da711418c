"""Write the tournament as an OpenGotha tournament file, so an OpenGotha user can open it.

The inverse of :mod:`addin.formats.opengotha` (docs/opengotha.md, "Writing"):

* Initial McMahon scores: OpenGotha computes them from the rank (framed by genMMFloor, the
  lowest band's rank, and genMMBar, the bar) with genMMZero 30k; each player's
  ``smmsCorrection`` makes up the difference, after one shift of every score that leaves the
  strongest player uncorrected (McMahon scores are compared, never read absolutely). A
  workbook imported from OpenGotha goes back with no correction at all.
* Byes and absences: the forced bye is OpenGotha's ByePlayer; a bye request and a voluntary
  bye are 0 in ``participating``. A bye scores 1 point (genMMS2ValueBye 2); an absence 0
  (genMMS2ValueAbsent 0, the AGA's rule), or, under the Sleeping players option "Half a
  point a round", ½ rounded down (BGA 4.3: a point every two rounds), the main score's
  (MMS, or NBW in a Swiss event) ``...2ValueAbsent`` 1.
* A dropped player, and one not checked in yet (Not arrived), is not finally registered
  (registeringStatus PRE): OpenGotha pairs only the others, and keeps their games. A given
  name OpenGotha cannot do without is "-".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from lxml import etree

from addin.core.european import (
    BeyondNine,
    FloatChoice,
    GroupPairing,
    GroupSeeding,
    OddPlayer,
    Sleeping,
)
from addin.core.limits import shown
from addin.core.model import (
    ByeKind,
    HandicapBasis,
    Player,
    Status,
    Tournament,
)
from addin.core.ratings import RatingError, entry_rating, rank_of
from addin.formats.opengotha import OVERTIME, RESULTS, key_of, rank_text, rank_value

MAX_ROUNDS_FLAGS = 20
"""OpenGotha's Gotha.MAX_NUMBER_OF_ROUNDS: the length of ``participating``."""
NO_GIVEN_NAME = "-"

_CODES = {result: code for code, result in RESULTS.items() if not code.endswith("LOSE_BYDEF")}
_CRITERIA = {
    "SOS": "SOSM",
    "SODOS": "SODOSM",
    "SOSOS": "SOSOSM",
    "SOS-1": "SOSM-1",
    "SOS-2": "SOSM-2",
    "CUSS": "CUSSM",
    "Face to face": "DC",
}
"""Our tiebreaks as OpenGotha's placement criteria (McMahon-score based)."""

PAIRING_DEFAULTS = {
    "paiBaAvoidDuplGame": "500000000000000",
    "paiBaBalanceWB": "1000000",
    "paiBaDeterministic": "true",
    "paiBaRandom": "0",
    "paiMaAdditionalPlacementCritSystem1": "Rating",
    "paiMaAdditionalPlacementCritSystem2": "NULL",
    "paiMaAvoidMixingCategories": "0",
    "paiMaCompensateDUDD": "true",
    "paiMaDUDDLowerMode": "MID",
    "paiMaDUDDUpperMode": "MID",
    "paiMaDUDDWeight": "100000000",
    "paiMaLastRoundForSeedSystem1": "2",
    "paiMaMaximizeSeeding": "5000000",
    "paiMaMinimizeScoreDifference": "100000000000",
    "paiMaSeedSystem1": "SPLITANDSLIP",
    "paiMaSeedSystem2": "SPLITANDSLIP",
    "paiSeBarThresholdActive": "true",
    "paiSeDefSecCrit": "100000000000",
    "paiSeNbWinsThresholdActive": "false",
    "paiSeRankThreshold": "1D",
    "paiStandardNX1Factor": "0.5",
}
"""OpenGotha 3.51's defaults for a McMahon event (as its own files carry them)."""


def _rank(p: Player) -> int:
    try:
        return rank_value(rank_of(entry_rating(p)))
    except RatingError:
        return -30


def _attrs(el: etree._Element, values: dict[str, object]) -> etree._Element:
    for name, value in values.items():
        el.set(name, "" if value is None else str(value))
    return el


def _overtime(format_text: str, conditions: str) -> dict[str, object]:
    system = {v: k for k, v in OVERTIME.items()}.get(format_text, "SUDDENDEATH")
    seconds = re.search(r"(\d+)\s*(s|sec|seconds?)\b", conditions)
    minutes = re.search(r"(\d+)\s*(m|min|minutes?)\b", conditions)
    moves = re.search(r"(\d+)\s*(moves?|stones?)\b", conditions)
    time = int(seconds.group(1)) if seconds else 60 * int(minutes.group(1)) if minutes else 30
    return {
        "complementaryTimeSystem": system,
        "stdByoYomiTime": time if system == "STDBYOYOMI" else 30,
        "nbMovesCanTime": int(moves.group(1)) if moves else 15,
        "canByoYomiTime": time if system == "CANBYOYOMI" else 300,
        "fischerTime": time if system == "FISCHER" else 10,
    }


@dataclass(frozen=True)
class OpenGothaFile:
    data: bytes
    lost: tuple[str, ...]
    """What OpenGotha cannot hold, one line each."""
    shift: float
    """What OpenGotha adds to every initial (and so every) McMahon score."""


def write_opengotha(t: Tournament, now: datetime | None = None) -> OpenGothaFile:
    """The OpenGotha file of ``t``, what it could not hold, and the score shift."""
    now = now or datetime.now()
    if max([*(r.number for r in t.rounds), t.settings.rounds]) > MAX_ROUNDS_FLAGS:
        raise ValueError(f"OpenGotha holds at most {MAX_ROUNDS_FLAGS} rounds")
    writer = _Writer(t)
    root = _attrs(
        etree.Element("Tournament"),
        {"dataVersion": "201", "saveDT": now.strftime("%Y%m%d%H%M%S"), "runningMode": "SAL"},
    )
    writer.players(etree.SubElement(root, "Players"))
    writer.rounds(etree.SubElement(root, "Games"), etree.SubElement(root, "ByePlayers"))
    writer.parameters(etree.SubElement(root, "TournamentParameterSet"), now.date())
    team = etree.SubElement(root, "TeamTournamentParameterSet")
    _attrs(etree.SubElement(team, "TeamGeneralParameterSet"), {"teamSize": "4"})
    _criteria(
        etree.SubElement(team, "TeamPlacementParameterSet"),
        ["TEAMP", "BDW", "BDW3U", "BDW2U", "BDW1U", "MNR"],
    )
    data = etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return OpenGothaFile(data, tuple(writer.lost), writer.shift)


class _Writer:
    def __init__(self, t: Tournament) -> None:
        self.t = t
        s = t.settings
        self.swiss = s.pairing_format == "Swiss"
        self.lost: list[str] = []
        self.ranks = {pid: _rank(p) for pid, p in t.players.items()}
        self.bar = rank_value(rank_of(s.bar)) if s.bar is not None else 8
        lowest = min((b.min_rating for b in t.bands), default=None)
        self.floor = min(rank_value(rank_of(lowest)) if lowest is not None else -30, self.bar)
        self.base = {pid: min(max(v, self.floor), self.bar) + 30 for pid, v in self.ranks.items()}
        self.scores = {pid: p.initial_score or 0.0 for pid, p in t.players.items()}
        self.shift = 0.0
        if t.players and not self.swiss:
            top = max(t.players, key=lambda pid: (self.scores[pid], self.ranks[pid]))
            self.shift = self.base[top] - self.scores[top]
        self.keys: dict[int, str] = {}

    def players(self, parent: etree._Element) -> None:
        seen: dict[str, Player] = {}
        for pid, p in self.t.players.items():
            given = p.given_name.strip() or NO_GIVEN_NAME
            key = key_of(p.family_name + given)
            if key in seen:
                raise ValueError(
                    f"{seen[key].name} ({seen[key].aga_id}) and {p.name} ({pid}) have the same "
                    "name, which OpenGotha uses to tell players apart: make one name different"
                )
            seen[key] = p
            self.keys[pid] = (p.family_name + given).replace(" ", "").upper()
            correction = 0.0 if self.swiss else self.scores[pid] + self.shift - self.base[pid]
            if correction != round(correction):
                self.lost.append(f"{p.name}: initial score {self.scores[pid]:g}, rounded")
            country = p.country.strip()
            if country and len(country) != 2:
                self.lost.append(
                    f"{p.name}: country {shown(p.country, 60)} (it takes a 2-letter code)"
                )
                country = ""
            rank = rank_text(self.ranks[pid]).upper()
            _attrs(
                etree.SubElement(parent, "Player"),
                {
                    "name": p.family_name.strip(),
                    "firstName": given,
                    "country": country,
                    "club": p.chapter.strip(),
                    "egfPin": "" if p.egd_pin is None else p.egd_pin,
                    "ffgLicence": "",
                    "ffgLicenceStatus": "",
                    "agaId": pid,
                    "agaExpirationDate": _us_date(p.membership_expiry),
                    "rank": rank,
                    "rating": max(-900, min(2949, 100 * self.ranks[pid] + 2050)),
                    "ratingOrigin": "",
                    "grade": rank,
                    "smmsCorrection": round(correction),
                    "participating": _participating(self.t, p),
                    "registeringStatus": "FIN" if p.status is Status.ACTIVE else "PRE",
                },
            )

    def rounds(self, games: etree._Element, byes: etree._Element) -> None:
        komi = self.t.settings.komi
        for rnd in self.t.rounds:
            for n, g in enumerate(rnd.games, start=1):
                _attrs(
                    etree.SubElement(games, "Game"),
                    {
                        "roundNumber": rnd.number,
                        "tableNumber": g.board or n,
                        "whitePlayer": self.keys[g.white],
                        "blackPlayer": self.keys[g.black],
                        "knownColor": "true",
                        "handicap": g.handicap,
                        "result": _CODES[g.result],
                    },
                )
                if g.komi != (komi if g.handicap == 0 else 0.5):
                    self.lost.append(
                        f"round {rnd.number} board {g.board or n}: komi {g.komi:g} (OpenGotha "
                        "keeps one komi for the event)"
                    )
            forced = [b.player for b in rnd.byes if b.kind is ByeKind.FORCED]
            for pid in forced[:1]:
                _attrs(
                    etree.SubElement(byes, "ByePlayer"),
                    {"roundNumber": rnd.number, "player": self.keys[pid]},
                )
            if len(forced) > 1:
                self.lost.append(
                    f"round {rnd.number}: {len(forced)} forced byes; OpenGotha holds one, the "
                    "others are absent there"
                )

    def parameters(self, tps: etree._Element, today: date) -> None:
        s = self.t.settings
        sleeping = s.options.sleeping is not Sleeping.NOTHING
        if s.options.sleeping is Sleeping.HALF_NOT_TOP:
            self.lost.append("no sleeping in the top group (OpenGotha has no such rule)")
        _attrs(
            etree.SubElement(tps, "GeneralParameterSet"),
            {
                "shortName": re.sub(r"[^A-Za-z0-9]+", "", s.name)[:20] or "tournament",
                "name": s.name or "Tournament",
                "location": s.venue,
                "director": s.director.name,
                "beginDate": (s.start_date or today).isoformat(),
                "endDate": (s.end_date or s.start_date or today).isoformat(),
                "size": "19",
                "komi": f"{s.komi:g}",
                "bInternet": "false",
                "basicTime": s.basic_time_minutes or 0,
                **_overtime(s.overtime_format, s.overtime_conditions),
                "numberOfRounds": s.rounds,
                "numberOfCategories": "1",
                "genMMFloor": rank_text(self.floor).upper(),
                "genMMBar": rank_text(self.bar).upper(),
                "genMMZero": "30K",
                "genNBW2ValueAbsent": "1" if sleeping and self.swiss else "0",
                "genNBW2ValueBye": "2",
                "genMMS2ValueAbsent": "1" if sleeping and not self.swiss else "0",
                "genMMS2ValueBye": "2",
                "genRoundDownNBWMMS": "true",
                "genCountNotPlayedGamesAsHalfPoint": "false",
            },
        )
        reduction = s.handicap_policy.reduction
        threshold = s.handicap_even_from
        _attrs(
            etree.SubElement(tps, "HandicapParameterSet"),
            {
                "hdBasedOnMMS": "true" if s.handicap_basis is HandicapBasis.MMS else "false",
                "hdNoHdRankThreshold": "9D"
                if threshold is None
                else rank_text(rank_value(rank_of(threshold))).upper(),
                "hdCorrection": reduction or 0,
                "hdCeiling": 0 if reduction is None else s.handicap_ceiling,
            },
        )
        if s.top_band_even:
            self.lost.append("Top band games even (OpenGotha has no such rule)")
        _criteria(etree.SubElement(tps, "PlacementParameterSet"), self._criteria_names())
        geo = s.avoid_same_club or s.avoid_same_country
        points = max(s.avoidance_points, 1)
        seed = "SPLITANDFOLD" if s.options.group_pairing is GroupPairing.FOLD else "SPLITANDSLIP"
        self._european_lost()
        _attrs(
            etree.SubElement(tps, "PairingParameterSet"),
            {
                **PAIRING_DEFAULTS,
                "paiMaSeedSystem1": seed,
                "paiMaSeedSystem2": seed,
                "paiSeAvoidSameGeo": "100000000000" if geo else "0",
                "paiSePreferMMSDiffRatherThanSameClub": points if s.avoid_same_club else 0,
                "paiSePreferMMSDiffRatherThanSameCountry": points if s.avoid_same_country else 0,
                "paiSeMinimizeHandicap": "100000000" if s.avoid_handicap_games else "0",
            },
        )
        if s.avoid_same_family or s.avoid_same_city or s.avoid_same_state:
            self.lost.append("avoiding the same family, city or state (it avoids club, country)")

    def _european_lost(self) -> None:
        """The European options OpenGotha's pairing has no setting for (split and fold it
        has: written above)."""
        s = self.t.settings
        ghost = s.ghost_player
        if s.options.odd_player is OddPlayer.GHOST and ghost is not None:
            who = self.t.players.get(ghost)
            self.lost.append(
                f"the ghost player {who.name if who else ''} ({ghost}): OpenGotha has no ghost "
                "and pairs them as any player; mark them not participating where the field is "
                "even"
            )
        if s.options.group_seeding is not GroupSeeding.RATING:
            self.lost.append(
                f"seeding within a group by {s.options.group_seeding.value} (OpenGotha seeds by "
                "rating)"
            )
        if s.options.float_choice is not FloatChoice.AGA:
            self.lost.append(
                f"who plays up or down: {s.options.float_choice.value} (OpenGotha has its own rule)"
            )
        if s.options.beyond_nine is not BeyondNine.CAPPED:
            self.lost.append(
                f"handicap beyond 9 stones: {s.options.beyond_nine.value} (OpenGotha stops at "
                "its ceiling)"
            )

    def _criteria_names(self) -> list[str]:
        """The score (MMS, or NBW in a Swiss event), then the tiebreaks OpenGotha has."""
        names = ["NBW" if self.swiss else "MMS"]
        for name in self.t.settings.tiebreaks:
            criterion = _CRITERIA.get(name)
            if criterion and self.swiss:
                criterion = criterion.replace("SOSM", "SOSW").replace("CUSSM", "CUSSW")
            if criterion is None:
                self.lost.append(f"tiebreak {name} (OpenGotha has no such placement criterion)")
            elif len(names) < 6:
                names.append(criterion)
        return names + ["NULL"] * (6 - len(names))


def _criteria(parent: etree._Element, names: list[str]) -> None:
    criteria = etree.SubElement(parent, "PlacementCriteria")
    for number, name in enumerate(names, start=1):
        _attrs(etree.SubElement(criteria, "PlacementCriterion"), {"name": name, "number": number})


def _participating(t: Tournament, p: Player) -> str:
    flags = []
    for r in range(1, MAX_ROUNDS_FLAGS + 1):
        rnd = t.round(r)
        byes = {b.player: b.kind for b in rnd.byes} if rnd is not None else {}
        there = (rnd is not None and p.aga_id in rnd.paired_players()) or (
            byes.get(p.aga_id) is ByeKind.FORCED
        )
        away = r in p.bye_requests or byes.get(p.aga_id) is ByeKind.VOLUNTARY
        flags.append("0" if away and not there else "1")
    return "".join(flags)


def _us_date(value: date | None) -> str:
    return f"{value.month}/{value.day}/{value.year}" if value else ""
