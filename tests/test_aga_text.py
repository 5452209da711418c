"""The original AGA text report: writing, reading back, real Eggplant output, bad input."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from addin.core.handicap import aga_text_komi
from addin.core.model import (
    Game,
    Player,
    Result,
    Round,
    Rules,
    Settings,
    Tournament,
)
from addin.formats.aga_text import (
    AGAReportError,
    date_span,
    read_aga_text,
    write_aga_text,
)
from tests.factories import make_tournament
from tests.helpers import DATA

EGGPLANT_TEXT = DATA / "aga-text" / "eggplant-sample-report.txt"
SEEDS = range(6)
ALL_RULES = list(Rules)


def _game_lines(text: str) -> list[str]:
    """Game lines, commented or not, in file order (byes left out)."""
    lines = [line.removeprefix("# ") for line in text.splitlines()]
    return [line for line in lines if line.count("\t") == 4]


def _one_game(handicap: int, komi: float, rules: Rules) -> Tournament:
    players = {
        1: Player(1, "White", "W", rating=5.5),
        2: Player(2, "Black", "B", rating=-3.5),
    }
    game = Game(1, 2, handicap, komi, Result.WHITE_WINS)
    return Tournament(
        settings=Settings(name="Komi table", rules=rules),
        players=players,
        rounds=[Round(1, (game,))],
    )


# The interface document's table "Handicaps and komi differ slightly between the Ing rules
# and the AGA, Chinese or Japanese rule sets", one row per case, in the workbook's terms
# (komi is what White receives; handicap games have komi 0.5, see addin.core.handicap).
AGA_FAMILY_TABLE = [
    ("even game", 0, 7.5, (0, 7)),
    ("no komi", 0, 0.0, (0, 0)),
    ("7 point reverse komi", 0, -7.5, (0, -7)),
    ("one stone (a no-komi game)", 1, 0.5, (0, 0)),
    ("2 stone handicap", 2, 0.5, (2, 0)),
    *[(f"{n}-stone handicap", n, 0.5, (n, 0)) for n in range(3, 10)],
]
ING_TABLE = [
    ("even game", 0, 7.5, (0, 7)),
    ("no komi", 0, 0.0, (0, -1)),
    ("one stone (a no-komi game)", 1, 0.5, (0, -1)),
    ("2 stone handicap", 2, 0.5, (2, -2)),
    *[(f"{n}-stone handicap", n, 0.5, (n, -n)) for n in range(3, 10)],
]
KOMI_TABLE = [
    pytest.param(rules, h, k, expected, id=f"{rules.value}: {row}")
    for rules in (Rules.AGA, Rules.JAPANESE, Rules.CHINESE)
    for row, h, k, expected in AGA_FAMILY_TABLE
] + [pytest.param(Rules.ING, h, k, expected, id=f"Ing: {row}") for row, h, k, expected in ING_TABLE]


@pytest.mark.parametrize(("rules", "handicap", "komi", "expected"), KOMI_TABLE)
def test_interface_document_komi_table(
    rules: Rules, handicap: int, komi: float, expected: tuple[int, int]
) -> None:
    """Every row of the table, both rule families, as written in a game line and read back."""
    text = write_aga_text(_one_game(handicap, komi, rules))
    (line,) = _game_lines(text)
    assert line == f"1\t2\tW\t{expected[0]}\t{expected[1]}"
    game = read_aga_text(text, "table").rounds[0].games[0]
    assert aga_text_komi(game.handicap, game.komi, rules) == expected


@pytest.mark.parametrize("rules", ALL_RULES)
@pytest.mark.parametrize("seed", SEEDS)
def test_export_import_export_is_identical(seed: int, rules: Rules) -> None:
    """No timestamp is written, so the second export must equal the first byte for byte."""
    first = write_aga_text(make_tournament(seed, rules))
    assert write_aga_text(read_aga_text(first, "first export")) == first


@pytest.mark.parametrize("rules", [Rules.AGA, Rules.ING])
@pytest.mark.parametrize("seed", SEEDS)
def test_text_report_parses_back_to_the_same_games(seed: int, rules: Rules) -> None:
    t = make_tournament(seed, rules)
    back = read_aga_text(write_aga_text(t), "report.txt")
    assert [r.number for r in back.rounds] == [r.number for r in t.rounds]
    for mine, theirs in zip(t.rounds, back.rounds, strict=True):
        assert [_as_reported(g, rules) for g in theirs.games] == [
            _as_reported(g, rules) for g in mine.games
        ]
        assert theirs.byes == mine.byes


def _as_reported(game: Game, rules: Rules) -> tuple[object, ...]:
    return (game.white, game.black, game.result, aga_text_komi(game.handicap, game.komi, rules))


def test_every_kind_of_result_is_in_the_generated_tournament() -> None:
    """Guards the factory: the round-trip tests above cover every result and both byes."""
    t = make_tournament(0)
    results = {g.result for r in t.rounds for g in r.games}
    assert results == {*Result, None}
    kinds = {b.kind for b in t.round(4).byes}
    assert len(kinds) == 2
    assert any(g.handicap == 1 for r in t.rounds for g in r.games)


def test_unratable_games_and_byes_are_comments() -> None:
    text = write_aga_text(make_tournament(1))
    for line in text.splitlines():
        fields = line.removeprefix("# ").split("\t")
        if len(fields) == 5:
            commented = line.startswith("# ")
            assert commented == (fields[2] in {"JIGO", "NR", "DF", "?"}), line
            assert fields[2] in {"W", "B", "WF", "BF", "JIGO", "NR", "DF", "?"}
        if "BYE" in line:
            assert line.startswith("# BYE\t")


def test_header_label_dates_and_rules() -> None:
    t = make_tournament(0, Rules.ING)
    lines = write_aga_text(t).splitlines()
    assert lines[:5] == [
        "TOURNEY",
        '\tlabel="Seattle Fall Open, Seattle Go Center, October 4-5, 2025"',
        '\tstart="2025-10-04"',
        '\tfinish="2025-10-05"',
        '\trules="Ing"',
    ]
    back = read_aga_text("\n".join(lines), "x").settings
    assert (back.name, back.start_date, back.end_date, back.rules) == (
        "Seattle Fall Open, Seattle Go Center",
        date(2025, 10, 4),
        date(2025, 10, 5),
        Rules.ING,
    )


@pytest.mark.parametrize(
    ("start", "end", "text"),
    [
        (date(2004, 2, 28), date(2004, 2, 29), "February 28-29, 2004"),
        (date(2004, 2, 28), None, "February 28, 2004"),
        (date(2025, 5, 31), date(2025, 6, 1), "May 31 - June 1, 2025"),
        (date(2025, 12, 31), date(2026, 1, 1), "December 31, 2025 - January 1, 2026"),
        (None, None, ""),
    ],
)
def test_label_dates_and_their_removal_on_reading(
    start: date | None, end: date | None, text: str
) -> None:
    assert date_span(start, end) == text
    t = _one_game(0, 7.5, Rules.AGA)
    t.settings = replace(t.settings, name="Open", venue="Club", start_date=start, end_date=end)
    back = read_aga_text(write_aga_text(t), "x").settings
    assert (back.name, back.start_date, back.end_date) == ("Open, Club", start, end or start)


def test_one_line_tourney_and_unquoted_values() -> None:
    text = INTERFACE_SAMPLE.replace(
        'TOURNEY\n  label="New Jersey Open, Princeton, NJ, February 28-29, 2004"',
        'TOURNEY label="New Jersey Open, February 28-29, 2004"',
    ).replace('rules="AGA"', "rules = chinese")
    settings = read_aga_text(text, "x").settings
    assert (settings.name, settings.rules) == ("New Jersey Open", Rules.CHINESE)


def test_players_are_tab_separated_with_family_comma_given_and_rating() -> None:
    t = make_tournament(2)
    text = write_aga_text(t)
    players = text.split("PLAYERS\n")[1].split("\n\n")[0].splitlines()
    assert len(players) == len(t.players)
    for line, p in zip(players, t.players.values(), strict=True):
        assert line == f"{p.aga_id}\t{p.family_name}, {p.given_name}\t{p.rating:.2f}"


def test_membership_details_of_new_and_changed_members() -> None:
    t = make_tournament(0)
    text = write_aga_text(t)
    after_end = text.split("\nEND\n")[1]
    assert after_end.index("NEW REGISTRATIONS") < after_end.index("AGA Number: 90000")
    assert after_end.index("MEMBERSHIP UPDATES") < after_end.index("AGA Number: 2786")
    assert "AGA Number: 15850" not in after_end
    assert "Address 1: 598 92nd Ave\nAddress 2: Apt 3\nCity, State Zip: Seattle, WA 98115" in (
        after_end
    )
    back = read_aga_text(text, "x").players
    for aga_id in (90000, 90001, 2786):
        mine, theirs = t.players[aga_id], back[aga_id]
        fields = ("email", "phone", "address", "citizenship", "birth_date", "membership_type")
        fields += ("aga_fee",)
        assert [getattr(theirs, f) for f in fields] == [getattr(mine, f) for f in fields]
    assert "AGA Fee: $30\nAGA Number: 2786" in after_end
    assert back[2786].aga_fee == 30.0 and back[2786].notes == ""
    assert back[15850].email == ""
    assert read_aga_text(text, "x").settings.director.email == "td@example.org"


def test_names_and_labels_cannot_break_the_format() -> None:
    t = make_tournament(0)
    t.settings = replace(t.settings, name='The "Big"\tOpen')
    t.players[15850] = replace(t.players[15850], given_name="Ren\tyu\n")
    text = write_aga_text(t)
    assert "label=\"The 'Big' Open, " in text
    assert "15850\tChen, Ren yu\t" in text
    assert read_aga_text(text, "x").players[15850].given_name == "Ren yu"


def test_eggplant_sample_report() -> None:
    """Eggplant's variations: ``TOURNEY label`` on one line, ``start=10/29/2013``, ``?``
    results, CRLF, ``NEW REGISTRATIONS`` with ``***`` placeholders after END."""
    t = read_aga_text(EGGPLANT_TEXT.read_text(encoding="utf-8"), str(EGGPLANT_TEXT))
    assert t.settings.name == "Test Tournament, quart"
    assert (t.settings.start_date, t.settings.end_date) == (date(2013, 10, 29),) * 2
    assert t.settings.rules is Rules.JAPANESE
    assert len(t.players) == 7
    assert t.players[99993].name == "asdf, fdsa"
    assert (t.players[99993].rank, t.players[99993].rating) == ("8K", -8.5)
    assert [r.number for r in t.rounds] == [1, 2, 3]
    assert [(g.white, g.black, g.result) for g in t.rounds[0].games] == [
        (99995, 99994, None),
        (99999, 99997, None),
        (99998, 99996, None),
    ]
    assert t.rounds[1].games == t.rounds[2].games == ()
    assert t.players[99997].email == "" and t.players[99997].address == ""


INTERFACE_SAMPLE = """TOURNEY
  label="New Jersey Open, Princeton, NJ, February 28-29, 2004"
  start="2004-2-28"
  finish="2004-2-29"
  rules="AGA"

PLAYERS
15850 Chen, Renyu 6d
14481 Wilkins, Don 1.53
90001 Chang, Shih-wen -4.96
15583 Borges-Garven, Robert 8k

GAMES 1

15850 14481 W 7 0
90001 15583 B 4 0

GAMES 2
15850 90001 B 6 0
"""


def test_interface_document_sample_with_spaces() -> None:
    """The document's sample lost its tabs; spaces between fields are tolerated."""
    t = read_aga_text(INTERFACE_SAMPLE, "sample")
    assert t.settings.start_date == date(2004, 2, 28)
    assert t.players[15583].name == "Borges-Garven, Robert"
    assert t.players[14481].rating == 1.53
    assert [(g.white, g.black, g.handicap, g.result) for g in t.rounds[0].games] == [
        (15850, 14481, 7, Result.WHITE_WINS),
        (90001, 15583, 4, Result.BLACK_WINS),
    ]


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (("90001 15583 B 4 0", "90001 12345 B 4 0"), 16, "player 12345 is not in PLAYERS"),
        (("90001 15583 B 4 0", "90001 15583 X 4 0"), 16, "result 'X' is not one of"),
        (("90001 15583 B 4 0", "90001 15583 B four 0"), 16, "'four' is not a whole number"),
        (("15850 90001 B 6 0", "15850 90001 B 6 0\n90001 15850 W 0 7"), 20, "duplicate game"),
        (("15850 90001 B 6 0", "15850 90001 B 6 0\n15850 15583 W 0 7"), 20, "appears twice"),
        (("8k", "8q"), 11, "player 15583: '8q' is not a rank or rating"),
        (("14481 Wilkins", "90001 Wilkins"), 10, "player 90001 is listed twice"),
        (('start="2004-2-28"', 'start="2004-2-30"'), 3, "'2004-2-30' is not a date"),
        (('rules="AGA"', 'rules="Korean"'), 5, "rules 'Korean' is not one of"),
        (("GAMES 2", "GAMES 1"), 18, "GAMES 1 appears twice"),
    ],
)
def test_errors_name_source_and_line(change: tuple[str, str], line: int, message: str) -> None:
    text = INTERFACE_SAMPLE.replace(*change)
    with pytest.raises(AGAReportError) as error:
        read_aga_text(text, "report.txt")
    assert str(error.value).startswith(f"report.txt, line {line}: ")
    assert message in str(error.value)


def test_not_a_report() -> None:
    with pytest.raises(AGAReportError, match=r"notes\.txt, line 1: expected TOURNEY"):
        read_aga_text("Dear TD,\n", "notes.txt")
    with pytest.raises(AGAReportError, match="no PLAYERS section"):
        read_aga_text("TOURNEY x\n", "empty.txt")


def test_membership_details_for_an_unknown_player_are_an_error() -> None:
    text = INTERFACE_SAMPLE + "END\n\nAGA Number: 77777\nName: Nobody\n"
    with pytest.raises(AGAReportError, match=r"line 22: player 77777 is not in PLAYERS"):
        read_aga_text(text, "x")


def test_player_without_rank_or_rating_cannot_be_reported() -> None:
    t = _one_game(0, 7.5, Rules.AGA)
    t.players[1] = Player(1, "White")
    with pytest.raises(AGAReportError, match=r"player 1 .* neither rank nor rating"):
        write_aga_text(t)


def test_handicap_beyond_nine_names_the_game() -> None:
    with pytest.raises(AGAReportError, match="round 1, game 1-2: handicap 12"):
        write_aga_text(_one_game(12, 0.5, Rules.AGA))
