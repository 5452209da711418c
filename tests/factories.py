"""Small seeded tournaments for tests: every kind of data an AGA report must carry.

``make_tournament(seed)`` plays a 13-player, 5-round McMahon-like event: weaker players
take Black and handicaps follow the AGA handicap-minus-one rule; temporary members (9000x)
with contact details; an existing member whose details the desk collected (email, fee);
voluntary byes (requests) and forced byes (odd field) - round 4 has both; and, at fixed
places, a jigo, a no-result, both forfeits, a double forfeit and an unplayed game, so that
every result appears whatever the seed. The same seed gives the same tournament.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date

from addin.core.handicap import game_conditions
from addin.core.model import (
    Bye,
    ByeKind,
    Contact,
    Game,
    Player,
    PlayerId,
    Result,
    Round,
    Rules,
    Settings,
    Tournament,
)

_ROSTER = [
    (15850, "Chen", "Renyu"),
    (14481, "Wilkins", "Don"),
    (14002, "Top", "Daniel"),
    (10283, "Malveaux", "Mike"),
    (90001, "Chang", "Shih-wen"),
    (90000, "Müller", "Jürgen"),
    (10927, "Sato", "Akira"),
    (2786, "Chiles", "Bill"),
    (7031, "New", "Gordon"),
    (15511, "Feiveson", "Eric"),
    (6096, "Brown", "Frank"),
    (15583, "Borges-Garven", "Robert"),
    (13502, "Ōta", "Yūko"),
]
_BYE_REQUESTS = {10283: {2}, 10927: {4}, 6096: {4}}
"""Voluntary byes: 13 players, so rounds 1, 3, 5 need a forced bye; round 4 has both."""
_SPECIAL = {
    (2, 0): Result.JIGO,
    (3, 0): Result.WHITE_WINS_BY_FORFEIT,
    (3, 1): Result.BLACK_WINS_BY_FORFEIT,
    (4, 0): Result.NO_RESULT,
    (4, 1): Result.DOUBLE_FORFEIT,
}
"""(round, board index) -> result; the last game of the last round is left unplayed."""


def _rating(rng: random.Random) -> float:
    """A rating on the AGA scale: two decimals, never strictly between -1 and 1."""
    value = round(rng.uniform(-16.0, 6.0), 2)
    if -1.0 < value < 1.0:
        value += 2.0 if value >= 0 else -2.0
    return value


def _players(rng: random.Random) -> dict[PlayerId, Player]:
    players = {}
    for index, (aga_id, family, given) in enumerate(_ROSTER):
        rating = _rating(rng)
        player = Player(
            aga_id,
            family,
            given,
            rank=f"{rating:.2f}",
            rating=rating,
            chapter="SEAG" if index % 2 else "NOVA",
            state="WA" if index % 3 else "VA",
            initial_score=float(-(index // 4)),
            bye_requests=frozenset(_BYE_REQUESTS.get(aga_id, ())),
        )
        players[aga_id] = player
    return _with_members(players)


def _with_members(players: dict[PlayerId, Player]) -> dict[PlayerId, Player]:
    """Contact details for the two new members and for one member whose details changed."""
    players[90000] = replace(
        players[90000],
        membership_type="Full",
        email="juergen@example.org",
        phone="206-555-0100",
        address="598 92nd Ave\nApt 3\nSeattle, WA 98115",
        citizenship="Germany",
        birth_date=date(1990, 5, 17),
    )
    players[90001] = replace(
        players[90001],
        membership_type="Youth",
        email="shihwen@example.org",
        address="278 41st St\nSeattle, WA 98105",
        citizenship="USA",
        birth_date=date(2011, 2, 3),
    )
    players[2786] = replace(
        players[2786], email="bill.chiles@example.net", aga_fee=30.0, notes="moved"
    )
    return players


def _settings(rules: Rules) -> Settings:
    return Settings(
        name="Seattle Fall Open",
        venue="Seattle Go Center",
        venue_address="700 NE 45th St\nSeattle, WA 98105",
        start_date=date(2025, 10, 4),
        end_date=date(2025, 10, 5),
        director=Contact("Brian Allen", "1 Main St, Seattle", "206-555-0199", "td@example.org"),
        sponsor=Contact("Go Stones Inc.", web="https://stones.example.com"),
        convener=Contact("Roy Laird", email="roy@example.org", web="https://sgc.example.org"),
        rules=rules,
        basic_time_minutes=60,
        overtime_format="Byo-yomi",
        overtime_conditions="5 periods of 30 seconds",
        tiebreaks=("SOS", "SODOS"),
    )


def _forced_bye(order: list[PlayerId], forced: set[PlayerId]) -> PlayerId:
    """The lowest player (score, then rating) without a forced bye yet."""
    return next(p for p in reversed(order) if p not in forced)


def _pairs(order: list[PlayerId], met: set[frozenset[PlayerId]]) -> list[tuple[int, int]]:
    """Top-down greedy pairing that avoids rematches when it can."""
    left, pairs = list(order), []
    while left:
        first = left.pop(0)
        second = next((p for p in left if frozenset((first, p)) not in met), left[0])
        left.remove(second)
        pairs.append((first, second))
    return pairs


def _game(
    a: Player, b: Player, settings: Settings, rng: random.Random, result: Result | None
) -> Game:
    assert a.rating is not None and b.rating is not None
    white, black = (a, b) if a.rating >= b.rating else (b, a)
    conditions = game_conditions(white.rating, black.rating, settings)
    if conditions.handicap == 0 and rng.random() < 0.5:
        white, black = black, white
    return Game(white.aga_id, black.aga_id, conditions.handicap, conditions.komi, result)


def _result(rng: random.Random, key: tuple[int, int], last: bool) -> Result | None:
    if last:
        return None
    if key in _SPECIAL:
        return _SPECIAL[key]
    return Result.WHITE_WINS if rng.random() < 0.55 else Result.BLACK_WINS


def make_tournament(seed: int = 0, rules: Rules = Rules.AGA, rounds: int = 5) -> Tournament:
    """A finished (all but one game) tournament, the same for the same seed and rules."""
    rng = random.Random(seed)
    t = Tournament(settings=replace(_settings(rules), rounds=rounds), players=_players(rng))
    score = {p: t.players[p].initial_score or 0.0 for p in t.players}
    met: set[frozenset[PlayerId]] = set()
    forced: set[PlayerId] = set()
    for number in range(1, rounds + 1):
        rnd = _play_round(t, number, rng, score, met, forced, last=number == rounds)
        t.rounds.append(rnd)
    return t


def _play_round(
    t: Tournament,
    number: int,
    rng: random.Random,
    score: dict[PlayerId, float],
    met: set[frozenset[PlayerId]],
    forced: set[PlayerId],
    last: bool,
) -> Round:
    byes = [Bye(p, ByeKind.VOLUNTARY) for p in t.players if number in t.players[p].bye_requests]
    playing = [p for p in t.players if number not in t.players[p].bye_requests]
    order = sorted(playing, key=lambda p: (-score[p], -(t.players[p].rating or 0.0), p))
    if len(order) % 2:
        bye = _forced_bye(order, forced)
        forced.add(bye)
        order.remove(bye)
        byes.append(Bye(bye, ByeKind.FORCED))
        score[bye] += 1.0
    games = []
    pairs = _pairs(order, met)
    for index, (a, b) in enumerate(pairs):
        result = _result(rng, (number, index), last and index == len(pairs) - 1)
        game = _game(t.players[a], t.players[b], t.settings, rng, result)
        met.add(frozenset((a, b)))
        for player in game.players:
            score[player] += result.points(game.color_of(player)) if result else 0.0
        games.append(replace(game, board=index + 1))
    return Round(number, tuple(games), tuple(byes))
