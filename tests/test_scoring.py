"""McMahon scores per the AGA protocol, "Game Results"."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from addin.core.model import (
    Bye,
    ByeKind,
    Color,
    Game,
    Player,
    PlayerId,
    Result,
    Round,
    Status,
    Tournament,
)
from addin.core.scoring import (
    Outcome,
    initial_score,
    last_round,
    mcmahon_scores,
    player_records,
    round_points,
    score_history,
    wins,
)
from tests.helpers import DATA
from tests.opengotha import read_opengotha
from tests.small_tournaments import random_tournaments, tournament

SIMPLEMM = DATA / "opengotha" / "simplemm.xml"

BOB, BARRY, CARMILLA, SALLY, MARVIN = 1, 2, 3, 4, 5


def beat(winner: PlayerId, loser: PlayerId, handicap: int = 0) -> Game:
    return Game(white=winner, black=loser, handicap=handicap, result=Result.WHITE_WINS)


def bob_tournament(bob_bye: ByeKind) -> Tournament:
    """The protocol's Bob the Beginner: 5 rounds, lowest division starting at -8.

    Bob: R1 beats Barry, R2 bye, R3 beats Carmilla, R4 loses to Sally, R5 beats Marvin.
    The other four fill in a round robin; each of them gets one forced bye.
    """
    forced = ByeKind.FORCED
    return tournament(
        dict.fromkeys((BOB, BARRY, CARMILLA, SALLY, MARVIN), -8.0),
        Round(1, (beat(BOB, BARRY), beat(CARMILLA, SALLY)), (Bye(MARVIN, forced),)),
        Round(2, (beat(SALLY, BARRY), beat(MARVIN, CARMILLA)), (Bye(BOB, bob_bye),)),
        Round(3, (beat(BOB, CARMILLA), beat(SALLY, MARVIN)), (Bye(BARRY, forced),)),
        Round(4, (beat(SALLY, BOB), beat(MARVIN, BARRY)), (Bye(CARMILLA, forced),)),
        Round(5, (beat(BOB, MARVIN), beat(BARRY, CARMILLA)), (Bye(SALLY, forced),)),
    )


# ---------------------------------------------------------------- Game Results


@pytest.mark.parametrize(
    ("result", "white", "black"),
    [
        (Result.WHITE_WINS, 1.0, 0.0),
        (Result.BLACK_WINS, 0.0, 1.0),
        (Result.WHITE_WINS_BY_FORFEIT, 1.0, 0.0),
        (Result.BLACK_WINS_BY_FORFEIT, 0.0, 1.0),
        (Result.JIGO, 0.5, 0.5),
        (Result.NO_RESULT, 0.5, 0.5),
        (Result.DOUBLE_FORFEIT, 0.0, 0.0),
        (None, 0.0, 0.0),
    ],
)
def test_game_result_points(result: Result | None, white: float, black: float) -> None:
    t = tournament({1: 0.0, 2: -2.0}, Round(1, (Game(1, 2, result=result),)))
    assert mcmahon_scores(t) == {1: 0.0 + white, 2: -2.0 + black}
    assert round_points(t, 1) == {1: white, 2: black}


def test_forced_bye_scores_one_voluntary_bye_zero() -> None:
    t = tournament(
        {1: 0.0, 2: 0.0, 3: 0.0},
        Round(1, (), (Bye(1, ByeKind.FORCED), Bye(2, ByeKind.VOLUNTARY))),
    )
    assert mcmahon_scores(t) == {1: 1.0, 2: 0.0, 3: 0.0}


def test_absent_player_scores_zero_for_the_round() -> None:
    """Dropped after round 1 (3), registered for round 2 only (4): 0 for missed rounds."""
    players = {
        1: Player(1, "A", initial_score=0.0),
        2: Player(2, "B", initial_score=0.0),
        3: Player(3, "C", initial_score=0.0, status=Status.DROPPED),
        4: Player(4, "D", initial_score=0.0),
    }
    t = Tournament(
        players=players,
        rounds=[Round(1, (beat(3, 1),), (Bye(2, ByeKind.FORCED),)), Round(2, (beat(4, 2),))],
    )
    assert score_history(t) == {1: [0, 0, 0], 2: [0, 1, 1], 3: [0, 1, 1], 4: [0, 0, 1]}
    assert player_records(t)[4][0].outcome is Outcome.ABSENT
    assert player_records(t)[3][1].outcome is Outcome.ABSENT


def test_initial_score_none_is_zero_and_fractions_are_kept() -> None:
    t = tournament(
        {1: None, 2: -2.5},
        Round(1, (Game(1, 2, result=Result.JIGO),)),
        Round(2, (Game(2, 1, result=Result.NO_RESULT),)),
        Round(3, (Game(1, 2, result=Result.BLACK_WINS),)),
    )
    assert score_history(t) == {1: [0.0, 0.5, 1.0, 1.0], 2: [-2.5, -2.0, -1.5, -0.5]}


def test_unplayed_game_adds_nothing_yet() -> None:
    t = tournament({1: 0.0, 2: 0.0}, Round(1, (beat(1, 2),)), Round(2, (Game(2, 1),)))
    assert score_history(t) == {1: [0, 1, 1], 2: [0, 0, 0]}
    assert player_records(t)[1][1].outcome is Outcome.PENDING


def test_bob_forced_bye_final_score_is_minus_4() -> None:
    """Protocol example: -8 + 3 wins + forced bye = -4."""
    t = bob_tournament(ByeKind.FORCED)
    assert score_history(t)[BOB] == [-8, -7, -6, -5, -5, -4]
    assert mcmahon_scores(t)[BOB] == -4.0


def test_bob_voluntary_bye_final_score_is_minus_5() -> None:
    """Protocol example: -8 + 3 wins + voluntary bye (0) = -5."""
    t = bob_tournament(ByeKind.VOLUNTARY)
    assert mcmahon_scores(t)[BOB] == -5.0
    assert mcmahon_scores(t, after_round=2)[BOB] == -7.0


def test_after_round_and_initial_scores() -> None:
    t = bob_tournament(ByeKind.FORCED)
    assert mcmahon_scores(t, after_round=0) == dict.fromkeys(t.players, -8.0)
    after_3 = {BOB: -5, BARRY: -7, CARMILLA: -7, SALLY: -6, MARVIN: -6}
    assert mcmahon_scores(t, after_round=3) == after_3
    assert last_round(t) == 5
    with pytest.raises(ValueError):
        mcmahon_scores(t, after_round=-1)


def test_round_records_for_reports() -> None:
    game = Game(1, 2, handicap=2, komi=0.5, result=Result.BLACK_WINS, board=4)
    t = tournament({1: 0.0, 2: -3.0, 3: 0.0}, Round(1, (game,), (Bye(3, ByeKind.FORCED),)))
    recs = player_records(t)
    white, black, bye = recs[1][0], recs[2][0], recs[3][0]
    assert (white.opponent, white.color, white.handicap, white.komi) == (2, Color.WHITE, 2, 0.5)
    assert white.outcome is Outcome.LOSS and white.bye is None and white.game == game
    assert white.gives_handicap and not black.gives_handicap
    assert (black.opponent, black.color, black.board) == (1, Color.BLACK, 4)
    assert black.outcome is Outcome.WIN
    assert (black.score_before, black.score_after, black.points) == (-3.0, -2.0, 1.0)
    assert (bye.opponent, bye.color, bye.bye) == (None, None, ByeKind.FORCED)
    assert bye.outcome is Outcome.FORCED_BYE and bye.score_after == 1.0


def test_wins_count_games_won_not_byes() -> None:
    """Raw score: forfeit wins count, jigo counts half, forced byes do not (Bob: 3 wins)."""
    assert wins(bob_tournament(ByeKind.FORCED))[BOB] == 3.0
    t = tournament(
        {1: 0.0, 2: 0.0},
        Round(1, (Game(1, 2, result=Result.WHITE_WINS_BY_FORFEIT),)),
        Round(2, (Game(1, 2, result=Result.JIGO),)),
    )
    assert wins(t) == {1: 1.5, 2: 0.5}


def test_simplemm_scores_from_the_file() -> None:
    """simplemm.xml: initial = OpenGotha smms (bar 4d, floor 20k, zero 30k), + 1 per win.

    Noguchi 7d (clamped to 4d: 33) won 5 -> 38; Karadaban 6d (33) won 4 -> 37;
    Bonjean 4d (33) won 3 -> 36; Robin 10k (20) won 1 -> 21; Durand 2k (28) won 1 -> 29.
    """
    t = read_opengotha(SIMPLEMM)
    by_name = {p.family_name: p.aga_id for p in t.players.values()}
    scores = mcmahon_scores(t)
    expected = {"Noguchi": 38, "Karadaban": 37, "Bonjean": 36, "Robin": 21, "Durand": 29}
    assert {n: scores[by_name[n]] for n in expected} == expected
    # Karadaban: W (Lemoine), L (Noguchi), W (Bonjean), W (Aim), W (Lefebvre).
    assert score_history(t)[by_name["Karadaban"]] == [33, 34, 34, 35, 36, 37]


# ---------------------------------------------------------------- properties

DECISIVE = [
    Result.WHITE_WINS,
    Result.BLACK_WINS,
    Result.WHITE_WINS_BY_FORFEIT,
    Result.BLACK_WINS_BY_FORFEIT,
]


def tournaments(results: list[Result | None]) -> st.SearchStrategy[Tournament]:
    return random_tournaments(results, [None, -3.0, -1.0, 0.0, 0.5, 2.0])


@given(tournaments(DECISIVE))
def test_decisive_round_hands_out_one_point_per_game_and_forced_bye(t: Tournament) -> None:
    history = score_history(t)
    for rnd in t.rounds:
        gained = sum(h[rnd.number] - h[rnd.number - 1] for h in history.values())
        forced = sum(b.kind is ByeKind.FORCED for b in rnd.byes)
        assert gained == len(rnd.games) + forced


@given(tournaments([*Result, None]))
def test_scores_only_grow_by_halves(t: Tournament) -> None:
    for p, h in score_history(t).items():
        assert len(h) == last_round(t) + 1
        assert all(b - a in (0.0, 0.5, 1.0) for a, b in itertools.pairwise(h))
        assert h[-1] == mcmahon_scores(t)[p]


@given(tournaments([*Result, None]), st.integers(min_value=0, max_value=6))
def test_score_history_is_what_the_round_records_add_up_to(t: Tournament, after: int) -> None:
    records = player_records(t, after)
    assert score_history(t, after) == {
        p: [initial_score(t, p)] + [r.score_after for r in recs] for p, recs in records.items()
    }
