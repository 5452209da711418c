"""Test helper: read an OpenGotha tournament file (.xml) into a ``model.Tournament``.

Only what scoring, tiebreak and pairing-quality checks need: players (with club and
country), games, byes, participation.

* Player ids: the ``agaId`` when it is a number, else a synthetic 1, 2, 3... in file order.
* Games refer to players by OpenGotha's key string: family + given name, blanks removed,
  upper case (``Player.computeKeyString``); matched here ignoring case and underscores.
* Results (``info.vannier.gotha.Game``): RESULT_WHITEWINS / _BLACKWINS (1-0 / 0-1),
  their ``_BYDEF`` forms (won by default = forfeit), RESULT_EQUAL (jigo),
  RESULT_EQUAL_BYDEF (no result), RESULT_BOTHLOSE(_BYDEF) (double forfeit),
  RESULT_UNKNOWN (not played yet).  RESULT_BOTHWIN has no AGA equivalent: rejected.
* ``<ByePlayer player=... roundNumber=...>``: OpenGotha's odd-player bye, a forced bye.
* A Swiss event (first placement criterion NBW, number of wins) starts everyone at 0.
* Otherwise the initial McMahon score is OpenGotha's ``Player.smms``: the rank
  (30k = -30 ... 1d = 0, 9d = 8) clamped between genMMFloor and genMMBar, minus genMMZero,
  plus smmsCorrection.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from addin.core.model import (
    Bye,
    ByeKind,
    Game,
    HandicapBasis,
    HandicapPolicy,
    Player,
    PlayerId,
    Result,
    Round,
    Settings,
    Tournament,
)
from addin.core.ratings import rank_floor

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


def rank_value(rank: str) -> int:
    """OpenGotha's ``convertKDPToInt``: 30k -> -30, 1k -> -1, 1d -> 0, 9d -> 8."""
    text = rank.strip().upper()
    number = int(text[:-1])
    value = number - 1 if text.endswith("D") else -number
    return max(-30, min(8, value))


def key_of(text: str) -> str:
    return text.replace(" ", "").replace("_", "").upper()


def _smms(el: etree._Element, floor: int, bar: int, zero: int) -> int:
    rank = min(max(rank_value(el.get("rank", "20K")), floor), bar)
    return rank - zero + int(el.get("smmsCorrection", "0"))


def _game(el: etree._Element, ids: dict[str, PlayerId]) -> Game:
    code = el.get("result", "RESULT_UNKNOWN")
    if code not in RESULTS:
        raise ValueError(f"OpenGotha result {code} has no AGA equivalent")
    return Game(
        white=ids[key_of(el.get("whitePlayer", ""))],
        black=ids[key_of(el.get("blackPlayer", ""))],
        handicap=int(el.get("handicap", "0")),
        result=RESULTS[code],
        board=int(el.get("tableNumber", "0")),
    )


def read_opengotha(path: str | Path) -> Tournament:
    root = etree.parse(str(path)).getroot()
    gps = root.find("TournamentParameterSet/GeneralParameterSet")
    assert gps is not None, "no GeneralParameterSet"
    floor, bar, zero = (rank_value(gps.get(k, "")) for k in ("genMMFloor", "genMMBar", "genMMZero"))
    rounds = int(gps.get("numberOfRounds", "0"))
    first = root.find(".//PlacementCriterion[@number='1']")
    swiss = first is not None and first.get("name") == "NBW"
    players: dict[PlayerId, Player] = {}
    ids: dict[str, PlayerId] = {}
    for n, el in enumerate(root.iterfind("Players/Player"), start=1):
        aga = el.get("agaId", "")
        pid = int(aga) if aga.isdigit() else n
        ids[key_of(el.get("name", "") + el.get("firstName", ""))] = pid
        players[pid] = Player(
            aga_id=pid,
            family_name=el.get("name", ""),
            given_name=el.get("firstName", ""),
            rank=el.get("rank", ""),
            initial_score=0.0 if swiss else float(_smms(el, floor, bar, zero)),
            chapter=el.get("club", ""),
            country=el.get("country", ""),
        )
    games: dict[int, list[Game]] = {r: [] for r in range(1, rounds + 1)}
    for el in root.iterfind("Games/Game"):
        games.setdefault(int(el.get("roundNumber", "0")), []).append(_game(el, ids))
    byes: dict[int, list[Bye]] = {r: [] for r in games}
    for el in root.iterfind(".//ByePlayer[@player]"):
        bye = Bye(ids[key_of(el.get("player", ""))], ByeKind.FORCED)
        byes.setdefault(int(el.get("roundNumber", "0")), []).append(bye)
    settings = Settings(name=gps.get("name", ""), rounds=rounds, komi=float(gps.get("komi", "7.5")))
    return Tournament(
        settings=settings,
        players=players,
        rounds=[
            Round(r, tuple(sorted(games[r], key=lambda g: g.board or 0)), tuple(byes.get(r, ())))
            for r in sorted(games)
        ],
    )


def handicap_settings(path: str | Path) -> dict[str, object]:
    """``Settings`` fields for the handicap scheme the file's HandicapParameterSet asks for:
    basis (hdBasedOnMMS), correction (hdCorrection 0-3), ceiling (hdCeiling) and the rank
    from which games are even (hdNoHdRankThreshold)."""
    hps = etree.parse(str(path)).getroot().find("TournamentParameterSet/HandicapParameterSet")
    if hps is None:
        return {}
    correction = int(hps.get("hdCorrection", "1"))
    return {
        "handicap_basis": HandicapBasis.MMS
        if hps.get("hdBasedOnMMS", "true") == "true"
        else HandicapBasis.RATING,
        "handicap_policy": HandicapPolicy.FULL
        if correction == 0
        else HandicapPolicy(f"Minus {correction}"),
        "handicap_ceiling": int(hps.get("hdCeiling", "9")),
        "handicap_even_from": rank_floor(hps.get("hdNoHdRankThreshold", "1D").lower()),
    }
