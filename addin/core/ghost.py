"""No byes: a ghost player makes the numbers even (BGA McMahon functional specification, 7.1).

"The organisers must ensure that there is a 'ghost' player able to play to make up even
numbers as required." The ghost is a registered player the Tournament sheet names; the
engine pairs everyone else, and when that leaves a forced bye the ghost plays its recipient
instead, so the choice of who meets the ghost follows the bye rules (the lowest score group;
never the same player twice, as a second forced bye is never given). Voluntary byes stay byes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from addin.core.european import OddPlayer
from addin.core.handicap import game_conditions, scheme_stones, top_band_game
from addin.core.model import (
    Bye,
    ByeKind,
    Game,
    HandicapBasis,
    Player,
    PlayerId,
    Round,
    Settings,
    Status,
    Tournament,
)
from addin.core.ratings import entry_rating, rating_gap

GHOST_NOTE = "Ghost game: no byes (BGA 7.1), the ghost player makes the numbers even"


def ghost_of(t: Tournament) -> Player | None:
    """The ghost player, when the settings ask for one and name an active registered player."""
    s = t.settings
    if s.options.odd_player is not OddPlayer.GHOST or s.ghost_player is None:
        return None
    ghost = t.players.get(s.ghost_player)
    return ghost if ghost is not None and ghost.status is Status.ACTIVE else None


def ghost_problem(t: Tournament, number: int) -> str | None:
    """Why a ghost game is impossible this round, when the settings ask for one."""
    s = t.settings
    if s.options.odd_player is not OddPlayer.GHOST:
        return None
    if s.ghost_player is None:
        return "no ghost player is named (Tournament sheet, Ghost player (AGA #))"
    ghost = t.players.get(s.ghost_player)
    if ghost is None:
        return f"the ghost player's AGA # {s.ghost_player} is not in the Players sheet"
    if ghost.status is not Status.ACTIVE:
        return f"the ghost player {ghost.name} is dropped"
    if number in ghost.bye_requests:
        return f"the ghost player {ghost.name} asked for a bye in round {number}"
    return None


def _stronger(a: Player, b: Player, scores: Mapping[PlayerId, float], s: Settings) -> bool:
    """True when ``a`` takes White: the stronger by the handicap's basis (rating, or score)."""
    if s.handicap_basis is HandicapBasis.MMS and scores.get(a.aga_id) != scores.get(b.aga_id):
        return scores.get(a.aga_id, 0.0) > scores.get(b.aga_id, 0.0)
    return rating_gap(entry_rating(a), entry_rating(b)) >= 0


def ghost_game(
    player: Player, ghost: Player, scores: Mapping[PlayerId, float], s: Settings, board: int
) -> Game:
    """The ghost's game with ``player``: colours, handicap and komi as any game's."""
    white, black = (player, ghost) if _stronger(player, ghost, scores, s) else (ghost, player)
    ratings = entry_rating(white), entry_rating(black)
    pair_scores = scores.get(white.aga_id, 0.0), scores.get(black.aga_id, 0.0)
    top = top_band_game(s, *(p.above_bar or p.effective_band == 1 for p in (white, black)))
    if scheme_stones(*ratings, s, top, pair_scores) == 0 and white is ghost:
        white, black = player, ghost  # an even game: the player takes White
        ratings, pair_scores = ratings[::-1], pair_scores[::-1]
    conditions = game_conditions(*ratings, s, top, pair_scores)
    return Game(
        white.aga_id,
        black.aga_id,
        conditions.handicap,
        conditions.komi,
        None,
        board,
        f"{GHOST_NOTE}: {ghost.name} ({ghost.aga_id}), the ghost, against {player.name} "
        f"({player.aga_id}), instead of a bye",
    )


def with_ghost(
    rnd: Round, t: Tournament, scores: Mapping[PlayerId, float]
) -> tuple[Round, PlayerId | None]:
    """``rnd`` with its forced bye turned into a game against the ghost player.

    Returns the round and who plays the ghost (``None``: no forced bye, or no ghost).
    """
    ghost = ghost_of(t)
    forced = [b for b in rnd.byes if b.kind is ByeKind.FORCED]
    if ghost is None or not forced or ghost_problem(t, rnd.number) is not None:
        return rnd, None
    bye = forced[0]
    board = max((g.board or 0 for g in rnd.games), default=0) + 1
    game = ghost_game(t.players[bye.player], ghost, scores, t.settings, board)
    byes = tuple(b for b in rnd.byes if b is not bye)
    return replace(rnd, games=(*rnd.games, game), byes=byes), bye.player


def ghost_games(t: Tournament) -> list[tuple[int, Game]]:
    """(round, game) of every game the ghost player played."""
    ghost = t.settings.ghost_player
    if ghost is None or t.settings.options.odd_player is not OddPlayer.GHOST:
        return []
    return [(r.number, g) for r in t.rounds for g in r.games if ghost in g.players]


def as_byes(history: Sequence[Round], t: Tournament) -> tuple[Round, ...]:
    """The rounds as the pairing's history sees them: a ghost game is the forced bye it
    replaced, so its player is not chosen for the ghost again (no second forced bye)."""
    ghost = t.settings.ghost_player
    if ghost_of(t) is None or ghost is None:
        return tuple(history)
    rounds = []
    for rnd in history:
        games = [g for g in rnd.games if ghost in g.players]
        if not games:
            rounds.append(rnd)
            continue
        byes = tuple(Bye(g.opponent_of(ghost), ByeKind.FORCED) for g in games)
        kept = tuple(g for g in rnd.games if ghost not in g.players)
        rounds.append(replace(rnd, games=kept, byes=(*rnd.byes, *byes)))
    return tuple(rounds)
