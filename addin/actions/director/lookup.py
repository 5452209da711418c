"""Finding and naming the players, games and requests an operation is about."""

from __future__ import annotations

from addin.actions.registry import Param, ParamKind
from addin.actions.session import ActionError
from addin.core.model import Game, Player, PlayerId, RequestKind, Round, Status, Tournament

PLAYER = Param("player", "the player's AGA #", ParamKind.INT, required=True)


def name_of(t: Tournament, pid: PlayerId) -> str:
    p = t.players.get(pid)
    return f"{p.name} ({pid})" if p else f"AGA # {pid}"


def find_player(t: Tournament, pid: object, option: str = "--player") -> Player:
    if pid is None:
        raise ActionError(f"{option} is required: the player's AGA #")
    player = t.players.get(int(pid))  # type: ignore[call-overload]
    if player is None:
        raise ActionError(f"{option}: AGA # {pid} is not in the Players sheet")
    return player


def find_active(t: Tournament, pid: object, option: str = "--player") -> Player:
    player = find_player(t, pid, option)
    if player.status is Status.DROPPED:
        raise ActionError(
            f"{name_of(t, player.aga_id)} is dropped: readmit them first "
            f"(readmit --player {player.aga_id})"
        )
    return player


def in_tournament(t: Tournament, number: int) -> int:
    if not 1 <= number <= t.settings.rounds:
        raise ActionError(
            f"round {number} is not a round of this {t.settings.rounds}-round tournament"
        )
    return number


def game_of(rnd: Round, pid: PlayerId) -> Game | None:
    return next((g for g in rnd.games if pid in g.players), None)


def seat(rnd: Round, game: Game) -> str:
    """``board 3 of round 2``, as messages say where a game is."""
    return f"board {game.board} of round {rnd.number}" if game.board else f"round {rnd.number}"


def break_first(rnd: Round, pid: PlayerId) -> str:
    return f"break the pair first (break-pair --round {rnd.number} --player {pid})"


def forced_partner(t: Tournament, pid: PlayerId, number: int | None) -> PlayerId | None:
    """Whom a Force request pairs ``pid`` with in round ``number``, if any."""
    for r in t.requests:
        if r.kind is RequestKind.FORCE and r.round == number and pid in (r.first, r.second):
            return r.second if r.first == pid else r.first
    return None
