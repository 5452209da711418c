"""Importing an AGA XML report keeps the TD's settings and lets the director carry on.

Through the real command line on real workbooks: the TD's Number of rounds is never
lowered, boards are numbered so that ``result --board`` works at once, Eggplant's settings
and absences come back, a dropped player stays dropped through export and import, and what
Eggplant cannot hold is an active warning naming the games.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest
from lxml import etree

from addin.core.model import Bye, ByeKind, Result, Round, Status, Tournament
from addin.workbook import book
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.factories import make_tournament
from tests.helpers import DATA, digest, log_messages, run, sheet_rows
from tests.workbook_fixtures import write_workbook

AGA_XML = sorted(
    path
    for path in DATA.rglob("*.xml")
    if etree.parse(str(path)).getroot().tag == "TournamentReport"
)


def set_setting(path: Path, label: str, value: object) -> None:
    """As a TD types a value into the Tournament sheet."""
    wb = openpyxl.load_workbook(path)
    for row in wb["Tournament"].iter_rows(min_row=2):
        if row[0].value == label:
            row[1].value = value
            wb.save(path)
            return
    raise KeyError(label)


def setting(path: Path, label: str) -> object:
    wb = openpyxl.load_workbook(path)
    for row in wb["Tournament"].iter_rows(min_row=2, values_only=True):
        if row[0] == label:
            return row[1]
    raise KeyError(label)


def tournament(path: Path) -> Tournament:
    return book.read_book(OpenpyxlGateway.open(path)).tournament


def imported(tmp_path: Path, report: Path, name: str = "t.xlsx") -> Path:
    path = tmp_path / name
    assert run("new", path).returncode == 0
    result = run("import-aga-xml", path, report, "--yes")
    assert result.returncode == 0, result.stderr
    return path


def test_both_real_files_are_in_the_round_trip() -> None:
    assert {p.name for p in AGA_XML} >= {"2013-12.xml", "2014-02.xml"}


@pytest.mark.parametrize("report", AGA_XML, ids=lambda p: p.name)
def test_import_export_import_gives_the_same_tournament(tmp_path: Path, report: Path) -> None:
    """Players, games, colours, handicaps, komi, results, byes, drops and requests."""
    first = imported(tmp_path, report, "first.xlsx")
    xml = tmp_path / "again.xml"
    exported = run("export-aga", first, "--xml", xml, "--yes", "--force")
    assert exported.returncode == 0, exported.stderr
    second = imported(tmp_path, xml, "second.xlsx")
    one, two = tournament(first), tournament(second)
    keep = ("family_name", "given_name", "rating", "status", "bye_requests", "initial_score")
    assert {p: [getattr(one.players[p], k) for k in keep] for p in one.players} == {
        p: [getattr(two.players[p], k) for k in keep] for p in two.players
    }
    assert [_games(r) for r in one.rounds] == [_games(r) for r in two.rounds]
    assert [set(r.byes) for r in one.rounds] == [set(r.byes) for r in two.rounds]
    assert one.settings.komi == two.settings.komi
    assert sum(len(r.games) for r in one.rounds) > 0


def _games(rnd: Round) -> list[tuple[object, ...]]:
    return [(g.board, g.white, g.black, g.handicap, g.komi, g.result) for g in rnd.games]


@pytest.mark.parametrize("report", AGA_XML, ids=lambda p: p.name)
def test_import_keeps_the_tds_rounds_and_numbers_the_boards(tmp_path: Path, report: Path) -> None:
    path = tmp_path / "t.xlsx"
    assert run("new", path).returncode == 0
    set_setting(path, "Number of rounds", 10)
    result = run("import-aga-xml", path, report, "--yes")
    assert result.returncode == 0, result.stderr
    assert setting(path, "Number of rounds") == 10
    t = tournament(path)
    root = etree.parse(str(report)).getroot()
    for rnd in t.rounds:
        assert [g.board for g in rnd.games] == list(range(1, len(rnd.games) + 1))
        element = root.find(f"RoundList/Round[@RoundNumber='{rnd.number}']")
        in_file = [
            {int(g.get("WhitePlayerID")), int(g.get("BlackPlayerID"))}
            for g in element
            if g.get("WhitePlayerID") != g.get("BlackPlayerID")
        ]
        assert [set(g.players) for g in rnd.games] == in_file
    # Eggplant writes every round; the empty ones to come are not Round sheets.
    assert all(r.games or r.byes for r in t.rounds)
    last = t.rounds[-1]
    board1 = last.games[0]
    done = run("result", path, "--board", 1, "--result", "Black wins")
    assert done.returncode == 0, done.stderr
    after = tournament(path).round(last.number).games[0]
    assert (after.white, after.black, after.result) == (
        board1.white,
        board1.black,
        Result.BLACK_WINS,
    )


def test_eggplant_settings_and_absences_come_back_with_a_note(tmp_path: Path) -> None:
    """2014-02.xml: defaultkomi 6 (6.5), handicap games at full handicap, four players
    ABSENT in round 2 (voluntary byes, and their requests)."""
    path = tmp_path / "t.xlsx"
    assert run("new", path).returncode == 0
    result = run("import-aga-xml", path, DATA / "aga-xml" / "2014-02.xml", "--yes")
    assert result.returncode == 0, result.stderr
    assert "Taken over from the file's Eggplant settings" in result.stdout
    assert "Komi (even games) 6.5" in result.stdout
    assert setting(path, "Komi (even games)") == 6.5
    assert setting(path, "Handicap") == "Full"
    notes = [m for level, _, m in log_messages(path) if level == "Note"]
    assert any("Komi (even games) 6.5" in n for n in notes)
    absent = {2429, 7918, 21030, 6096}
    rows = {r["AGA #"]: r for r in sheet_rows(path, "Players")}
    assert {n for n, r in rows.items() if r.get("R2") == "Bye"} == absent
    assert set(tournament(path).round(2).byes) == {Bye(p, ByeKind.VOLUNTARY) for p in absent}


def test_a_dropped_player_is_not_paired_again_after_export_and_import(tmp_path: Path) -> None:
    t = make_tournament(seed=3, rounds=4)
    played = write_workbook(tmp_path / "played.xlsx", t, rounds=6)
    dropped, requester = sorted(t.players)[:2]
    assert run("drop", played, "--player", dropped, "--yes").returncode == 0
    assert run("bye", played, "--player", requester, "--round", 6, "--yes").returncode == 0
    xml = tmp_path / "report.xml"
    assert run("export-aga", played, "--xml", xml, "--yes", "--force").returncode == 0
    fresh = imported(tmp_path, xml, "fresh.xlsx")
    back = tournament(fresh)
    assert back.players[dropped].status is Status.DROPPED
    assert 6 in back.players[requester].bye_requests
    assert back.players[requester].bye_requests == t.players[requester].bye_requests | {6}
    assert setting(fresh, "Number of rounds") == 6
    for command in ("bands", "pair"):
        result = run(command, fresh, "--yes")
        assert result.returncode == 0, result.stderr
    round5 = tournament(fresh).round(5)
    assert dropped not in round5.paired_players()
    assert run("pair", fresh, "--yes").returncode == 0
    round6 = tournament(fresh).round(6)
    assert dropped not in round6.paired_players()
    assert requester not in round6.paired_players()
    assert requester in {b.player for b in round6.byes}


def test_what_eggplant_cannot_hold_is_an_active_warning_naming_the_games(
    tmp_path: Path,
) -> None:
    t = make_tournament(seed=3)
    first = t.rounds[0]
    void = replace(first.games[0], result=Result.NO_RESULT)
    whole = replace(first.games[1], komi=7.0)
    t.rounds[0] = replace(first, games=(void, whole, *first.games[2:]))
    path = write_workbook(tmp_path / "t.xlsx", t, rounds=5)
    xml = tmp_path / "x.xml"
    before = digest(path)
    result = run("export-aga", path, "--xml", xml, "--force")
    assert result.returncode == 3
    assert f"round 1 board {void.board} ({void.white} W v {void.black} B)" in result.stderr
    assert "'void'" in result.stderr
    assert f"round 1 board {whole.board} ({whole.white} W v {whole.black} B)" in result.stderr
    assert "no half point" in result.stderr
    assert not xml.exists()
    assert digest(path) == before
    assert run("export-aga", path, "--xml", xml, "--yes", "--force").returncode == 0
    assert xml.exists()


@pytest.mark.parametrize("name", ["2013-12.xml", "2014-02.xml"])
def test_import_aga_xml_reads_eggplants_komi_with_its_half_point(tmp_path: Path, name: str) -> None:
    """Komi="0" in handicap games and "6" in even games, <defaultkomi>6</defaultkomi>."""
    t = tournament(imported(tmp_path, DATA / "aga-xml" / name))
    games = [g for r in t.rounds for g in r.games]
    assert {g.komi for g in games if g.handicap} == {0.5}
    assert {g.komi for g in games if not g.handicap} == {6.5}
    assert t.settings.komi == 6.5


def test_import_aga_text_keeps_the_tds_rounds_and_numbers_the_boards(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    assert run("new", path).returncode == 0
    set_setting(path, "Number of rounds", 10)
    report = DATA / "aga-text" / "eggplant-sample-report.txt"
    result = run("import-aga-text", path, report, "--yes")
    assert result.returncode == 0, result.stderr
    assert setting(path, "Number of rounds") == 10
    t = tournament(path)
    assert t.rounds
    for rnd in t.rounds:
        assert [g.board for g in rnd.games] == list(range(1, len(rnd.games) + 1))
    last = t.rounds[-1].number
    done = run("result", path, "--round", last, "--board", 1, "--result", "White wins", "--yes")
    assert done.returncode == 0, done.stderr
    assert tournament(path).round(last).games[0].result is Result.WHITE_WINS


def test_import_keeps_the_settings_the_report_does_not_give(tmp_path: Path) -> None:
    """An AGA report has no Avoid same club and no band parameter: the TD's stay. A report
    without komi (the interface document's sample) leaves the TD's komi alone."""
    path = tmp_path / "t.xlsx"
    assert run("new", path).returncode == 0
    set_setting(path, "Avoid same club", "Yes")
    set_setting(path, "Band parameter D", 1.5)
    set_setting(path, "Komi (even games)", 5.5)
    set_setting(path, "Number of rounds", 4)
    sample = tmp_path / "sample.xml"
    sample.write_bytes(INTERFACE_SAMPLE)
    result = run("import-aga-xml", path, sample, "--yes")
    assert result.returncode == 0, result.stderr
    kept = tournament(path).settings
    assert (kept.avoid_same_club, kept.band_d, kept.komi, kept.rounds) == (True, 1.5, 5.5, 4)
    assert setting(path, "Tournament name") == "2006 Toyota-Denso -- East Coast Qualifier"
    assert setting(path, "Director name") == "Chuck Robbins"
    games = [g for r in tournament(path).rounds for g in r.games]
    assert {g.komi for g in games} == {6.5}  # Komi="6" in the sample: 6.5
    assert [g.board for g in games] == [1, 2, 1, 2]


INTERFACE_SAMPLE = b"""<?xml version="1.0" encoding="UTF-8"?>
<TournamentReport xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
xsi:noNamespaceSchemaLocation="http://www.usgo.org/tournaments/AGATournamentSchema.xsd">
<Header>
<Software>WinTD</Software>
<TournamentName>2006 Toyota-Denso -- East Coast Qualifier</TournamentName>
<TournamentVenue><Name>Pennsylvania Hotel</Name></TournamentVenue>
<TournamentDirector><Name>Chuck Robbins</Name></TournamentDirector>
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
  <Player ID="1910" GivenName="X" FamilyName="A" Rating="6D" InitialTournamentScore="0"/>
  <Player ID="3616" GivenName="X" FamilyName="B" Rating="6D" InitialTournamentScore="0"/>
  <Player ID="11018" GivenName="X" FamilyName="C" Rating="6D" InitialTournamentScore="0"/>
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
