"""The games and byes a round lost since it was stamped, found again from the stamp alone.

A Round sheet row deleted by hand takes a game (or a bye) out of a round that the Log
records as paired, with its pairing digest (``addin.core.consistency.stamp``). The journal's
copy of the workbook names the players who lost their game; where there is no journal (a
workbook copied without its ``.history`` folder, a demo, a window with no file), the digest
itself does: it covers every game's players, colours and handicap and every bye, so the
games and byes that, added back, give the stamped digest are the ones the round lost.

The search tries the players the round lacks now, most likely first: those who play both an
earlier and a later round, then those who play any other round, then all of them; each may
have been absent, had a bye, or played another of them at any colour and handicap. A budget
bounds it (a round that was also edited in other ways matches no addition at all); eight
hex digits make a chance match about one in four billion a try.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from addin.core.consistency import bye_key, digest_of, game_key
from addin.core.handicap import MAX_HANDICAP
from addin.core.model import Bye, ByeKind, Game, PlayerId, Round, Tournament

BUDGET = 100_000
"""Digests tried at most for one round."""

WORK = 3_000_000
"""Keys hashed at most for one round: a round of 1,000 games gets 3,000 tries (two lost
games take about 2,400), so the search stays under a second whatever the field."""


@dataclass(frozen=True)
class Lost:
    """What a round lost: the games (board unknown, no result) and byes to restore."""

    games: tuple[Game, ...]
    byes: tuple[Bye, ...]


class _Spent(Exception):
    """The budget is used up."""


def absent_from(t: Tournament, number: int) -> tuple[tuple[PlayerId, ...], ...]:
    """The players round ``number`` lacks, in the tiers the search tries: those who play an
    earlier and a later round, those who play any other round, then everyone else."""
    rnd = t.round(number)
    there = (rnd.paired_players() | {b.player for b in rnd.byes}) if rnd else set()
    seen: dict[PlayerId, set[int]] = {}
    for other in t.rounds:
        for pid in other.paired_players() | {b.player for b in other.byes}:
            seen.setdefault(pid, set()).add(other.number)
    absent = sorted(p for p in t.players if p not in there)
    between = tuple(
        p for p in absent if min(seen.get(p, {number})) < number < max(seen.get(p, {number}))
    )
    played = tuple(p for p in absent if p in seen)
    return between, played, tuple(absent)


def lost_since_stamp(
    rnd: Round, digest: str, tiers: Sequence[Sequence[PlayerId]], budget: int = BUDGET
) -> Lost | None:
    """The games and byes of the players in ``tiers`` that give ``rnd`` the stamped
    ``digest`` again; None when no addition within the budget does."""
    games = sorted(game_key(g) for g in rnd.games)
    byes = sorted(bye_key(b) for b in rnd.byes)
    left = [min(budget, WORK // (len(games) + len(byes) + 1))]
    tried: set[tuple[PlayerId, ...]] = set()
    for tier in tiers:
        players = tuple(tier)
        if not players or players in tried:
            continue
        tried.add(players)
        try:
            for added_games, added_byes in _additions(players, left):
                keys = games + [game_key(g) for g in added_games]
                if digest_of(keys, byes + [bye_key(b) for b in added_byes]) == digest:
                    return Lost(tuple(added_games), tuple(added_byes))
        except _Spent:
            return None
    return None


def _additions(
    players: tuple[PlayerId, ...], left: list[int]
) -> Iterator[tuple[list[Game], list[Bye]]]:
    """Every way ``players`` may have been in the round: each absent, on a bye of either
    kind, or in a game with a later one of them (either colour, any handicap)."""
    games: list[Game] = []
    byes: list[Bye] = []
    used: set[PlayerId] = set()

    def place(i: int) -> Iterator[tuple[list[Game], list[Bye]]]:
        while i < len(players) and players[i] in used:
            i += 1
        if i == len(players):
            left[0] -= 1
            if left[0] < 0:
                raise _Spent
            yield games, byes
            return
        p = players[i]
        yield from place(i + 1)  # absent
        for kind in ByeKind:
            byes.append(Bye(p, kind))
            yield from place(i + 1)
            byes.pop()
        used.add(p)
        for q in players[i + 1 :]:
            if q in used:
                continue
            used.add(q)
            for handicap in range(MAX_HANDICAP + 1):
                for white, black in ((p, q), (q, p)):
                    games.append(Game(white, black, handicap))
                    yield from place(i + 1)
                    games.pop()
            used.discard(q)
        used.discard(p)

    yield from place(0)
