"""A player's AGA number replaced everywhere the tournament holds it (a temporary 9xxxx
number swapped for the real one once the AGA has processed the new member's form)."""

from __future__ import annotations

from dataclasses import replace

from addin.core.model import Bye, PairRequest, PlayerId, Round, Tournament


def _swap(pid: PlayerId, old: PlayerId, new: PlayerId) -> PlayerId:
    return new if pid == old else pid


def _round(rnd: Round, old: PlayerId, new: PlayerId) -> Round:
    games = tuple(
        replace(g, white=_swap(g.white, old, new), black=_swap(g.black, old, new))
        if old in g.players
        else g
        for g in rnd.games
    )
    byes = tuple(Bye(new, b.kind) if b.player == old else b for b in rnd.byes)
    return replace(rnd, games=games, byes=byes)


def _request(r: PairRequest, old: PlayerId, new: PlayerId) -> PairRequest:
    return replace(r, first=_swap(r.first, old, new), second=_swap(r.second, old, new))


def renumbered(t: Tournament, old: PlayerId, new: PlayerId) -> Tournament:
    """``t`` with player ``old`` known as ``new`` in Players, every round and every request."""
    players = {
        (new if pid == old else pid): (replace(p, aga_id=new) if pid == old else p)
        for pid, p in t.players.items()
    }
    return replace(
        t,
        players=players,
        rounds=[_round(r, old, new) for r in t.rounds],
        requests=[_request(r, old, new) for r in t.requests],
    )
