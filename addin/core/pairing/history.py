"""What earlier rounds tell the pairing: opponents, forced byes, colours, last floats.

Everything here is derived from ``model.Round`` records, never stored elsewhere: the
workbook is the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from addin.core.model import ByeKind, Color, PlayerId, Result, Round

Pair = frozenset[PlayerId]


def pair(a: PlayerId, b: PlayerId) -> Pair:
    """An unordered pair of players."""
    return frozenset((a, b))


@dataclass(frozen=True)
class History:
    """Facts about the rounds before the one being paired."""

    played: frozenset[Pair]
    """Every pair that has already met (criterion 1: never again)."""
    forced_byes: frozenset[PlayerId]
    """Players who already had a forced bye (criterion 2)."""
    colors: Mapping[PlayerId, tuple[Color, ...]]
    """Each player's colours, in round order (games only)."""
    last_float: Mapping[PlayerId, int]
    """+1 floated up, -1 floated down in the previous round; absent: no float."""
    balance: Mapping[PlayerId, int] = field(default_factory=dict)
    """Whites minus Blacks in even games (handicap games fix the colours)."""


def _points(result: Result | None, color: Color) -> float:
    """Points of a game towards the score; a missing result counts nothing yet."""
    return 0.0 if result is None else result.points(color)


def previous_round_points(rnd: Round) -> dict[PlayerId, float]:
    """McMahon points earned in ``rnd`` (protocol, Game Results; forced bye 1, voluntary 0)."""
    points: dict[PlayerId, float] = {}
    for bye in rnd.byes:
        points[bye.player] = 1.0 if bye.kind is ByeKind.FORCED else 0.0
    for game in rnd.games:
        points[game.white] = _points(game.result, Color.WHITE)
        points[game.black] = _points(game.result, Color.BLACK)
    return points


def _floats(rnd: Round, scores: Mapping[PlayerId, float]) -> dict[PlayerId, int]:
    """Who floated in ``rnd``, from the scores before this round minus that round's points.

    The higher-scored player of a game between different scores floated down, the other
    up (protocol, Odd-Numbered Groups). A game with a player whose score is unknown (a
    dropped player the caller gave no score for) counts as no float.
    """
    earned = previous_round_points(rnd)
    before = {p: scores[p] - earned.get(p, 0.0) for p in earned if p in scores}
    floats: dict[PlayerId, int] = {}
    for game in rnd.games:
        w, b = game.white, game.black
        if w not in before or b not in before or before[w] == before[b]:
            continue
        up, down = (w, b) if before[w] < before[b] else (b, w)
        floats[up], floats[down] = 1, -1
    return floats


def read_history(
    rounds: Iterable[Round], current_round: int, scores: Mapping[PlayerId, float]
) -> History:
    """Facts from the rounds numbered below ``current_round`` (later ones are ignored)."""
    earlier = sorted((r for r in rounds if r.number < current_round), key=lambda r: r.number)
    played: set[Pair] = set()
    forced: set[PlayerId] = set()
    colors: dict[PlayerId, list[Color]] = {}
    balance: dict[PlayerId, int] = {}
    for rnd in earlier:
        for game in rnd.games:
            if game.handicap == 0:
                balance[game.white] = balance.get(game.white, 0) + 1
                balance[game.black] = balance.get(game.black, 0) - 1
            played.add(pair(game.white, game.black))
            colors.setdefault(game.white, []).append(Color.WHITE)
            colors.setdefault(game.black, []).append(Color.BLACK)
        forced |= {b.player for b in rnd.byes if b.kind is ByeKind.FORCED}
    previous = next((r for r in earlier if r.number == current_round - 1), None)
    return History(
        played=frozenset(played),
        forced_byes=frozenset(forced),
        colors={p: tuple(c) for p, c in colors.items()},
        last_float=_floats(previous, scores) if previous is not None else {},
        balance=balance,
    )
