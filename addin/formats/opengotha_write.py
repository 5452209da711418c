"""Write the tournament as an OpenGotha tournament file, so an OpenGotha user can open it.

The inverse of :mod:`addin.formats.opengotha` (docs/opengotha.md, "Writing"):

* Initial McMahon scores: OpenGotha computes them from the rank (framed by genMMFloor, the
  lowest band's rank, and genMMBar, the bar) with genMMZero 30k; each player's
  ``smmsCorrection`` makes up the difference, after one shift of every score that leaves the
  strongest player uncorrected (McMahon scores are compared, never read absolutely). A
  workbook imported from OpenGotha goes back with no correction at all.
* Byes and absences: the forced bye is OpenGotha's ByePlayer; a bye request and a voluntary
  bye are 0 in ``participating``. Scoring follows
  the AGA: a bye 1 point (genMMS2ValueBye 2), an absence 0 (genMMS2ValueAbsent 0).
* A dropped player is not finally registered (registeringStatus PRE): OpenGotha pairs only
  the others, and keeps their games. A given name OpenGotha cannot do without is "-".
"""

from __future__ import annotations

import re
from datetime import date, datetime

from lxml import etree

from addin.core.model import (
    ByeKind,
    HandicapBasis,
    Player,
    ScoreOrigin,
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


def write_opengotha(t: Tournament, now: datetime | None = None) -> tuple[bytes, list[str]]:
    """The OpenGotha file of ``t`` and what it could not hold (one line each)."""
    now = now or datetime.now()
    s = t.settings
    notes: list[str] = []
    swiss = s.pairing_format == "Swiss"
    played = [r.number for r in t.rounds]
    if max([*played, s.rounds]) > MAX_ROUNDS_FLAGS:
        raise ValueError(f"OpenGotha holds at most {MAX_ROUNDS_FLAGS} rounds")
    ranks = {pid: _rank(p) for pid, p in t.players.items()}
    bar = rank_value(rank_of(s.bar)) if s.bar is not None else 8
    lowest = min((b.min_rating for b in t.bands), default=None)
    floor = rank_value(rank_of(lowest)) if lowest is not None else -30
    floor = min(floor, bar)
    base = {pid: min(max(v, floor), bar) + 30 for pid, v in ranks.items()}
    scores = {pid: p.initial_score or 0.0 for pid, p in t.players.items()}
    shift = 0.0
    if t.players and not swiss:
        top = max(t.players, key=lambda pid: (scores[pid], ranks[pid]))
        shift = base[top] - scores[top]

    root = _attrs(
        etree.Element("Tournament"),
        {"dataVersion": "201", "saveDT": now.strftime("%Y%m%d%H%M%S"), "runningMode": "SAL"},
    )
    players = etree.SubElement(root, "Players")
    keys: dict[int, str] = {}
    seen: dict[str, Player] = {}
    for pid, p in t.players.items():
        given = p.given_name.strip() or NO_GIVEN_NAME
        key = key_of(p.family_name + given)
        if key in seen:
            raise ValueError(
                f"{seen[key].name} ({seen[key].aga_id}) and {p.name} ({pid}) have the same "
                "name, which OpenGotha uses to tell players apart: make one name different"
            )
        seen[key] = p
        keys[pid] = (p.family_name + given).replace(" ", "").upper()
        correction = 0.0 if swiss else scores[pid] + shift - base[pid]
        if correction != round(correction):
            notes.append(f"{p.name}: initial score {scores[pid]:g} rounded for OpenGotha")
        country = p.country.strip()
        if country and len(country) != 2:
            notes.append(f"{p.name}: country {p.country!r} (OpenGotha takes a 2-letter code)")
            country = ""
        rank = rank_text(ranks[pid]).upper()
        _attrs(
            etree.SubElement(players, "Player"),
            {
                "name": p.family_name.strip(),
                "firstName": given,
                "country": country,
                "club": p.chapter.strip(),
                "egfPin": "",
                "ffgLicence": "",
                "ffgLicenceStatus": "",
                "agaId": pid,
                "agaExpirationDate": _us_date(p.membership_expiry),
                "rank": rank,
                "rating": max(-900, min(2949, 100 * ranks[pid] + 2050)),
                "ratingOrigin": "",
                "grade": rank,
                "smmsCorrection": round(correction),
                "participating": _participating(t, p),
                "registeringStatus": "PRE" if p.status is Status.DROPPED else "FIN",
            },
        )

    games = etree.SubElement(root, "Games")
    byes = etree.SubElement(root, "ByePlayers")
    for rnd in t.rounds:
        for n, g in enumerate(rnd.games, start=1):
            code = _CODES[g.result]
            _attrs(
                etree.SubElement(games, "Game"),
                {
                    "roundNumber": rnd.number,
                    "tableNumber": g.board or n,
                    "whitePlayer": keys[g.white],
                    "blackPlayer": keys[g.black],
                    "knownColor": "true",
                    "handicap": g.handicap,
                    "result": code,
                },
            )
            expected = s.komi if g.handicap == 0 else 0.5
            if g.komi != expected:
                notes.append(
                    f"round {rnd.number} board {g.board or n}: komi {g.komi:g} (OpenGotha "
                    "keeps one komi for the event)"
                )
        forced = [b.player for b in rnd.byes if b.kind is ByeKind.FORCED]
        for pid in forced[:1]:
            _attrs(
                etree.SubElement(byes, "ByePlayer"),
                {"roundNumber": rnd.number, "player": keys[pid]},
            )
        if len(forced) > 1:
            notes.append(
                f"round {rnd.number}: {len(forced)} forced byes; OpenGotha holds one, the others "
                "are absent there"
            )

    tps = etree.SubElement(root, "TournamentParameterSet")
    _attrs(
        etree.SubElement(tps, "GeneralParameterSet"),
        {
            "shortName": re.sub(r"[^A-Za-z0-9]+", "", s.name)[:20] or "tournament",
            "name": s.name or "Tournament",
            "location": s.venue,
            "director": s.director.name,
            "beginDate": (s.start_date or now.date()).isoformat(),
            "endDate": (s.end_date or s.start_date or now.date()).isoformat(),
            "size": "19",
            "komi": f"{s.komi:g}",
            "bInternet": "false",
            "basicTime": s.basic_time_minutes or 0,
            **_overtime(s.overtime_format, s.overtime_conditions),
            "numberOfRounds": s.rounds,
            "numberOfCategories": "1",
            "genMMFloor": rank_text(floor).upper(),
            "genMMBar": rank_text(bar).upper(),
            "genMMZero": "30K",
            "genNBW2ValueAbsent": "0",
            "genNBW2ValueBye": "2",
            "genMMS2ValueAbsent": "0",
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
            "hdNoHdRankThreshold": rank_text(rank_value(rank_of(threshold))).upper()
            if threshold is not None
            else "9D",
            "hdCorrection": reduction or 0,
            "hdCeiling": 0 if reduction is None else s.handicap_ceiling,
        },
    )
    if s.top_band_even:
        notes.append("Top band games even (OpenGotha has no such rule)")
    criteria = ["NBW" if swiss else "MMS"]
    for name in s.tiebreaks:
        criterion = _CRITERIA.get(name)
        if criterion and swiss:
            criterion = criterion.replace("SOSM", "SOSW").replace("CUSSM", "CUSSW")
        if criterion is None:
            notes.append(f"tiebreak {name} (OpenGotha has no such placement criterion)")
        elif len(criteria) < 6:
            criteria.append(criterion)
    placement = etree.SubElement(
        etree.SubElement(tps, "PlacementParameterSet"), "PlacementCriteria"
    )
    for number in range(1, 7):
        name = criteria[number - 1] if number <= len(criteria) else "NULL"
        _attrs(etree.SubElement(placement, "PlacementCriterion"), {"name": name, "number": number})
    geo = s.avoid_same_club or s.avoid_same_country
    points = max(s.avoidance_points, 1)
    _attrs(
        etree.SubElement(tps, "PairingParameterSet"),
        {
            **PAIRING_DEFAULTS,
            "paiSeAvoidSameGeo": "100000000000" if geo else "0",
            "paiSePreferMMSDiffRatherThanSameClub": points if s.avoid_same_club else 0,
            "paiSePreferMMSDiffRatherThanSameCountry": points if s.avoid_same_country else 0,
            "paiSeMinimizeHandicap": "100000000" if s.avoid_handicap_games else "0",
        },
    )
    if s.avoid_same_family or s.avoid_same_city or s.avoid_same_state:
        notes.append("avoiding the same family, city or state (OpenGotha avoids club, country)")
    if s.score_origin is ScoreOrigin.TOP and not swiss and shift:
        notes.append(f"initial scores shown {shift:+g} in OpenGotha (its zero is 30k)")
    team = etree.SubElement(root, "TeamTournamentParameterSet")
    _attrs(etree.SubElement(team, "TeamGeneralParameterSet"), {"teamSize": "4"})
    team_criteria = etree.SubElement(team, "TeamPlacementParameterSet")
    for number, name in enumerate(("TEAMP", "BDW", "BDW3U", "BDW2U", "BDW1U", "MNR"), start=1):
        _attrs(
            etree.SubElement(team_criteria, "PlacementCriterion"), {"name": name, "number": number}
        )
    data = etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return data, notes


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
