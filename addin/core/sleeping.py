"""Sleeping players (BGA McMahon functional specification, 4.3).

"A player who misses a round (with the tournament director's consent) sleeps for that round.
For the purpose of producing the pairing, a sleeping player is deemed to have achieved an
average score for each round missed. In order to prevent biasing the draw by matching
players who sleep, an extra McMahon point is awarded after every two rounds missed instead of
a half point for every round missed."

A round slept is a voluntary bye. The bonus counts for the pairing only: the standings and
the AGA report keep the AGA's nothing for a voluntary bye (the export says so).

"In more important tournaments, players in the top McMahon group (or Supergroup if there is
one) are not allowed to sleep for any round. Sleeping players who would be in the top group
are removed by reducing their initial McMahon score by one or possibly two points":
:func:`top_group_drop` is one point below the bar (two from the supergroup).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from addin.core.european import Sleeping
from addin.core.model import ByeKind, Game, PlayerId, Round, Settings, Status, Tournament

NOTE = "slept"


def rounds_slept(t: Tournament, before: int) -> dict[PlayerId, int]:
    """Voluntary byes of each player in the rounds before ``before``."""
    slept: dict[PlayerId, int] = {}
    for rnd in t.rounds:
        if rnd.number < before:
            for bye in rnd.byes:
                if bye.kind is ByeKind.VOLUNTARY:
                    slept[bye.player] = slept.get(bye.player, 0) + 1
    return slept


def pairing_bonus(t: Tournament, number: int) -> dict[PlayerId, float]:
    """Points each sleeper's pairing score gets for round ``number``: one per two rounds slept
    (nobody under the AGA option)."""
    if t.settings.options.sleeping is Sleeping.NOTHING:
        return {}
    return {p: float(n // 2) for p, n in rounds_slept(t, number).items() if n // 2}


def with_bonus(
    scores: Mapping[PlayerId, float], bonus: Mapping[PlayerId, float]
) -> dict[PlayerId, float]:
    """The pairing scores: McMahon scores plus the sleeping bonus."""
    return {p: s + bonus.get(p, 0.0) for p, s in scores.items()}


def noted(rnd: Round, t: Tournament, bonus: Mapping[PlayerId, float]) -> Round:
    """``rnd`` with a note on every game of a player whose pairing score had a bonus."""
    if not bonus:
        return rnd
    slept = rounds_slept(t, rnd.number)
    games = []
    for game in rnd.games:
        lines = [
            f"{t.players[p].name} ({p}) paired {bonus[p]:g} point(s) higher: {NOTE} "
            f"{slept[p]} round(s), ½ each for the pairing (BGA 4.3)"
            for p in game.players
            if p in bonus and p in t.players
        ]
        games.append(_with_notes(game, lines) if lines else game)
    return Round(rnd.number, tuple(games), rnd.byes)


def _with_notes(game: Game, lines: list[str]) -> Game:
    notes = "; ".join(filter(None, [game.notes, *lines]))
    return Game(game.white, game.black, game.handicap, game.komi, game.result, game.board, notes)


def top_group_drop(settings: Settings, requests: Iterable[int]) -> bool:
    """Whether a top-group player with these bye requests leaves the top group."""
    return settings.options.sleeping is Sleeping.HALF_NOT_TOP and any(True for _ in requests)


def sleeping_in_top_group(t: Tournament, number: int) -> dict[PlayerId, list[int]]:
    """Players who asked to sleep in round ``number`` or later but still start in the top
    group, with those rounds: ``bands`` moves such a player one point below the bar, so the
    request came after it (spec 4.3, ``HALF_NOT_TOP`` only). A round already paired is past
    warning about."""
    if t.settings.options.sleeping is not Sleeping.HALF_NOT_TOP or not t.bands:
        return {}
    top = min(t.bands, key=lambda band: band.number).initial_score
    if top is None:
        return {}
    found = {}
    for p in t.players.values():
        coming = sorted(r for r in p.bye_requests if r >= number)
        if (
            p.status is Status.ACTIVE
            and p.initial_score is not None
            and p.initial_score >= top
            and top_group_drop(t.settings, coming)
        ):
            found[p.aga_id] = coming
    return found
