"""The 60-player, 5-round tournament every report test reads, and checks that it is realistic.

McMahon-like, built here rather than by the pairing engine so that report tests do not
depend on it: initial scores by rating (0 at the top, one point per rank below 3d, floor
-8); each round pairs the field top-down by McMahon score then rating, avoiding rematches;
the weaker player takes Black and handicaps follow the AGA minus-one rule; results favour
the stronger player. It has everything a report shows: voluntary byes (round 2, 3 and a
request for round 5), forced byes (odd fields in rounds 2 and 4), a player dropped after
round 3, same family names, accented names, a jigo, a no-result, forfeits, a double forfeit
and one game of the last round not played yet.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from datetime import date
from functools import cache

from addin.core.handicap import game_conditions
from addin.core.model import (
    Bye,
    ByeKind,
    Game,
    Player,
    PlayerId,
    Result,
    Round,
    Settings,
    Status,
    Tournament,
)

FAMILIES = [
    "Chen", "Smith", "García", "Nguyen", "Kim", "Müller", "O'Brien", "Sato", "Lee", "Brown",
    "Ōta", "Zhang", "Abe", "Ivanova", "Walker", "de Vries", "Park", "Tanaka", "Young", "Ewing",
    "Fischer", "Hall", "Quinn", "Rossi", "Ueda", "Vargas", "Xu", "Jensen", "Mendes", "Dubois",
]  # fmt: skip
GIVEN = ["Ann", "Bo", "Carl", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivan", "José", "Kai", "Lena"]

PLAYERS, ROUNDS = 60, 5
VOLUNTARY = {3: {2}, 17: {3}, 29: {3}, 41: {5}}
"""Player index -> rounds of a requested bye."""
DROPPED = 52
"""Player index of the player who leaves after round 3."""
SPECIAL = {
    (1, 3): Result.JIGO,
    (2, 5): Result.NO_RESULT,
    (3, 7): Result.WHITE_WINS_BY_FORFEIT,
    (4, 9): Result.BLACK_WINS_BY_FORFEIT,
    (4, 11): Result.DOUBLE_FORFEIT,
    (5, 29): None,
}
"""(round, board) -> a result other than a plain win; None: not played yet."""
SETTINGS = Settings(name="Test Open 2025", start_date=date(2025, 10, 4), rounds=ROUNDS)


def initial(rating: float) -> float:
    return float(max(-8, min(0, math.floor(rating) - 3)))


def _players(rng: random.Random) -> dict[PlayerId, Player]:
    players: dict[PlayerId, Player] = {}
    for i in range(PLAYERS):
        rating = round(rng.uniform(-22.0, 7.0), 2)
        if -1.0 < rating < 1.0:
            rating += 2.0 if rating >= 0 else -2.0
        aga = 20000 + 37 * i
        players[aga] = Player(
            aga_id=aga,
            family_name=FAMILIES[i % len(FAMILIES)],
            given_name=GIVEN[(i * 7) % len(GIVEN)],
            rating=rating,
            chapter=rng.choice(["SEAG", "NYGC", "BAGC", ""]),
            state=rng.choice(["WA", "NY", "CA"]),
            membership_type="Full",
            membership_expiry=date(2026, 1 + i % 12, 1),
            initial_score=initial(rating),
            bye_requests=frozenset(VOLUNTARY.get(i, ())),
        )
    return players


def _result(rng: random.Random, white: Player, black: Player, handicap: int) -> Result:
    assert white.rating is not None and black.rating is not None
    edge = (white.rating - black.rating - handicap) * 0.12
    white_wins = rng.random() < 0.5 + max(-0.35, min(0.35, edge))
    return Result.WHITE_WINS if white_wins else Result.BLACK_WINS


def _round(t: Tournament, number: int, rng: random.Random, met: set[frozenset[PlayerId]]) -> Round:
    ids = list(t.players)
    dropped = ids[DROPPED]
    score = {p: t.players[p].initial_score or 0.0 for p in ids}
    for rnd in t.rounds:
        for g in rnd.games:
            for p in g.players:
                score[p] += g.result.points(g.color_of(p)) if g.result else 0.0
        for b in rnd.byes:
            score[b.player] += 1.0 if b.kind is ByeKind.FORCED else 0.0
    byes = [Bye(p, ByeKind.VOLUNTARY) for p in ids if number in t.players[p].bye_requests]
    playing = [
        p for p in ids if number not in t.players[p].bye_requests and (p != dropped or number <= 3)
    ]
    order = sorted(playing, key=lambda p: (-score[p], -(t.players[p].rating or 0), p))
    if len(order) % 2:
        had = {b.player for r in t.rounds for b in r.byes if b.kind is ByeKind.FORCED}
        lowest = next(p for p in reversed(order) if p not in had)
        order.remove(lowest)
        byes.append(Bye(lowest, ByeKind.FORCED))
    games = []
    while order:
        first = order.pop(0)
        second = next((p for p in order if frozenset((first, p)) not in met), order[0])
        order.remove(second)
        met.add(frozenset((first, second)))
        a, b = t.players[first], t.players[second]
        white, black = (a, b) if (a.rating or 0) >= (b.rating or 0) else (b, a)
        handicap, komi = game_conditions(white.rating or 0, black.rating or 0, t.settings)
        if handicap == 0 and rng.random() < 0.5:
            white, black = black, white
        board = len(games) + 1
        result = SPECIAL.get((number, board), _result(rng, white, black, handicap))
        games.append(Game(white.aga_id, black.aga_id, handicap, komi, result, board))
    return Round(number, tuple(games), tuple(byes))


@cache
def _sixty() -> Tournament:
    rng = random.Random(2025)
    t = Tournament(settings=SETTINGS, players=_players(rng))
    met: set[frozenset[PlayerId]] = set()
    for number in range(1, ROUNDS + 1):
        t.rounds.append(_round(t, number, rng, met))
    dropped = list(t.players)[DROPPED]
    t.players[dropped] = replace(t.players[dropped], status=Status.DROPPED)
    return t


def sixty(rounds: int = ROUNDS) -> Tournament:
    """A fresh copy (reports never change it, but tests may) with the first ``rounds`` rounds."""
    t = _sixty()
    return Tournament(
        settings=t.settings,
        players=dict(t.players),
        bands=list(t.bands),
        rounds=[r for r in t.rounds if r.number <= rounds],
        requests=list(t.requests),
    )


# --- the fixture is what it claims to be ----------------------------------------------------


def test_sixty_players_five_rounds_no_rematches() -> None:
    t = sixty()
    assert len(t.players) == PLAYERS and [r.number for r in t.rounds] == [1, 2, 3, 4, 5]
    pairs = [frozenset(g.players) for r in t.rounds for g in r.games]
    assert len(pairs) == len(set(pairs))
    for rnd in t.rounds:
        seen = [p for g in rnd.games for p in g.players] + [b.player for b in rnd.byes]
        assert len(seen) == len(set(seen))


def test_sixty_has_byes_drops_and_every_kind_of_result() -> None:
    t = sixty()
    kinds = {(r.number, b.kind) for r in t.rounds for b in r.byes}
    assert {(2, ByeKind.FORCED), (4, ByeKind.FORCED), (2, ByeKind.VOLUNTARY)} <= kinds
    results = {g.result for r in t.rounds for g in r.games}
    assert set(SPECIAL.values()) <= results
    assert sum(p.status is Status.DROPPED for p in t.players.values()) == 1
    assert any(g.handicap > 0 for r in t.rounds for g in r.games)
