"""Who took part: the players standings rank and the AGA report lists.

A player who never came is no participant: Status Not arrived (pre-registered, never
checked in) or Dropped (what a TD does with a no-show), and in no round at all (no game,
no bye). Such a player gets no place in the standings, the cross table, the wall reports or
the published site, and is not reported to the AGA; they are listed apart as "did not
arrive" where the TD needs to see them. The EGD report already left out who never played
(``addin.formats.egd_h9.listed_players``, as OpenGotha's does).

A player who withdrew after playing stays ranked with the rounds they played (missed
rounds count as absences, as before). So does a player who is Active without a game yet
(checked in, waiting for the next round), and anyone who had a bye: a bye is in the round's
record, and the AGA's XML report carries it. Every path that ranks or reports players asks
this module, so they all agree.

Leaving a no-show out moves nobody else: they have no game, so they are nobody's opponent
and count in nobody's SOS or SODOS, and their own phantom (bye) points only ever fed their
own tiebreaks.
"""

from __future__ import annotations

from dataclasses import replace

from addin.core.model import PlayerId, Status, Tournament

__all__ = ["ABSENT_STATUSES", "in_rounds", "no_show_text", "no_shows", "reported"]

ABSENT_STATUSES = frozenset({Status.NOT_ARRIVED, Status.DROPPED})
"""Statuses of players who are not here; with no round played, they never came."""


def in_rounds(t: Tournament) -> set[PlayerId]:
    """Every player a round names: in a game (played or not) or given a bye."""
    seen: set[PlayerId] = set()
    for rnd in t.rounds:
        for g in rnd.games:
            seen.update(g.players)
        seen.update(b.player for b in rnd.byes)
    return seen


def no_shows(t: Tournament) -> list[PlayerId]:
    """The registered players who never came (Not arrived or Dropped, in no round), in the
    Players sheet's order: ranked nowhere, reported to nobody."""
    absent = [pid for pid, p in t.players.items() if p.status in ABSENT_STATUSES]
    if not absent:
        return []
    seen = in_rounds(t)
    return [pid for pid in absent if pid not in seen]


def reported(t: Tournament) -> Tournament:
    """``t`` without its no-shows: the tournament as reported to a rating office."""
    gone = set(no_shows(t))
    if not gone:
        return t
    players = {pid: p for pid, p in t.players.items() if pid not in gone}
    return replace(t, players=players)


def no_show_text(t: Tournament, why: str = "not ranked", limit: int = 20) -> str:
    """``Did not arrive (not ranked): 2 players: Lee, Ann (1234), Kim, Bo (5678,
    withdrawn)``; "" when everybody came. ``why``: what it means where it is said."""
    gone = no_shows(t)
    if not gone:
        return ""

    def named(pid: PlayerId) -> str:
        p = t.players[pid]
        withdrawn = ", withdrawn" if p.status is Status.DROPPED else ""
        return f"{p.name} ({pid}{withdrawn})"

    names = ", ".join(named(pid) for pid in gone[:limit])
    more = f" and {len(gone) - limit} more" if len(gone) > limit else ""
    count = "1 player" if len(gone) == 1 else f"{len(gone)} players"
    return f"Did not arrive ({why}): {count}: {names}{more}"
