"""Simulated tournaments for tests and benchmarks (seeded, so reproducible).

Players get random AGA ratings, initial McMahon scores from one-rank bands under a bar,
and rounds are played with results drawn from the rating difference (handicap taken into
account). Optional voluntary byes, bye volunteers, drops and club/city/state data make
the pairing problems realistic.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from addin.core.model import (
    Bye,
    ByeKind,
    Color,
    Game,
    PairRequest,
    Player,
    PlayerId,
    Result,
    Round,
    Settings,
    Status,
)
from addin.core.pairing.engine import PairingResult, pair_round
from addin.core.pairing.inputs import PairingInput
from addin.core.ratings import rating_gap

CLUBS = ("NYGC", "SEAG", "BGC", "MIT", "SFGC", "PGC")
STATES = ("NY", "WA", "MA", "CA", "PA")


def random_rating(rng: random.Random) -> float:
    """A rating on the AGA scale, kyu-heavy as real fields are."""
    r = rng.gauss(-6.0, 8.0)
    r = max(-30.0, min(9.5, r))
    if -1.0 < r < 1.0:
        r = 1.0 + abs(r) if r >= 0 else -1.0 - abs(r)
    return round(r, 2)


def initial_score(rating: float, bar: int = 5, floor: int = -15) -> float:
    """One band per rank below the bar, the bar at 0: 5d+ = 0, 4d = -1, ..., 1k = -5, ..."""
    closed = rating - 1.0 if rating > 0 else rating + 1.0
    return float(max(floor, min(0, math.floor(closed) - bar + 1)))


def make_players(n: int, rng: random.Random, *, clubs: bool = True) -> list[Player]:
    players = []
    for k in range(n):
        rating = random_rating(rng)
        players.append(
            Player(
                aga_id=1000 + k,
                family_name=f"Player{k:04d}",
                rating=rating,
                chapter=rng.choice(CLUBS) if clubs else "",
                state=rng.choice(STATES) if clubs else "",
                city="",
                band=1 if initial_score(rating) == 0 else 2,
            )
        )
    return players


def play(game: Game, ratings: dict[PlayerId, float], rng: random.Random) -> Game:
    """A result drawn from the rating difference, handicap counted as stones of strength."""
    edge = rating_gap(ratings[game.white], ratings[game.black]) - game.handicap
    p_white = 1.0 / (1.0 + math.exp(-edge))
    x = rng.random()
    if x < 0.01:
        result = Result.JIGO
    elif x < 0.01 + 0.99 * p_white:
        result = Result.WHITE_WINS
    else:
        result = Result.BLACK_WINS
    return replace(game, result=result)


Pairer = Callable[[PairingInput], PairingResult]


def random_rounds(players: list[Player], rounds: int, rng: random.Random) -> list[Round]:
    """Rounds of random pairings that only keep the mandatory rules (no rematch, no second
    forced bye): histories no McMahon pairing would make, to stress the engine."""
    played: set[frozenset[PlayerId]] = set()
    had_bye: set[PlayerId] = set()
    ratings = {p.aga_id: float(p.rating or 0.0) for p in players}
    out = []
    for number in range(1, rounds + 1):
        ids = [p.aga_id for p in players if number not in p.bye_requests]
        rng.shuffle(ids)
        byes = [Bye(p, ByeKind.VOLUNTARY) for p in sorted(ratings) if p not in ids]
        if len(ids) % 2:
            taker = next((p for p in ids if p not in had_bye), ids[0])
            ids.remove(taker)
            had_bye.add(taker)
            byes.append(Bye(taker, ByeKind.FORCED))
        games = []
        while len(ids) >= 2:
            a = ids.pop()
            b = next((x for x in ids if frozenset((a, x)) not in played), None)
            if b is None:
                continue  # a sits out: the random history need not be complete
            ids.remove(b)
            played.add(frozenset((a, b)))
            games.append(play(Game(a, b), ratings, rng))
        out.append(Round(number, tuple(games), tuple(byes)))
    return out


@dataclass
class SimTournament:
    players: list[Player]
    settings: Settings
    rounds: list[Round] = field(default_factory=list)
    requests: list[PairRequest] = field(default_factory=list)

    @property
    def ratings(self) -> dict[PlayerId, float]:
        return {p.aga_id: float(p.rating or 0.0) for p in self.players}

    def scores(self) -> dict[PlayerId, float]:
        """McMahon scores after the rounds played so far."""
        scores = {p.aga_id: initial_score(float(p.rating or 0.0)) for p in self.players}
        for rnd in self.rounds:
            for g in rnd.games:
                if g.result is not None:
                    scores[g.white] += g.result.points(Color.WHITE)
                    scores[g.black] += g.result.points(Color.BLACK)
            for b in rnd.byes:
                scores[b.player] += 1.0 if b.kind is ByeKind.FORCED else 0.0
        return scores

    def input_for(self, number: int) -> PairingInput:
        return PairingInput(
            round=number,
            total_rounds=self.settings.rounds,
            players=tuple(self.players),
            scores=self.scores(),
            history=tuple(self.rounds),
            requests=tuple(self.requests),
            settings=self.settings,
        )


def simulate(
    n: int,
    played: int,
    *,
    total_rounds: int = 10,
    seed: int = 0,
    settings: Settings | None = None,
    byes: float = 0.0,
    drops: float = 0.0,
    volunteers: float = 0.0,
    pairer: Pairer = pair_round,
) -> SimTournament:
    """A tournament of ``n`` players after ``played`` rounds paired by ``pairer``.

    ``byes``: chance that a player asks for a voluntary bye in a given round; ``drops``:
    chance that a player drops out after a round; ``volunteers``: share of bye volunteers.
    """
    rng = random.Random(seed)
    base = settings or Settings(rounds=total_rounds, seed=seed)
    players = make_players(n, rng, clubs=True)
    players = [
        replace(
            p,
            bye_volunteer=rng.random() < volunteers,
            bye_requests=frozenset(r for r in range(1, total_rounds + 1) if rng.random() < byes),
        )
        for p in players
    ]
    t = SimTournament(players, replace(base, rounds=total_rounds))
    ratings = t.ratings
    for number in range(1, played + 1):
        result = pairer(t.input_for(number))
        games = tuple(play(g, ratings, rng) for g in result.games)
        t.rounds.append(Round(number, games, result.byes))
        t.players = [
            replace(p, status=Status.DROPPED) if rng.random() < drops else p for p in t.players
        ]
    return t


__all__ = ["Bye", "SimTournament", "initial_score", "make_players", "play", "simulate"]
