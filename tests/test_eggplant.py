"""Eggplant's extensions of the AGA XML report: its limits, participation and settings."""

from __future__ import annotations

from dataclasses import replace

from addin.core.model import (
    Bye,
    ByeKind,
    Game,
    HandicapBasis,
    HandicapPolicy,
    Result,
    Round,
    Settings,
    Status,
)
from addin.core.ratings import rank_floor
from addin.formats.eggplant import block, eggplant_limits, participation, read_settings
from tests.factories import make_tournament


def test_a_tournament_eggplant_can_hold_gives_no_warning() -> None:
    t = make_tournament(0)
    held = {None: Result.WHITE_WINS, Result.NO_RESULT: Result.JIGO}  # no unplayed, no void
    t.rounds = [
        replace(r, games=tuple(replace(g, result=held.get(g.result, g.result)) for g in r.games))
        for r in t.rounds
    ]
    assert eggplant_limits(t) == []
    t.rounds[0] = replace(t.rounds[0], games=(replace(t.rounds[0].games[0], komi=0.0),))
    assert len(eggplant_limits(t)) == 1 and "no half point" in eggplant_limits(t)[0]


def test_more_rounds_boards_and_forced_byes_than_eggplant_holds_and_low_ratings() -> None:
    t = make_tournament(0)
    ids = sorted(t.players)
    t.settings = replace(t.settings, rounds=11)
    low = replace(t.players[ids[0]], rating=-32.5)
    t.players[low.aga_id] = low
    many = tuple(Game(100000 + 2 * n, 100001 + 2 * n, 0, 7.5) for n in range(601))
    t.rounds.append(Round(6, many, (Bye(ids[1], ByeKind.FORCED), Bye(ids[2], ByeKind.FORCED))))
    warnings = "\n".join(eggplant_limits(t))
    assert "11 rounds: Eggplant holds at most 10" in warnings
    assert "at most 600 boards a round: round 6 (601)" in warnings
    assert f"{low.aga_id} {low.name} (-32.50)" in warnings
    assert "one forced bye a round; more than one in round 6" in warnings


def test_participation_entries() -> None:
    """PAIRED, BYE (forced), ABSENT (voluntary; requests and drops to come), NOT_ASSIGNED."""
    t = make_tournament(0, rounds=3)
    t.settings = replace(t.settings, rounds=5)
    rnd = t.rounds[0]
    forced = next(b.player for r in t.rounds for b in r.byes if b.kind is ByeKind.FORCED)
    forced_round = next(
        r.number
        for r in t.rounds
        for b in r.byes
        if b.player == forced and b.kind is ByeKind.FORCED
    )
    entries = participation(t, t.players[forced]).split(",")
    assert len(entries) == 6 and entries[-1] == ""
    assert entries[forced_round - 1] == "BYE"
    player = next(iter(rnd.paired_players()))
    requester = replace(t.players[player], bye_requests=frozenset({5}))
    assert participation(t, requester).split(",")[3:5] == ["NOT_ASSIGNED", "ABSENT"]
    dropped = replace(t.players[player], status=Status.DROPPED)
    assert participation(t, dropped).split(",")[3:5] == ["ABSENT", "ABSENT"]
    # Missed a round with games without a bye (dropped, late entry): not an absence.
    t.rounds[0] = replace(rnd, games=tuple(g for g in rnd.games if player not in g.players))
    assert participation(t, t.players[player]).split(",")[0] == "NOT_ASSIGNED"


def test_eggplant_settings_are_taken_over_with_notes() -> None:
    values = {
        "numberofrounds": "4",
        "defaultkomi": "6",
        "mmbar": "3D",
        "mmfloor": "20K",
        "handicapgames": "true",
        "handicapmodifier": "1",
        "handicapbasis": "MMS",
        "handicapceiling": "5",
        "byemmsx2": "1",
        "absentmmsx2": "0",
    }
    settings, notes, given = read_settings(values, replace(Settings(), top_band_even=True))
    assert given == {
        "rounds", "komi", "bar", "handicap_policy",
        "top_band_even", "handicap_ceiling", "handicap_basis",
    }  # fmt: skip
    assert (settings.rounds, settings.komi, settings.bar) == (4, 6.5, 3.0)
    assert settings.handicap_policy is HandicapPolicy.MINUS_1
    # Eggplant gives every game its rule's handicap: no "top band games even" there.
    assert not settings.top_band_even
    assert (settings.handicap_ceiling, settings.handicap_basis) == (5, HandicapBasis.MMS)
    assert settings.handicap_even_from is None  # no maxhandicappedrank: nothing capped
    text = "\n".join(notes)
    assert "Komi (even games) 6.5; Bar 3d; Handicap Minus 1" in text
    # The rounds are taken (never lowered) by the import, which names them itself.
    assert "Number of rounds" not in text
    assert "Top band games even No" in text and "Handicap ceiling 5" in text
    assert "Handicap from McMahon score difference" in text
    assert "floor 20K is not carried over" in text
    assert "scored a bye 0.5" in text
    capped, _, _ = read_settings({**values, "maxhandicappedrank": "2D"}, Settings())
    assert capped.handicap_even_from == 2.0
    ours, _, given = read_settings(values, Settings(), by_eggplant=False)
    assert ours.handicap_ceiling == 9 and "top_band_even" not in given
    no_handicaps, _, _ = read_settings({"handicapgames": "false"}, Settings())
    assert no_handicaps.handicap_policy is HandicapPolicy.NONE


def test_an_exact_komi_already_read_is_kept() -> None:
    """Our Comment says 7 (no half point); <defaultkomi>7</defaultkomi> must not make it 7.5."""
    settings, _, _ = read_settings({"defaultkomi": "7"}, replace(Settings(), komi=7.0))
    assert settings.komi == 7.0
    settings, _, _ = read_settings({"defaultkomi": "6"}, replace(Settings(), komi=7.5))
    assert settings.komi == 6.5


def test_the_handicap_rules_written_for_eggplant_are_the_events_and_read_back_the_same() -> None:
    """The <eggplant> block said a ceiling of 9, rank basis and no cap whatever the event's
    settings: carried on in Eggplant (or imported again), an event with a ceiling of 5 from
    McMahon scores would have been handicapped by other rules."""
    t = make_tournament(0)
    t.settings = replace(
        t.settings,
        handicap_policy=HandicapPolicy.MINUS_1,
        handicap_ceiling=5,
        handicap_basis=HandicapBasis.MMS,
        handicap_even_from=rank_floor("2d"),
    )
    written = dict(block(t))
    assert (written["handicapceiling"], written["handicapbasis"]) == ("5", "MMS")
    assert written["maxhandicappedrank"] == "2D"
    back, _, _ = read_settings(written, Settings())
    assert (back.handicap_ceiling, back.handicap_basis) == (5, HandicapBasis.MMS)
    assert back.handicap_even_from == rank_floor("2d")
    assert back.handicap_policy is HandicapPolicy.MINUS_1
    plain = dict(block(make_tournament(0)))
    assert (plain["handicapceiling"], plain["handicapbasis"], plain["maxhandicappedrank"]) == (
        "9",
        "RANK",
        "9D",
    )
