"""The EGF tournament table (".h9"), as the EGF rating pages' "Tournament table format" says.

Tables are read back with the independent reader of ``tests/egd.py``: a line a player, each
round ``<opponent's line><+|-|=>/<colour><handicap>`` or a free round ``0+``, ``0-``, ``0=``.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from addin.core.model import (
    Bye,
    ByeKind,
    Game,
    HandicapPolicy,
    Player,
    Result,
    Round,
    Settings,
    Status,
    Tournament,
)
from addin.core.scoring import mcmahon_scores
from addin.core.tiebreaks import standings
from addin.formats.egd_h9 import (
    ENCODING,
    EgfClass,
    EventDetails,
    class_allowed,
    egd_table,
    latin9,
    time_class,
    write_h9,
)
from tests.egd import H9, Entry, read_h9
from tests.factories import make_tournament
from tests.small_tournaments import random_tournaments, tournament


def table(t: Tournament, details: EventDetails | None = None) -> H9:
    return read_h9(write_h9(t, details or EventDetails()))


def ranked(t: Tournament) -> Tournament:
    """Every player with a rank (a table line needs a grade)."""
    t.players = {p: replace(x, rank=x.rank or "5k") for p, x in t.players.items()}
    return t


# --------------------------------------------------------------------------- rounds


@settings(max_examples=60, deadline=None)
@given(
    random_tournaments(
        results=[*Result, None],
        initial_scores=[0.0, 1.0, 2.0, None],
    )
)
def test_each_game_is_written_from_both_sides_with_opposite_results_and_colours(
    t: Tournament,
) -> None:
    h9 = table(ranked(t))
    rounds = max(r.number for r in t.rounds)
    line_of = {line.number: line for line in h9.lines}
    for line in h9.lines:
        assert len(line.entries) == rounds, "every player, every round"
        for r, e in enumerate(line.entries, start=1):
            if e.free:
                continue
            back = line_of[e.opponent].entries[r - 1]
            assert back.opponent == line.number
            assert {e.colour, back.colour} == {"w", "b"}
            assert e.handicap == back.handicap
            assert (e.result, back.result) in {("+", "-"), ("-", "+"), ("=", "="), ("?", "?")}


def test_every_kind_of_round_is_the_entry_the_egd_format_gives_it() -> None:
    """A game: opponent, result, colour, handicap. No game: a free round with the points the
    standings give (forced bye 1, forfeit win 1, loss by forfeit or double forfeit or
    voluntary bye 0, no result ½)."""
    t = tournament(
        {p: 0.0 for p in range(1, 12)},
        Round(
            1,
            (
                Game(1, 2, 0, 7.5, Result.WHITE_WINS),
                Game(3, 4, 2, 0.5, Result.BLACK_WINS),
                Game(5, 6, 0, 7.5, Result.JIGO),
                Game(7, 8, 0, 7.5, Result.WHITE_WINS_BY_FORFEIT),
                Game(9, 10, 0, 7.5, Result.DOUBLE_FORFEIT),
            ),
            (Bye(11, ByeKind.FORCED),),
        ),
        Round(
            2,
            (Game(2, 1, 0, 7.5, Result.NO_RESULT), Game(3, 5, 0, 7.5, None)),
            (Bye(4, ByeKind.VOLUNTARY),),
        ),
    )
    h9 = table(ranked(t))
    key = {line.family: line for line in h9.lines}
    number = {f"P{p}": key[f"P{p}"].number for p in range(1, 12)}

    def first(p: int) -> Entry:
        return key[f"P{p}"].entries[0]

    assert first(1) == Entry(number["P2"], "+", "w", 0)
    assert first(2) == Entry(number["P1"], "-", "b", 0)
    assert first(3) == Entry(number["P4"], "-", "w", 2)
    assert first(4) == Entry(number["P3"], "+", "b", 2)
    assert first(5) == Entry(number["P6"], "=", "w", 0)
    assert (first(7), first(8)) == (Entry(0, "+"), Entry(0, "-")), "a forfeit is not rated"
    assert (first(9), first(10)) == (Entry(0, "-"), Entry(0, "-"))
    assert first(11) == Entry(0, "+"), "the forced bye's point"
    second = {p: key[f"P{p}"].entries[1] for p in (1, 2, 3, 4, 6)}
    assert second[1] == second[2] == Entry(0, "=")
    assert second[3] == Entry(number["P5"], "?", "w", 0), "no result yet: the EGD refuses it"
    assert second[4] == Entry(0, "-"), "a voluntary bye"
    assert second[6] == Entry(0, "-"), "absent, no bye recorded"


def test_the_ghost_players_games_are_games() -> None:
    """BGA 7.1: the ghost plays instead of a bye, a real game the EGD rates as any."""
    t = ranked(make_tournament(3))
    ghost, opponent = t.rounds[0].games[0].white, t.rounds[0].games[0].black
    t.settings = replace(t.settings, ghost_player=ghost)
    h9 = table(t)
    line = next(x for x in h9.lines if x.family == t.players[ghost].family_name)
    assert h9.lines[line.entries[0].opponent - 1].family == t.players[opponent].family_name


# --------------------------------------------------------------------------- lines


def test_lines_follow_the_standings_and_a_tie_prints_its_place_once() -> None:
    t = tournament(
        {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0},
        Round(1, (Game(1, 2, result=Result.WHITE_WINS), Game(3, 4, result=Result.WHITE_WINS))),
    )
    t.settings = replace(t.settings, tiebreaks=("SOS",))
    h9 = table(ranked(t))
    order = [s.player for s in standings(t)]
    assert [x.family for x in h9.lines] == [f"P{p}" for p in order]
    assert [x.place for x in h9.lines] == [1, 1, 3, 3]
    text = write_h9(t).decode(ENCODING).splitlines()
    players = [x for x in text if not x.startswith(";")]
    assert [x[:4].strip() for x in players] == ["1", "", "3", ""]


def test_a_player_who_never_played_is_left_out_one_who_dropped_later_is_not() -> None:
    t = make_tournament(1)
    first = t.rounds[0].games[0].white
    t.players[first] = replace(t.players[first], status=Status.DROPPED)
    t.players[1] = Player(1, "Late", "Never", rank="3k")
    t.rounds = [
        replace(r, games=tuple(g for g in r.games if first not in g.players)) if r.number > 1 else r
        for r in t.rounds
    ]
    names = {x.family for x in table(t).lines}
    assert "Late" not in names
    assert t.players[first].family_name in names


def test_each_line_carries_the_grade_country_club_and_pin() -> None:
    t = make_tournament(2)
    ids = list(t.players)
    t.players[ids[0]] = replace(
        t.players[ids[0]],
        rating=-35.5,
        country="de",
        chapter="Seattle Go Center",
        egd_pin=12_345_678,
    )
    t.players[ids[1]] = replace(
        t.players[ids[1]], rating=10.1, country="USA", chapter="", egd_pin=123
    )
    t.players[ids[2]] = replace(t.players[ids[2]], rating=-3.5, country=" FR ", chapter="N Y")
    lines = {x.family: x for x in table(t).lines}
    a, b, c = (lines[t.players[i].family_name] for i in ids[:3])
    assert (a.grade, a.country, a.club, a.pin) == ("30k", "DE", "Seat", "12345678")
    assert (b.grade, b.country, b.club, b.pin) == ("1p", "XX", "xxxx", ""), "AGA 10.1 is 1p"
    assert (c.grade, c.country, c.club) == ("3k", "FR", "NY")


def test_names_are_family_then_given_with_blanks_as_underscores_in_latin9() -> None:
    t = make_tournament(0)
    ids = list(t.players)
    t.players[ids[0]] = replace(t.players[ids[0]], family_name="van  Zeist", given_name="Rob Jan")
    t.players[ids[1]] = replace(t.players[ids[1]], family_name="Dvořák", given_name="Łukasz")
    t.players[ids[2]] = replace(t.players[ids[2]], family_name="李", given_name="O;Neil|x\ty")
    written = write_h9(t)
    lines = {x.number: x for x in read_h9(written).lines}
    names = {(x.family, x.given) for x in lines.values()}
    assert ("van_Zeist", "Rob_Jan") in names
    assert ("Dvorák", "Lukasz") in names, "a letter Latin-9 lacks (ř, Ł): its base letter"
    assert ("?", "O,Neil/x_y") in names, "no comment, no PIN marker, no tab inside a name"
    assert ("Müller", "Jürgen") in names
    assert "Müller Jürgen".encode(ENCODING) in written, "ISO-8859-15, as OpenGotha writes"
    assert ("Ota", "Yuko") in names


def test_latin9_keeps_what_it_can_hold_and_spells_out_the_rest() -> None:
    assert latin9("Müller Œuvre €") == "Müller Œuvre €"
    assert latin9("Čapek Đorđe ħ") == "Capek Dorde h"
    assert latin9("囲碁") == "??"


# --------------------------------------------------------------------------- header


def test_the_header_names_every_field_of_the_format() -> None:
    t = make_tournament(0)
    t.settings = replace(
        t.settings, name="Open [2025]", venue="Go Club\nHamburg", komi=6.5,
        handicap_policy=HandicapPolicy.MINUS_2,
    )  # fmt: skip
    h9 = table(t, EventDetails(country="de"))
    assert h9.header == {
        "CL": "A",
        "EV": "Open (2025)",
        "PC": "DE,Go Club Hamburg",
        "DT": "2025-10-04,2025-10-05",
        "HA": "h2",
        "KM": "6.5",
        "TM": "82",
        "CM": "60 minutes, Byo-yomi: 5 periods of 30 seconds",
    }


@pytest.mark.parametrize(
    ("policy", "rule"),
    [
        (HandicapPolicy.FULL, "h0"),
        (HandicapPolicy.MINUS_1, "h1"),
        (HandicapPolicy.MINUS_3, "h3"),
        (HandicapPolicy.NONE, "h9"),
    ],
)
def test_ha_is_the_stones_taken_off_the_grade_difference(policy: HandicapPolicy, rule: str) -> None:
    t = make_tournament(0)
    t.settings = replace(t.settings, handicap_policy=policy)
    assert table(t).header["HA"] == rule


def test_the_last_day_is_the_first_when_no_end_date_is_given() -> None:
    t = make_tournament(0)
    t.settings = replace(t.settings, end_date=None)
    assert table(t).header["DT"] == "2025-10-04,2025-10-04"


@pytest.mark.parametrize(
    ("basic", "overtime", "conditions", "adjusted", "egf_class"),
    [
        (60, "Byo-yomi", "5 periods of 30 seconds", 82, EgfClass.A),
        (60, "Byo-yomi", "periods of 30 seconds", 82, EgfClass.A),  # the count does not matter
        (40, "Canadian", "25 stones in 10 minutes", 64, EgfClass.B),
        (45, "Fischer", "30 seconds increment", 105, EgfClass.A),
        (30, "Fischer", "10 seconds increment", 50, EgfClass.B),
        (30, "Sudden death", "", 30, EgfClass.C),
        (20, "Sudden death", "", 20, EgfClass.X),
        (59, "Byo-yomi", "5 periods of 60 seconds", 104, EgfClass.B),
    ],
)
def test_the_class_is_the_highest_the_basic_and_adjusted_time_allow(
    basic: int, overtime: str, conditions: str, adjusted: int, egf_class: EgfClass
) -> None:
    """EGF: adjusted time = basic + 45 moves of byo-yomi (60 Canadian; 120 Fischer, as
    OpenGotha and pairgoth); A needs 60 and 75 minutes, B 40 and 50, C 25 and 30 (Fischer:
    45/75, 30/50, 20/30)."""
    s = Settings(basic_time_minutes=basic, overtime_format=overtime, overtime_conditions=conditions)
    time = time_class(s)
    assert (time.adjusted, time.egf_class) == (adjusted, egf_class)


def test_a_declared_class_is_allowed_at_or_below_what_the_time_gives() -> None:
    time = time_class(Settings(basic_time_minutes=55, overtime_format="Sudden death"))
    assert time.egf_class is EgfClass.B
    assert class_allowed(EgfClass.B, time) and class_allowed(EgfClass.C, time)
    assert class_allowed(EgfClass.D, time), "online: B's limits"
    assert not class_allowed(EgfClass.A, time)


def test_time_the_egd_cannot_read_writes_no_tm_and_class_x() -> None:
    t = make_tournament(0)
    t.settings = replace(t.settings, overtime_conditions="a few periods")
    header = table(t).header
    assert header["CL"] == "X" and "TM" not in header
    assert table(t, EventDetails(egf_class=EgfClass.C)).header["CL"] == "C"


def test_the_same_tournament_gives_the_same_bytes() -> None:
    assert write_h9(make_tournament(4), EventDetails("GB")) == write_h9(
        make_tournament(4), EventDetails("GB")
    )


def test_the_score_column_is_the_standings_mcmahon_score() -> None:
    t = make_tournament(5)
    tab = egd_table(t)
    scores = mcmahon_scores(t)
    assert tab.columns[:3] == ("MMS", "SOS", "SODOS")
    for line in tab.lines:
        assert float(line.scores[0]) == scores[line.player]


def test_a_player_without_rank_or_rating_cannot_be_written() -> None:
    t = make_tournament(0)
    pid = t.rounds[0].games[0].white
    t.players[pid] = replace(t.players[pid], rank="", rating=None)
    with pytest.raises(ValueError, match="no grade"):
        write_h9(t)


@settings(max_examples=20, deadline=None)
@given(st.text(max_size=60), st.text(max_size=60))
def test_any_name_stays_on_its_line_and_in_its_two_fields(family: str, given_name: str) -> None:
    t = make_tournament(0)
    pid = t.rounds[0].games[0].white
    t.players[pid] = replace(t.players[pid], family_name=family or "X", given_name=given_name)
    data = write_h9(t)
    text = data.decode(ENCODING)
    assert len([x for x in text.splitlines() if x and not x.startswith(";")]) == len(
        read_h9(data).lines
    )
    assert all(len(x.entries) == 5 for x in read_h9(data).lines)
    assert date(2025, 10, 4).isoformat() in text
