"""AGA reports through the command line: export, validate, import, continue."""

from __future__ import annotations

from pathlib import Path

import pytest

from addin.core.handicap import aga_text_komi
from addin.formats.aga_text import read_aga_text
from addin.formats.aga_xml import validate_aga_xml
from tests.factories import make_tournament
from tests.helpers import DATA, digest, run, sheet_rows
from tests.workbook_fixtures import write_workbook


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A complete 5-round tournament with every kind of result and both kinds of bye."""
    t = make_tournament(seed=3)
    return write_workbook(tmp_path / "played.xlsx", t, rounds=5)


def export(book: Path, out: Path) -> tuple[Path, Path]:
    text, xml = out / f"{book.stem}.txt", out / f"{book.stem}.xml"
    result = run("export-aga", book, "--text", text, "--xml", xml, "--yes", "--force")
    assert result.returncode == 0, result.stderr
    return text, xml


def test_exports_validate_and_the_text_report_parses_back_to_the_same_games(
    played: Path, tmp_path: Path
) -> None:
    text, xml = export(played, tmp_path)
    assert validate_aga_xml(xml.read_bytes()) == []
    t = make_tournament(seed=3)
    back = read_aga_text(text.read_text(encoding="utf-8"), text.name)
    for mine, theirs in zip(t.rounds, back.rounds, strict=True):
        # The text format writes a one-stone game as its table's "no komi" row (0, 0).
        written = {
            (g.white, g.black, g.result, aga_text_komi(g.handicap, g.komi, t.settings.rules)[0])
            for g in mine.games
        }
        assert {(g.white, g.black, g.result, g.handicap) for g in theirs.games} == written


@pytest.mark.parametrize("kind", ["xml", "text"])
def test_export_import_export_gives_the_same_document(
    played: Path, tmp_path: Path, kind: str
) -> None:
    (tmp_path / "a").mkdir()
    first = export(played, tmp_path / "a")
    report = first[1] if kind == "xml" else first[0]
    fresh = tmp_path / "fresh.xlsx"
    assert run("new", fresh).returncode == 0
    imported = run(f"import-aga-{kind}", fresh, report)
    assert imported.returncode == 0, imported.stderr
    (tmp_path / "b").mkdir()
    second = export(fresh, tmp_path / "b")
    again = second[1] if kind == "xml" else second[0]
    assert again.read_bytes() == report.read_bytes()


@pytest.mark.parametrize("name", ["2013-12.xml", "2014-02.xml"])
def test_real_reports_import_and_standings_follow(tmp_path: Path, name: str) -> None:
    book = tmp_path / "t.xlsx"
    assert run("new", book).returncode == 0
    result = run("import-aga-xml", book, DATA / "aga-xml" / name)
    assert result.returncode == 0, result.stderr
    players = sheet_rows(book, "Players")
    assert len(players) >= 10
    assert run("check", book).returncode == 0
    assert run("standings", book).returncode == 0
    assert len(sheet_rows(book, "Standings")) == len(players)


def test_missing_tournament_data_blocks_the_export(played: Path, tmp_path: Path) -> None:
    book = tmp_path / "bare.xlsx"
    assert run("new", book).returncode == 0
    before = digest(book)
    result = run("export-aga", book, "--xml", tmp_path / "x.xml", "--yes")
    assert result.returncode == 1
    assert "Director name is blank" in result.stderr and "Start date is blank" in result.stderr
    assert not (tmp_path / "x.xml").exists() and digest(book) == before


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<TournamentReport><Header><TournamentName>&lol3;</TournamentName></Header></TournamentReport>
"""
XXE = b"""<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<TournamentReport><Header><TournamentName>&xxe;</TournamentName></Header></TournamentReport>
"""
GAME_WITH_STRANGER = b"""<?xml version="1.0" encoding="UTF-8"?>
<TournamentReport><Header><TournamentName>T</TournamentName></Header>
<PlayerList><Player ID="1" GivenName="A" FamilyName="Ay" Rating="3K"/>
<Player ID="2" GivenName="B" FamilyName="Be" Rating="4K"/></PlayerList>
<RoundList><Round RoundNumber="1">
<Game BlackPlayerID="2" WhitePlayerID="77" Komi="7" Handicap="0" GameResult="White Win"/>
</Round></RoundList></TournamentReport>
"""


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (BILLION_LAUGHS, "entit"),
        (XXE, "entit"),
        (GAME_WITH_STRANGER, "line 6"),
        (
            GAME_WITH_STRANGER.replace(b'WhitePlayerID="77"', b'WhitePlayerID="1"').replace(
                b"White Win", b"Maybe"
            ),
            "Maybe",
        ),
        (
            GAME_WITH_STRANGER.replace(b'WhitePlayerID="77"', b'WhitePlayerID="1"').replace(
                b"</Round>",
                b'<Game BlackPlayerID="2" WhitePlayerID="1" Komi="7" Handicap="0" '
                b'GameResult="White Win"/></Round>',
            ),
            "line 7",
        ),
    ],
    ids=["billion-laughs", "xxe", "unknown-player", "unknown-result", "duplicate-game"],
)
def test_bad_or_malicious_xml_is_refused_and_the_workbook_is_unchanged(
    played: Path, tmp_path: Path, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_bytes(content)
    before = digest(played)
    result = run("import-aga-xml", played, bad, "--yes")
    assert result.returncode == 1
    assert message in result.stderr, result.stderr
    assert "bad.xml" in result.stderr
    assert digest(played) == before
