"""The AGA XML tournament report: write it, validate it, read it back (ours and Eggplant's).

The official schema (usgo.org AGATournamentSchema.xsd) is not available offline;
``aga_report.xsd`` describes exactly what :func:`write_aga_xml` emits. The report follows the
interface document and its sample wherever they speak (Rating a rank, Komi an integer,
"White Win"), and carries Eggplant's extensions by default so that the AGA's own program
reads it and a TD can carry on there (:mod:`addin.formats.eggplant`; docs/aga-xml-interop.md).

Mapping decisions
-----------------
GameResult written -> read (reading ignores case and extra spaces):

==========================  ==================  ===========================================
model                       written             also read
==========================  ==================  ===========================================
WHITE_WINS                  "White Win"         "White wins" (the AGA sample's spelling)
BLACK_WINS                  "Black Win"         "Black wins"
WHITE_WINS_BY_FORFEIT       "Black forfeit"     (Black forfeited the game)
BLACK_WINS_BY_FORFEIT       "White forfeit"
JIGO                        "Draw"              "Jigo"
NO_RESULT                   "Void"              "No result"
DOUBLE_FORFEIT              "Double forfeit"    "Double loss" (both score 0 either way)
None (not played yet)       "Unknown"           "" (missing)
Bye VOLUNTARY               (not a game)        see byes
Bye FORCED                  "Involuntary Bye"
==========================  ==================  ===========================================

Each game also carries Eggplant's ``eggplantresult``; on reading, its ``*_BY_DEFAULT`` turns
a win into a win by forfeit (Eggplant's GameResult says "Black win" for both).

Komi: an integer, by the text report's rule (:func:`addin.core.handicap.aga_text_komi`:
7.5 -> 7, 0.5 -> 0; Ing: N stones -> -N), with the real Handicap (1 for one stone). Reading
follows the AGA convention: an integer k means k.5 (0 -> 0.5, 6 -> 6.5, -7 -> -7.5) unless
some game of the file has a komi with a fraction (then every komi is read as written).

Forced byes are written as Eggplant writes them (its XmlEncoderAGA): a Game whose WhitePlayerID
and BlackPlayerID are both the player's, Komi="0", Handicap="0", after the round's games.
Voluntary byes are ABSENT in ``eggplantparticipation`` (Eggplant holds one bye a round). Eggplant
writes its pairing bye (odd field) as "Voluntary Bye"; in files whose Software is Eggplant
that result is therefore read as a *forced* bye. Eggplant records players who sit out only
in its own ``eggplantparticipation`` attribute ("PAIRED,ABSENT,NOT_ASSIGNED,", one entry per
round): ABSENT becomes a bye request and, in a round with games, a voluntary bye.

Player contact details are optional attributes of Player: ``Email``, ``Phone``, ``Address``
(line breaks kept as ``&#10;``), ``Citizenship``, ``BirthDate`` (YYYY-MM-DD), and ``AGAFee``
(the membership fee collected at the desk, in dollars: ``30``, ``22.50``). The players the
text report gives a membership record (new members, members with such details, members whose
chapter, state or membership type differs from the TDListA) also carry ``Club``, ``State``
and ``MembershipType`` as the desk has them now (blank ones left out); the others do not, so
a Player with them is a membership record, as in the text report's blocks after END.
``InitialTournamentScore`` is left out while the player has none.

Rating: we write the rank of the entry rating as the AGA sample does ("7D", "27K"), and the
exact rating in Eggplant's ``eggplantagarating`` (-30.50 when there is none).
Reading accepts ranks ("9K", "1D") and ratings. Eggplant adds ``eggplantagarating``,
the player's AGA rating; we take it when it lies within the rank given in Rating (it is
more precise and the same strength), and otherwise keep the rank's midpoint: the rank is
what the TD accepted and what Eggplant computed the handicaps from (handicapbasis RANK).
A differing AGA rating is kept in ``Player.notes``; -30.50 is Eggplant's placeholder for
"no AGA rating" and is dropped.

Overtime: ``Settings.overtime_format`` picks the element (byo-yomi/japanese -> ByoYomi;
canadian -> Canadian; fischer/increment -> Fischer; sudden death/none/absolute or nothing
-> SuddenDeath; when the format is blank, the conditions decide). Numbers come from
``overtime_conditions``: "5 periods of 30 seconds" or "5x30s" -> ByoYomi TimeBlockCount=5
TimeBlockSize=30; "25 stones in 10 minutes" -> Canadian StoneCount=25 TimeBlockSize=600;
"5 second increment per move" -> Fischer Increment=5. Sizes are in seconds. Reading gives
the canonical texts back ("Byo-yomi", "5 periods of 30 seconds").

Old Eggplant saves (no ``eggplant-version``) may have the player IDs of every game swapped
(Eggplant's loader says so; 2013-12.xml is such a file): when *every* handicap game gives
the stones to the higher-rated player, all games of the file are swapped back and each gets
a note. GameResult names a colour and is kept.

Header ``Comment`` carries what the AGA needs but the header has no element for, and what
pairing the next round needs: "Komi: 7.5; Rounds: 5; Handicap: Minus 1". Reading takes
these keys when present; any other comment is ignored (the model has no comment field).
Eggplant's ``<eggplant>`` block, when present, gives the number of rounds, komi, bar and
handicap rule (:func:`addin.formats.eggplant.read_settings`, with notes for the TD).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from importlib import resources

from lxml import etree

from addin.core.handicap import MAX_HANDICAP, aga_text_komi, komi_from_report
from addin.core.limits import (
    MAX_ROUNDS,
    MAX_SCORE,
    fee_problem,
    komi_problem,
    number_said,
    shown,
)
from addin.core.model import (
    Bye,
    ByeKind,
    Contact,
    Game,
    HandicapPolicy,
    Player,
    PlayerId,
    Result,
    Round,
    Rules,
    Settings,
    Status,
    Tournament,
)
from addin.core.participants import reported
from addin.core.ratings import RatingError, parse_rating, rank_of
from addin.formats import eggplant
from addin.formats.aga_text import (
    AGAReportError,
    format_fee,
    format_number,
    format_rating,
    needs_membership_details,
)
from addin.formats.eggplant import read_settings as read_eggplant_settings

__all__ = [
    "MAX_BYTES",
    "SCHEMA_LOCATION",
    "AGAReportError",
    "ImportedReport",
    "OvertimeError",
    "overtime_element",
    "read_aga_xml",
    "read_aga_xml_report",
    "validate_aga_xml",
    "write_aga_xml",
]

MAX_BYTES = 20 * 1024 * 1024
"""Largest report accepted: a 2,000-player event is well under 2 MB."""
SCHEMA_LOCATION = "http://www.usgo.org/tournaments/TournamentStandards/AGATournamentSchema.xsd"
"""As Eggplant writes it (the interface document's sample omits TournamentStandards/)."""
XSI = "http://www.w3.org/2001/XMLSchema-instance"

_WRITE_RESULTS: dict[Result | None, str] = {
    Result.WHITE_WINS: "White Win",
    Result.BLACK_WINS: "Black Win",
    Result.WHITE_WINS_BY_FORFEIT: "Black forfeit",
    Result.BLACK_WINS_BY_FORFEIT: "White forfeit",
    Result.JIGO: "Draw",
    Result.NO_RESULT: "Void",
    Result.DOUBLE_FORFEIT: "Double forfeit",
    None: "Unknown",
}
_WRITE_BYES = {ByeKind.VOLUNTARY: "Voluntary Bye", ByeKind.FORCED: "Involuntary Bye"}


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


_READ_RESULTS: dict[str, Result | None] = {
    **{_norm(text): result for result, text in _WRITE_RESULTS.items()},
    "white wins": Result.WHITE_WINS,
    "black wins": Result.BLACK_WINS,
    "jigo": Result.JIGO,
    "no result": Result.NO_RESULT,
    "double loss": Result.DOUBLE_FORFEIT,
    "": None,
}
_READ_BYES = {_norm(text): kind for kind, text in _WRITE_BYES.items()}
_EXPECTED_RESULTS = ", ".join([*_WRITE_RESULTS.values(), *_WRITE_BYES.values(), "Double loss"])
EGGPLANT_NO_RATING = -30.5
"""Eggplant's eggplantagarating for a player without an AGA rating."""


# --------------------------------------------------------------------------- overtime

_OVERTIME_NAMES = {
    "byoyomi": "ByoYomi",
    "japanese": "ByoYomi",
    "japanesebyoyomi": "ByoYomi",
    "canadian": "Canadian",
    "canadianbyoyomi": "Canadian",
    "fischer": "Fischer",
    "increment": "Fischer",
    "fischerincrement": "Fischer",
    "suddendeath": "SuddenDeath",
    "none": "SuddenDeath",
    "absolute": "SuddenDeath",
}
_DURATION = re.compile(
    r"(\d+(?:\.\d+)?)\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b", re.IGNORECASE
)
_STONES = re.compile(r"(\d+)\s*(?:stones?|moves?)\b", re.IGNORECASE)
_PERIODS = re.compile(r"(\d+)\s*(?:periods?\b|times\b|[x×*])", re.IGNORECASE)
_PERIODS_AFTER = re.compile(r"[x×*]\s*(\d+)\b", re.IGNORECASE)
_UNIT_SECONDS = {"h": 3600, "m": 60, "s": 1}


def _seconds(conditions: str) -> float | None:
    match = _DURATION.search(conditions)
    if not match:
        return None
    return float(match.group(1)) * _UNIT_SECONDS[match.group(2)[0].lower()]


class OvertimeError(AGAReportError):
    """The two overtime settings do not make an OvertimeFormat element; ``setting`` is the
    one to fix (``overtime_format`` or ``overtime_conditions``)."""

    def __init__(self, message: str, setting: str) -> None:
        super().__init__(message)
        self.setting = setting


def _overtime_kind(format_text: str, conditions: str) -> str:
    key = re.sub(r"[^a-z]", "", format_text.casefold())
    if key in _OVERTIME_NAMES:
        return _OVERTIME_NAMES[key]
    if key:
        known = "byo-yomi, Canadian, Fischer, sudden death"
        raise OvertimeError(
            f"overtime format {shown(format_text, 60)} is not one of {known}", "overtime_format"
        )
    if _STONES.search(conditions):
        return "Canadian"
    if "increment" in conditions.casefold():
        return "Fischer"
    return "ByoYomi" if _PERIODS.search(conditions) else "SuddenDeath"


@dataclass(frozen=True)
class Overtime:
    """The overtime as far as the TD's two free-text settings say it."""

    kind: str
    """ByoYomi, Canadian, Fischer or SuddenDeath."""
    seconds: float | None
    """A byo-yomi period's length, a Canadian block's, or the Fischer increment."""
    stones: int | None
    """The moves of a Canadian block."""


def read_overtime(format_text: str, conditions: str) -> Overtime:
    """The overtime, whatever the conditions leave out (an unknown format: OvertimeError)."""
    stones = _STONES.search(conditions)
    return Overtime(
        _overtime_kind(format_text, conditions),
        _seconds(conditions),
        int(stones.group(1)) if stones else None,
    )


def overtime_element(format_text: str, conditions: str) -> tuple[str, dict[str, str]]:
    """The OvertimeFormat child (tag, attributes) for the TD's two free-text settings."""
    kind = _overtime_kind(format_text, conditions)
    if kind == "SuddenDeath":
        return kind, {}
    seconds = _seconds(conditions)
    counts = {
        "ByoYomi": _PERIODS.search(conditions) or _PERIODS_AFTER.search(conditions),
        "Canadian": _STONES.search(conditions),
        "Fischer": True,
    }[kind]
    if seconds is None or not counts:
        wanted = {"ByoYomi": "periods and their length", "Canadian": "stones and a time"}
        what = wanted.get(kind, "the increment")
        example = {"ByoYomi": "5 periods of 30 seconds", "Canadian": "25 stones in 10 minutes"}
        problem = (
            f"overtime conditions {shown(conditions, 60)} do not give {what}"
            if conditions.strip()
            else f"overtime conditions are blank; they must give {what}"
        )
        raise OvertimeError(
            f"{problem} (for example: {example.get(kind, '30 seconds increment')})",
            "overtime_conditions",
        )
    size = format_number(seconds)
    if kind == "Fischer":
        return kind, {"Increment": size}
    assert isinstance(counts, re.Match)
    if kind == "ByoYomi":
        return kind, {"TimeBlockSize": size, "TimeBlockCount": counts.group(1)}
    return kind, {"StoneCount": counts.group(1), "TimeBlockSize": size}


def _duration_text(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        minutes = seconds / 60
        return f"{format_number(minutes)} minute{'' if minutes == 1 else 's'}"
    return f"{format_number(seconds)} second{'' if seconds == 1 else 's'}"


# --------------------------------------------------------------------------- writing


def write_aga_xml(
    t: Tournament, software: str = "addin", updated: Collection[PlayerId] | None = None
) -> bytes:
    """The report as UTF-8 bytes. No timestamp is written: the same tournament, same bytes.

    ``updated``: the members whose record is news for the membership office
    (:func:`addin.core.membership_updates.updates`); their Player carries the Club, State
    and MembershipType as the desk has them. None: every member with a detail the TDListA
    does not hold. A player who never came (:func:`addin.core.participants.no_shows`) is not
    reported.
    """
    t = reported(t)
    root = etree.Element("TournamentReport", nsmap={"xsi": XSI})
    root.set(f"{{{XSI}}}noNamespaceSchemaLocation", SCHEMA_LOCATION)
    root.set("eggplant-version", eggplant.EGGPLANT_VERSION)
    root.append(_header(t.settings, software))
    root.append(_player_list(t, updated))
    root.append(_round_list(t.rounds, t.settings.rules))
    egg = etree.SubElement(root, "eggplant")
    for tag, value in eggplant.block(t):
        _text(egg, tag, value)
    body: bytes = etree.tostring(root, encoding="UTF-8", xml_declaration=False, pretty_print=True)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + body


def _text(parent: etree._Element, tag: str, value: str) -> etree._Element:
    element = etree.SubElement(parent, tag)
    element.text = value.strip() or None
    return element


def _contact(parent: etree._Element, tag: str, contact: Contact) -> None:
    element = etree.SubElement(parent, tag)
    for child, value in _contact_fields(contact):
        _text(element, child, value)


def _contact_fields(contact: Contact) -> list[tuple[str, str]]:
    return [
        ("Name", contact.name),
        ("Address", contact.address),
        ("Phone", contact.phone),
        ("Email", contact.email),
        ("WebPage", contact.web),
    ]


def _header(s: Settings, software: str) -> etree._Element:
    header = etree.Element("Header")
    _text(header, "Software", software)
    _text(header, "TournamentName", s.name)
    venue = etree.SubElement(header, "TournamentVenue")
    _text(venue, "Name", s.venue)
    _text(venue, "Address", s.venue_address)
    _contact(header, "TournamentDirector", s.director)
    _contact(header, "TournamentSponsor", s.sponsor)
    _contact(header, "TournamentConvenor", s.convener)
    if s.start_date is not None:
        _text(header, "StartDate", s.start_date.isoformat())
    if s.end_date is not None:
        _text(header, "EndDate", s.end_date.isoformat())
    _text(header, "PairingFormat", s.pairing_format)
    _text(header, "Rules", s.rules.value)
    if s.basic_time_minutes is not None:
        _text(header, "BasicTime", str(s.basic_time_minutes))
    tag, attributes = overtime_element(s.overtime_format, s.overtime_conditions)
    etree.SubElement(etree.SubElement(header, "OvertimeFormat"), tag, attributes)
    systems = etree.SubElement(header, "TiebreakSystemList")
    for tier, method in enumerate(s.tiebreaks, start=1):
        etree.SubElement(systems, "System", Tier=str(tier), Method=method)
    _text(header, "Comment", _comment(s))
    return header


def _comment(s: Settings) -> str:
    return f"Komi: {format_number(s.komi)}; Rounds: {s.rounds}; Handicap: {s.handicap_policy.value}"


def _rating_text(player: Player) -> str:
    """The rank, as the AGA sample writes it ("7D", "15K"); the rating goes elsewhere."""
    rating = player.rating
    if rating is None and player.rank.strip():
        try:
            rating = parse_rating(player.rank)
        except RatingError:
            return player.rank.strip()
    if rating is not None:
        return rank_of(rating).upper()
    raise AGAReportError(f"player {player.aga_id} ({player.name}) has neither rank nor rating")


def _player_list(t: Tournament, updated: Collection[PlayerId] | None) -> etree._Element:
    element = etree.Element("PlayerList")
    seats = eggplant.Seats.of(t)
    for p in t.players.values():
        attributes = {
            "ID": str(p.aga_id),
            "GivenName": p.given_name.strip(),
            "FamilyName": p.family_name.strip(),
            "Rating": _rating_text(p),
        }
        if p.initial_score is not None:
            attributes["InitialTournamentScore"] = format_number(p.initial_score)
        attributes |= {k: v for k, v in _player_contact(p) if v}
        if needs_membership_details(p, updated):
            attributes |= {k: v for k, v in _player_membership(p) if v}
        if p.status is Status.DROPPED:
            attributes["Status"] = eggplant.DROPPED
        attributes["eggplantagarating"] = eggplant.agarating(p)
        attributes["eggplantparticipation"] = eggplant.participation(t, p, seats)
        etree.SubElement(element, "Player", attributes)
    return element


def _player_contact(p: Player) -> list[tuple[str, str]]:
    return [
        ("Email", p.email.strip()),
        ("Phone", p.phone.strip()),
        ("Address", p.address.strip()),
        ("Citizenship", p.citizenship.strip()),
        ("BirthDate", p.birth_date.isoformat() if p.birth_date else ""),
        ("AGAFee", format_fee(p.aga_fee).removeprefix("$")),
    ]


def _player_membership(p: Player) -> list[tuple[str, str]]:
    """The TDListA data of a membership record: as the desk has it now."""
    return [
        ("Club", " ".join(p.chapter.split())),
        ("State", " ".join(p.state.split())),
        ("MembershipType", " ".join(p.membership_type.split())),
    ]


def _round_list(rounds: Iterable[Round], rules: Rules) -> etree._Element:
    """Games with integer komi (as the text report); forced byes as Eggplant's self-games.

    Voluntary byes are not written as games: Eggplant holds one bye player a round, so they
    are its ABSENT participation (see :mod:`addin.formats.eggplant`).
    """
    element = etree.Element("RoundList")
    for rnd in sorted(rounds, key=lambda r: r.number):
        round_element = etree.SubElement(element, "Round", RoundNumber=str(rnd.number))
        for g in rnd.games:
            komi = aga_text_komi(g.handicap, g.komi, rules)[1]
            etree.SubElement(
                round_element,
                "Game",
                BlackPlayerID=str(g.black),
                WhitePlayerID=str(g.white),
                Komi=str(komi),
                Handicap=str(g.handicap),
                GameResult=_WRITE_RESULTS[g.result],
                eggplantresult=eggplant.RESULTS[g.result],
            )
        for bye in rnd.byes:
            if bye.kind is ByeKind.FORCED:
                player = str(bye.player)
                etree.SubElement(
                    round_element,
                    "Game",
                    BlackPlayerID=player,
                    WhitePlayerID=player,
                    Komi="0",
                    Handicap="0",
                    GameResult=_WRITE_BYES[bye.kind],
                )
    return element


# --------------------------------------------------------------------------- validating


@lru_cache(maxsize=1)
def _schema() -> etree.XMLSchema:
    xsd = resources.files("addin.formats").joinpath("aga_report.xsd").read_bytes()
    return etree.XMLSchema(etree.fromstring(xsd, _safe_parser()))


def validate_aga_xml(data: bytes) -> list[str]:
    """Problems of ``data`` against ``aga_report.xsd``, one "line N: message" each; [] if valid."""
    try:
        root = _parse(data, "the report")
    except AGAReportError as error:
        return [str(error)]
    schema = _schema()
    if schema.validate(root):
        return []
    return [f"line {e.line}: {e.message}" for e in schema.error_log]


# --------------------------------------------------------------------------- reading


def _safe_parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def _parse(data: bytes, source: str) -> etree._Element:
    """Well-formed, small, and with no entity declarations or external DTD."""
    if len(data) > MAX_BYTES:
        limit = MAX_BYTES // (1024 * 1024)
        raise AGAReportError(
            f"{source}: {len(data):,} bytes is more than the {limit} MB an AGA report may have"
        )
    _refuse_entity_declarations(data, source)
    try:
        root = etree.fromstring(data, _safe_parser())
    except etree.XMLSyntaxError as error:
        message = f"{source}, line {error.lineno}: not well-formed XML: {error.msg}"
        raise AGAReportError(message) from None
    _refuse_doctype(root.getroottree(), source)
    return root


def _entities_refused(source: str) -> AGAReportError:
    return AGAReportError(
        f"{source}: refused: its DOCTYPE declares entities (<!ENTITY ...>). AGA reports "
        "never need them, and they are how external-entity (XXE) and 'billion laughs' "
        "attacks work"
    )


def _refuse_entity_declarations(data: bytes, source: str) -> None:
    """Before parsing: libxml2 would otherwise stop a billion laughs with its own message."""
    text = data
    if data[:2] in (b"\xff\xfe", b"\xfe\xff", b"<\x00", b"\x00<"):
        encoding = "utf-16-be" if data[:2] in (b"\xfe\xff", b"\x00<") else "utf-16-le"
        text = data.decode(encoding, errors="replace").encode("utf-8")
    doctype = text.find(b"<!DOCTYPE")
    if doctype >= 0 and text.find(b"<!ENTITY", doctype) >= 0:
        raise _entities_refused(source)


def _refuse_doctype(tree: etree._ElementTree, source: str) -> None:
    """After parsing, from what libxml2 saw: entity declarations or an external DTD."""
    docinfo = tree.docinfo
    dtd = docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise _entities_refused(source)
    if docinfo.system_url or docinfo.public_id:
        raise AGAReportError(
            f"{source}: refused: its DOCTYPE refers to an external DTD "
            f"({docinfo.system_url or docinfo.public_id}); AGA reports have none"
        )


@dataclass
class _Context:
    """What reading one document needs to know and report."""

    source: str
    eggplant: bool = False
    rules: Rules = Rules.AGA
    half_point: bool = True
    """The AGA convention: integer komi k means k.5, unless some komi in the file has a fraction."""
    players: dict[PlayerId, Player] = field(default_factory=dict)
    absent: dict[PlayerId, set[int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    given: set[str] = field(default_factory=set)

    def error(self, element: etree._Element, message: str) -> AGAReportError:
        where = f"{self.source}, line {element.sourceline}"
        return AGAReportError(f"{where}: <{element.tag}> {message}")


@dataclass(frozen=True)
class ImportedReport:
    """A report as read, and what the TD should be told about it (settings taken over)."""

    tournament: Tournament
    notes: tuple[str, ...] = ()
    settings_given: frozenset[str] = frozenset()
    """The :class:`Settings` fields the file gives; the others are only defaults."""


def read_aga_xml(data: bytes, source: str) -> Tournament:
    """Settings, players and rounds of an AGA XML report: ours, Eggplant's, any producer's.

    Raises :class:`AGAReportError` naming ``source``, the line and the element.
    """
    return read_aga_xml_report(data, source).tournament


def read_aga_xml_report(data: bytes, source: str) -> ImportedReport:
    """:func:`read_aga_xml` with the notes of what was taken over from the file."""
    root = _parse(data, source)
    context = _Context(source)
    if root.tag != "TournamentReport":
        raise context.error(root, "is not an AGA report (expected <TournamentReport>)")
    header = root.find("Header")
    settings = _read_settings(context, header, root.find("eggplant"))
    context.rules = settings.rules
    context.half_point = not any(
        _has_fraction(g.get("Komi", "")) for g in root.iterfind("RoundList/Round/Game")
    )
    for element in root.iterfind("PlayerList/Player"):
        _read_player(context, element)
    _check_round_numbers(context, root.findall("RoundList/Round"))
    rounds = [_read_round(context, r) for r in root.iterfind("RoundList/Round")]
    rounds.sort(key=lambda r: r.number)
    rounds = _add_absences(context, rounds)
    if context.eggplant and root.get("eggplant-version") is None:
        rounds = _unflip_old_eggplant(context.players, rounds)
    tournament = Tournament(settings=settings, players=context.players, rounds=rounds)
    return ImportedReport(tournament, tuple(context.notes), frozenset(context.given))


def _has_fraction(text: str) -> bool:
    try:
        return not float(text).is_integer()
    except ValueError:
        return False


def _child_text(element: etree._Element | None, path: str) -> str:
    if element is None:
        return ""
    child = element.find(path)
    return (child.text or "").strip() if child is not None else ""


def _read_contact(header: etree._Element | None, tag: str) -> Contact:
    element = header.find(tag) if header is not None else None
    values = {k: _child_text(element, k) for k, _ in _contact_fields(Contact())}
    return Contact(
        values["Name"], values["Address"], values["Phone"], values["Email"], values["WebPage"]
    )


def _read_settings(
    context: _Context, header: etree._Element | None, eggplant: etree._Element | None
) -> Settings:
    context.eggplant = _child_text(header, "Software").casefold() == "eggplant"
    settings = Settings(
        name=_child_text(header, "TournamentName"),
        venue=_child_text(header, "TournamentVenue/Name"),
        venue_address=_child_text(header, "TournamentVenue/Address"),
        start_date=_header_date(context, header, "StartDate"),
        end_date=_header_date(context, header, "EndDate"),
        director=_read_contact(header, "TournamentDirector"),
        sponsor=_read_contact(header, "TournamentSponsor"),
        convener=_read_contact(header, "TournamentConvenor"),
        pairing_format=_child_text(header, "PairingFormat") or Settings.pairing_format,
        rules=_read_rules(context, header),
        basic_time_minutes=_header_int(context, header, "BasicTime"),
        tiebreaks=_read_tiebreaks(context, header),
    )
    settings = _read_overtime(context, header, settings)
    context.given |= _header_given(header)
    settings, given = _read_comment(_child_text(header, "Comment"), settings)
    context.given |= given
    if eggplant is None:
        return settings
    values = {child.tag: (child.text or "") for child in eggplant if isinstance(child.tag, str)}
    settings, notes, given = read_eggplant_settings(values, settings, context.eggplant)
    context.notes += notes
    context.given |= given
    return settings


def _round_count(text: str) -> bool:
    """Whether ``text`` is a number of rounds (1 to MAX_ROUNDS); others are left alone."""
    return text.isdecimal() and len(text) <= 6 and 1 <= int(text) <= MAX_ROUNDS


_HEADER_FIELDS = {
    "name": "TournamentName",
    "venue": "TournamentVenue/Name",
    "venue_address": "TournamentVenue/Address",
    "start_date": "StartDate",
    "end_date": "EndDate",
    "pairing_format": "PairingFormat",
    "rules": "Rules",
    "basic_time_minutes": "BasicTime",
}
_HEADER_PARTS = {
    "director": "TournamentDirector",
    "sponsor": "TournamentSponsor",
    "convener": "TournamentConvenor",
    "tiebreaks": "TiebreakSystemList/System",
    "overtime_format": "OvertimeFormat/*",
    "overtime_conditions": "OvertimeFormat/*",
}


def _header_given(header: etree._Element | None) -> set[str]:
    """The settings the header gives (a blank element gives nothing)."""
    if header is None:
        return set()
    given = {name for name, path in _HEADER_FIELDS.items() if _child_text(header, path)}
    return given | {name for name, path in _HEADER_PARTS.items() if header.find(path) is not None}


def _header_date(context: _Context, header: etree._Element | None, tag: str) -> date | None:
    element = header.find(tag) if header is not None else None
    if element is None or not (element.text or "").strip():
        return None
    try:
        return date.fromisoformat(element.text.strip())
    except ValueError:
        raise context.error(element, f"{element.text!r} is not a date (YYYY-MM-DD)") from None


def _header_int(context: _Context, header: etree._Element | None, tag: str) -> int | None:
    element = header.find(tag) if header is not None else None
    if element is None or not (element.text or "").strip():
        return None
    text = element.text.strip()
    if not (text.isascii() and text.isdecimal()):  # "²" is a digit to str.isdigit, not to int
        raise context.error(element, f"{shown(text)} is not a whole number of minutes")
    return int(text)


def _read_rules(context: _Context, header: etree._Element | None) -> Rules:
    element = header.find("Rules") if header is not None else None
    if element is None or not (element.text or "").strip():
        return Rules.AGA
    for rules in Rules:
        if rules.value.casefold() == element.text.strip().casefold():
            return rules
    names = ", ".join(r.value for r in Rules)
    raise context.error(element, f"{element.text!r} is not one of {names}")


def _read_tiebreaks(context: _Context, header: etree._Element | None) -> tuple[str, ...]:
    """By Tier; Eggplant's "NULL" placeholders are dropped."""
    systems = [] if header is None else header.findall("TiebreakSystemList/System")
    if not systems:
        return Settings.tiebreaks
    tiers = []
    for system in systems:
        tier, method = system.get("Tier", ""), system.get("Method", "").strip()
        if not tier.isdecimal():
            raise context.error(system, f"Tier {tier!r} is not a whole number")
        if method and method.upper() != "NULL":
            tiers.append((int(tier), method))
    return tuple(method for _, method in sorted(tiers))


_OVERTIME_READ = {
    "ByoYomi": ("Byo-yomi", ("TimeBlockCount", "TimeBlockSize"), "{0} periods of {1}"),
    "Canadian": ("Canadian", ("StoneCount", "TimeBlockSize"), "{0} stones in {1}"),
    "Fischer": ("Fischer", ("Increment",), "{0} increment per move"),
    "SuddenDeath": ("Sudden death", (), ""),
}


def _read_overtime(
    context: _Context, header: etree._Element | None, settings: Settings
) -> Settings:
    """The canonical texts :func:`overtime_element` maps back to the same element."""
    element = header.find("OvertimeFormat/*") if header is not None else None
    if element is None:
        return settings
    if element.tag not in _OVERTIME_READ:
        return replace(settings, overtime_format=str(element.tag), overtime_conditions="")
    label, keys, template = _OVERTIME_READ[element.tag]
    values = [_positive(context, element, key) for key in keys]
    texts = [
        _duration_text(v) if k in ("TimeBlockSize", "Increment") else format_number(v)
        for k, v in zip(keys, values, strict=True)
    ]
    return replace(settings, overtime_format=label, overtime_conditions=template.format(*texts))


def _positive(context: _Context, element: etree._Element, key: str) -> float:
    text = element.get(key, "")
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise context.error(element, f"{key}={text!r} is not a positive number")
    return value


def _read_comment(comment: str, settings: Settings) -> tuple[Settings, set[str]]:
    """Our "Komi: 7.5; Rounds: 5; Handicap: Minus 1"; anything else is left alone."""
    values = {}
    for part in comment.split(";"):
        key, _, value = part.partition(":")
        values[_norm(key)] = value.strip()
    policies = {p.value.casefold(): p for p in HandicapPolicy}
    given = set()
    if re.fullmatch(r"[+-]?\d+(\.\d+)?", values.get("komi", "")) and not komi_problem(
        float(values["komi"])
    ):
        settings = replace(settings, komi=float(values["komi"]))
        given.add("komi")
    if _round_count(values.get("rounds", "")):
        settings = replace(settings, rounds=int(values["rounds"]))
        given.add("rounds")
    if values.get("handicap", "").casefold() in policies:
        settings = replace(settings, handicap_policy=policies[values["handicap"].casefold()])
        given.add("handicap_policy")
    return settings, given


def _player_id(context: _Context, element: etree._Element, key: str) -> PlayerId:
    text = element.get(key)
    if text is None:
        raise context.error(element, f"has no {key}")
    if not re.fullmatch(r"\d{1,5}", text.strip()):
        raise context.error(element, f"{key}={text!r} is not an AGA number (up to five digits)")
    return int(text)


def _read_player(context: _Context, element: etree._Element) -> None:
    aga_id = _player_id(context, element, "ID")
    if aga_id in context.players:
        raise context.error(element, f"ID {aga_id} is listed twice in PlayerList")
    rank, rating, notes = _read_rating(context, element)
    initial = element.get("InitialTournamentScore", "").strip()
    player = Player(
        aga_id,
        family_name=element.get("FamilyName", "").strip(),
        given_name=element.get("GivenName", "").strip(),
        rank=rank,
        rating=rating,
        initial_score=_score(context, element, "InitialTournamentScore") if initial else None,
        email=element.get("Email", ""),
        phone=element.get("Phone", ""),
        address=element.get("Address", ""),
        citizenship=element.get("Citizenship", ""),
        birth_date=_birth_date(context, element),
        aga_fee=_fee(context, element),
        chapter=element.get("Club", "").strip(),
        state=element.get("State", "").strip(),
        membership_type=element.get("MembershipType", "").strip(),
        notes=notes,
    )
    if eggplant.is_dropped(element.get("Status", "")):
        player = replace(player, status=Status.DROPPED)
    context.players[aga_id] = player
    absent = eggplant.absences(element.get("eggplantparticipation", ""))
    if absent:
        context.absent[aga_id] = absent
        context.players[aga_id] = replace(player, bye_requests=frozenset(absent))


def _read_rating(context: _Context, element: etree._Element) -> tuple[str, float | None, str]:
    """(rank as given, entry rating, note): see the module docstring for Eggplant's rating."""
    rank = element.get("Rating", "").strip()
    try:
        rating = parse_rating(rank) if rank else None
    except RatingError as error:
        raise context.error(element, f"Rating: {error}") from None
    agarating = _eggplant_rating(element.get("eggplantagarating", ""))
    if agarating is None or agarating == rating:
        return rank, rating, ""
    if rating is None or (_is_rank(rank) and rank_of(agarating) == rank_of(rating)):
        return rank, agarating, ""
    if agarating == EGGPLANT_NO_RATING:
        return rank, rating, ""
    note = f"AGA rating {format_rating(agarating)} (Eggplant) is not the entry rank {rank}"
    return rank, rating, note


def _is_rank(text: str) -> bool:
    return bool(re.fullmatch(r"\d{1,2}\s*[a-z]+", text.strip(), re.IGNORECASE))


def _eggplant_rating(text: str) -> float | None:
    try:
        return parse_rating(text) if text.strip() else None
    except RatingError:
        return None


def _float(context: _Context, element: etree._Element, key: str) -> float:
    text = element.get(key, "").strip()
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise context.error(element, f"{key}={shown(text)} is not a number")
    return value


def _score(context: _Context, element: etree._Element, key: str) -> float:
    """A McMahon score, within the million points either way that every score keeps to."""
    value = _float(context, element, key)
    if not -MAX_SCORE <= value <= MAX_SCORE:
        text = element.get(key, "").strip()
        raise context.error(
            element,
            f"{key}={shown(text)} is not a McMahon score from {number_said(-MAX_SCORE)} "
            f"to {number_said(MAX_SCORE)}",
        )
    return value


def _fee(context: _Context, element: etree._Element) -> float | None:
    if not element.get("AGAFee", "").strip():
        return None
    fee = _float(context, element, "AGAFee")
    problem = fee_problem(fee)
    if problem:
        raise context.error(element, f"AGAFee: {problem}")
    return fee


def _birth_date(context: _Context, element: etree._Element) -> date | None:
    text = element.get("BirthDate", "").strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise context.error(element, f"BirthDate={text!r} is not a date (YYYY-MM-DD)") from None


@dataclass
class _RoundState:
    """Who has been seen in the round being read, and where."""

    number: int
    seats: dict[PlayerId, int] = field(default_factory=dict)
    pairs: dict[frozenset[PlayerId], int] = field(default_factory=dict)
    games: list[Game] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)


def _round_number(context: _Context, element: etree._Element) -> int:
    text = element.get("RoundNumber", "").strip()
    if not text.isdecimal() or len(text) > 6 or not 1 <= int(text) <= MAX_ROUNDS:
        raise context.error(
            element, f"RoundNumber={shown(text)} is not a round number (1 to {MAX_ROUNDS})"
        )
    return int(text)


def _check_round_numbers(context: _Context, elements: list[etree._Element]) -> None:
    seen: dict[int, int] = {}
    for element in elements:
        number = _round_number(context, element)
        if number in seen:
            raise context.error(element, f"round {number} again (first at line {seen[number]})")
        seen[number] = element.sourceline


def _read_round(context: _Context, element: etree._Element) -> Round:
    state = _RoundState(_round_number(context, element))
    for game in element.iterfind("Game"):
        _read_game(context, state, game)
    return Round(state.number, tuple(state.games), tuple(state.byes))


def _read_game(context: _Context, state: _RoundState, element: etree._Element) -> None:
    black = _known(context, element, "BlackPlayerID")
    white = _known(context, element, "WhitePlayerID")
    text = element.get("GameResult", "")
    kind = _READ_BYES.get(_norm(text))
    if kind is None and _norm(text) not in _READ_RESULTS:
        raise context.error(element, f"GameResult={text!r} is not one of {_EXPECTED_RESULTS}")
    if kind is not None or white == black:
        _read_bye(context, state, element, (white, black), kind)
        return
    pair = frozenset((white, black))
    if pair in state.pairs:
        raise context.error(
            element,
            f"duplicates the game {white}-{black} at line {state.pairs[pair]} "
            f"in round {state.number}",
        )
    state.pairs[pair] = element.sourceline
    for player in (white, black):
        _seat(context, state, element, player)
    handicap = _handicap(context, element)
    komi = _float(context, element, "Komi")
    if komi_problem(komi):
        raise context.error(element, f"Komi={komi:g}: {komi_problem(komi)}")
    if context.half_point and komi.is_integer():
        komi = komi_from_report(handicap, int(komi), context.rules, half_point=True)
    result = eggplant.refine_result(_READ_RESULTS[_norm(text)], element.get("eggplantresult", ""))
    state.games.append(Game(white, black, handicap, komi, result))


def _read_bye(
    context: _Context,
    state: _RoundState,
    element: etree._Element,
    players: tuple[PlayerId, PlayerId],
    kind: ByeKind | None,
) -> None:
    if players[0] != players[1]:
        raise context.error(element, "is a bye but names two different players")
    if kind is None:
        raise context.error(element, "names the same player as White and Black but is no bye")
    if kind is ByeKind.VOLUNTARY and context.eggplant:
        kind = ByeKind.FORCED  # Eggplant writes its pairing bye as "Voluntary Bye"
    _seat(context, state, element, players[0])
    state.byes.append(Bye(players[0], kind))


def _known(context: _Context, element: etree._Element, key: str) -> PlayerId:
    aga_id = _player_id(context, element, key)
    if aga_id not in context.players:
        raise context.error(element, f"{key}={aga_id} is not in PlayerList")
    return aga_id


def _seat(context: _Context, state: _RoundState, element: etree._Element, player: int) -> None:
    if player in state.seats:
        raise context.error(
            element,
            f"player {player} plays twice in round {state.number} "
            f"(first at line {state.seats[player]})",
        )
    state.seats[player] = element.sourceline


def _handicap(context: _Context, element: etree._Element) -> int:
    text = element.get("Handicap", "").strip()
    if not text.isdecimal() or len(text) > 2 or int(text) > MAX_HANDICAP:
        raise context.error(
            element, f"Handicap={shown(text)} is not a number of stones (0 to {MAX_HANDICAP})"
        )
    return int(text)


def _add_absences(context: _Context, rounds: list[Round]) -> list[Round]:
    """Eggplant's ABSENT players sit out a paired round: a voluntary bye."""
    result = []
    for rnd in rounds:
        seated = rnd.paired_players() | {b.player for b in rnd.byes}
        extra = [
            Bye(player, ByeKind.VOLUNTARY)
            for player, absent in context.absent.items()
            if rnd.number in absent and player not in seated and rnd.games
        ]
        result.append(replace(rnd, byes=rnd.byes + tuple(extra)) if extra else rnd)
    return result


UNFLIPPED_NOTE = "colours swapped on import: Eggplant 1.0.45 and earlier saved them reversed"


def _unflip_old_eggplant(players: dict[PlayerId, Player], rounds: list[Round]) -> list[Round]:
    """Swap colours when every handicap game gives the stones to the stronger player.

    Eggplant's own loader says its unversioned saves (1.0.45 and earlier, no
    ``eggplant-version`` attribute) "have white and black players flipped". Not all of them
    do (2014-02.xml is right, 2013-12.xml is reversed), so the handicap games decide: only
    when every one of them has Black rated above White are all games of the file swapped.
    """
    verdicts = [
        black > white
        for rnd in rounds
        for g in rnd.games
        if g.handicap > 0
        and (black := players[g.black].rating) is not None
        and (white := players[g.white].rating) is not None
        and black != white
    ]
    if not verdicts or not all(verdicts):
        return rounds
    return [replace(r, games=tuple(_swapped(g) for g in r.games)) for r in rounds]


def _swapped(game: Game) -> Game:
    """The IDs were saved reversed; the result names a colour and is kept as it is."""
    notes = f"{game.notes} {UNFLIPPED_NOTE}".strip()
    return replace(game, white=game.black, black=game.white, notes=notes)
