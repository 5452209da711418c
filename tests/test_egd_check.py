"""What the EGD would reject (errors) or question (warnings) in the EGF tournament table."""

from __future__ import annotations

from dataclasses import replace

from addin.core.european import OddPlayer, Options
from addin.core.model import Player, Result, Round, Settings, Tournament
from addin.core.submission import (
    Cell,
    PlayerRow,
    SettingField,
    Severity,
    Submission,
    SubmissionProblem,
)
from addin.formats.egd_check import check_egd
from addin.formats.egd_h9 import EgfClass, EventDetails
from tests.factories import make_tournament

COLUMNS = {
    "family_name": "B",
    "given_name": "C",
    "rank": "D",
    "rating": "E",
    "chapter": "V",
    "country": "Y",
    "egd_pin": "Z",
}
SETTING_ROWS = {
    "name": 2,
    "start_date": 5,
    "end_date": 6,
    "basic_time_minutes": 12,
    "overtime_format": 13,
    "overtime_conditions": 14,
    "rounds": 16,
}


def finished(seed: int = 0) -> Tournament:
    """An event the EGD takes: every game played, every player a country and a PIN."""
    t = make_tournament(seed)
    last = t.rounds[-1]
    t.rounds[-1] = replace(
        last, games=tuple(replace(g, result=g.result or Result.WHITE_WINS) for g in last.games)
    )
    t.players = {
        p: replace(
            x,
            country="DE",
            egd_pin=10_000_000 + p,
            family_name=x.family_name.replace("Ō", "O"),
            given_name=x.given_name.replace("ū", "u"),
        )
        for p, x in t.players.items()
    }
    return t


def submission(t: Tournament, blank: tuple[str, ...] = ()) -> Submission:
    rows = [
        PlayerRow(
            p,
            {key: Cell("Players", f"{col}{n}", key) for key, col in COLUMNS.items()},
            Cell("Players", f"A{n}", "AGA #"),
        )
        for n, p in enumerate(t.players.values(), start=2)
    ]
    settings = [
        SettingField(key, key, key in blank, Cell("Tournament", f"B{row}", key))
        for key, row in SETTING_ROWS.items()
    ]
    return Submission(t, rows, settings)


def problems(
    t: Tournament, details: EventDetails | None = None, blank: tuple[str, ...] = ()
) -> list[SubmissionProblem]:
    return check_egd(submission(t, blank), details or EventDetails("DE"))


def errors(found: list[SubmissionProblem]) -> list[SubmissionProblem]:
    return [p for p in found if p.severity is Severity.ERROR]


def warnings(found: list[SubmissionProblem]) -> list[SubmissionProblem]:
    return [p for p in found if p.severity is Severity.WARNING]


def test_a_finished_event_with_countries_and_pins_has_nothing_to_fix() -> None:
    assert problems(finished()) == []


def test_a_game_without_a_result_is_an_error_at_its_result_cell() -> None:
    t = make_tournament(0)  # its last game is not played yet
    t.players = finished().players
    found = errors(problems(t))
    assert len(found) == 1
    assert "no result; the EGD cannot rate it" in found[0].message
    assert "round 5" in found[0].message


def test_the_name_and_first_day_are_needed_the_last_day_is_asked_for() -> None:
    found = problems(finished(), blank=("name", "start_date", "end_date"))
    assert [str(p.cell) for p in errors(found)] == [
        "Tournament!B2 (name)",
        "Tournament!B5 (start_date)",
    ]
    assert not any("End date" in p.message for p in found), "no last day without a first"
    found = problems(finished(), blank=("end_date",))
    assert [str(p.cell) for p in warnings(found)] == ["Tournament!B6 (end_date)"]


def test_time_limits_below_class_c_are_an_error_at_the_basic_time() -> None:
    t = finished()
    t.settings = replace(t.settings, basic_time_minutes=20, overtime_format="Sudden death")
    found = errors(problems(t))
    assert len(found) == 1 and "below class C's (25 and 30)" in found[0].message
    assert str(found[0].cell) == "Tournament!B12 (basic_time_minutes)"


def test_a_class_the_time_does_not_allow_is_an_error_a_lower_one_is_not() -> None:
    t = finished()
    t.settings = replace(t.settings, basic_time_minutes=45, overtime_conditions="30 seconds")
    assert (
        "class A needs 60 minutes basic"
        in errors(problems(t, EventDetails("DE", EgfClass.A)))[0].message
    )
    assert problems(t, EventDetails("DE", EgfClass.C)) == []


def test_overtime_the_egd_cannot_read_is_an_error_at_the_conditions() -> None:
    t = finished()
    t.settings = replace(t.settings, overtime_conditions="some periods")
    found = errors(problems(t))
    assert len(found) == 1 and "adjusted time (TM)" in found[0].message
    assert str(found[0].cell) == "Tournament!B14 (overtime_conditions)"


def test_no_basic_time_is_an_error() -> None:
    t = finished()
    t.settings = replace(t.settings, basic_time_minutes=None)
    assert "Basic time is blank" in errors(problems(t))[0].message


def test_nothing_paired_is_nothing_to_rate() -> None:
    t = finished()
    t.rounds = []
    assert [p.message for p in errors(problems(t))] == [
        "no round has been paired: there is nothing to rate"
    ]


def test_fewer_rounds_paired_than_planned_is_a_warning() -> None:
    t = finished()
    t.settings = replace(t.settings, rounds=6)
    assert [str(p.cell) for p in warnings(problems(t))] == ["Tournament!B16 (rounds)"]


def test_a_pin_that_is_not_eight_digits_or_is_given_twice_is_an_error_at_its_cell() -> None:
    t = finished()
    first, second, third = list(t.players)[:3]
    t.players[first] = replace(t.players[first], egd_pin=1_234_567)
    t.players[second] = replace(t.players[second], egd_pin=t.players[third].egd_pin)
    found = errors(problems(t))
    assert len(found) == 2
    assert "is not 8 digits" in found[0].message and found[0].cell == Cell(
        "Players", "Z2", "egd_pin"
    )
    assert "is given to 2 players" in found[1].message


def test_players_without_a_pin_or_a_country_are_one_warning_each_kind() -> None:
    t = finished()
    for p in list(t.players)[:7]:
        t.players[p] = replace(t.players[p], egd_pin=None, country="")
    found = warnings(problems(t))
    assert len(found) == 2
    assert found[0].message.startswith("7 players have no Country, written XX")
    assert found[0].message.endswith("and 2 more")
    assert found[1].message.startswith("7 players have no EGD PIN")


def test_a_country_that_is_no_two_letter_code_is_a_warning_at_its_cell() -> None:
    t = finished()
    p = next(iter(t.players))
    t.players[p] = replace(t.players[p], country="Germany")
    found = warnings(problems(t))
    assert len(found) == 1 and found[0].cell == Cell("Players", "Y2", "country")


def test_names_written_otherwise_long_names_missing_given_names_and_long_clubs() -> None:
    t = finished()
    a, b, c, d = list(t.players)[:4]
    t.players[a] = replace(t.players[a], family_name="Dvořák")
    t.players[b] = replace(t.players[b], given_name="", chapter="Seattle Go Center")
    t.players[c] = replace(t.players[c], family_name="x" * 40_000)
    t.players[d] = replace(t.players[d], given_name="Jan; drop")
    found = problems(t)
    assert [(p.severity, p.cell) for p in found] == [
        (Severity.ERROR, Cell("Players", "B4", "family_name")),
        (Severity.WARNING, Cell("Players", "B2", "family_name")),
        (Severity.WARNING, Cell("Players", "C3", "given_name")),
        (Severity.WARNING, Cell("Players", "V3", "chapter")),
        (Severity.WARNING, Cell("Players", "C5", "given_name")),
    ]
    assert "'Dvořák' is written 'Dvorák'" in found[1].message
    name = f"{t.players[c].family_name} {t.players[c].given_name}"
    assert f"the name is {len(name):,} characters long" in found[0].message
    assert len(found[0].message) < 300, "a hostile name is named, never echoed"
    assert "'Seattle Go Center' is written 'Seat'" in found[3].message


def test_two_players_with_one_name_need_their_pins() -> None:
    t = finished()
    a, b = list(t.players)[:2]
    t.players[b] = replace(
        t.players[b], family_name=t.players[a].family_name, given_name=t.players[a].given_name
    )
    assert problems(t) == [], "both have a PIN"
    t.players[b] = replace(t.players[b], egd_pin=None)
    assert any("have the same name" in p.message for p in warnings(problems(t)))


def test_the_ghost_players_games_and_players_who_never_played_are_told() -> None:
    t = finished()
    ghost = t.rounds[0].games[0].white
    t.settings = replace(t.settings, ghost_player=ghost)
    t.players[1] = Player(1, "Late", "Lee", rank="3k", country="DE", egd_pin=19_999_999)
    t.settings = replace(t.settings, typed_options=Options(odd_player=OddPlayer.GHOST))
    found = warnings(problems(t))
    assert any(
        "the ghost player" in p.message and "rates them as any game" in p.message for p in found
    )
    assert any("Late, Lee (AGA 1) has no game" in p.message for p in found)


def test_the_events_country_is_asked_for() -> None:
    found = check_egd(submission(finished()), EventDetails(""))
    assert [p.message[:32] for p in found] == ["the event's country is not given"]
    found = check_egd(submission(finished()), EventDetails("DEU"))
    assert "'DEU' is not a 2-letter code" in found[0].message


def test_a_settings_sheet_default_event_checks_too() -> None:
    assert errors(
        check_egd(submission(Tournament(Settings(), {}, [], [Round(1)])), EventDetails("DE"))
    )
