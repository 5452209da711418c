"""Operations on a paired round's games: ``break-pair``, ``make-pair``, ``set-game``,
``result``."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director.desk import (
    break_first,
    check_warnings,
    find_active,
    find_player,
    finish,
    game_of,
    in_tournament,
    name_of,
    open_desk,
    seat,
    with_round,
    write_round,
)
from addin.actions.registry import ParamKind, action, param
from addin.actions.sections import ROUNDS, SETTLED
from addin.core import consistency
from addin.core.handicap import (
    HANDICAP_KOMI,
    MAX_HANDICAP,
    GameConditions,
    game_conditions,
    top_band_game,
)
from addin.core.limits import komi_problem, shown
from addin.core.model import Game, Player, Result, Round, Tournament
from addin.core.ratings import RatingError, entry_rating
from addin.core.results import parse_result
from addin.core.scoring import last_round, mcmahon_scores

EVERY_RULE = tuple(consistency.Rule)
"""Changing who plays whom, or colours, can break any rule of the list."""


RESULT_RULES = (consistency.Rule.FORFEIT,)
"""A result can make a later game one after a forfeit; the floats it moves in retrospect
were paired on the scores of the time and are not asked about."""


def _round_number(t: Tournament, number: int | None) -> int:
    """The round asked for, or the latest round paired."""
    if number is not None:
        return in_tournament(t, number)
    if not t.rounds:
        raise ActionError("no round is paired yet")
    return last_round(t)


def _paired(t: Tournament, number: int | None) -> Round:
    n = _round_number(t, number)
    rnd = t.round(n)
    if rnd is None:
        paired = ", ".join(str(r.number) for r in t.rounds) or "none"
        raise ActionError(f"round {n} is not paired (rounds paired: {paired})")
    return rnd


def _on_board(rnd: Round, board: int) -> Game:
    game = next((g for g in rnd.games if g.board == board), None)
    if game is None:
        boards = ", ".join(str(g.board) for g in rnd.games if g.board is not None) or "none"
        raise ActionError(f"round {rnd.number} has no board {board} (boards: {boards})")
    return game


def _where(rnd: Round, game: Game) -> str:
    return f"round {rnd.number}, board {game.board}" if game.board else f"round {rnd.number}"


def impossible_jigo(rnd: Round, game: Game, result: Result | None) -> list[str]:
    """A jigo where the komi has a half point (7.5, 0.5) cannot have happened: a warning."""
    if result is not Result.JIGO or float(game.komi).is_integer():
        return []
    return [
        f"{_where(rnd, game)}: Jigo, but the komi is {game.komi:g}: a game with a half point "
        "of komi cannot end in a jigo; is the result right?"
    ]


def replaced_result(t: Tournament, rnd: Round, game: Game, result: Result | None) -> list[str]:
    """A result already recorded, about to be replaced or cleared: a warning naming the
    board, its players, the result there and the one that replaces it (in any round: the
    last one's results are as much the players' as an earlier one's)."""
    if game.result is None or game.result == result:
        return []
    new = result.value if result else "no result (blank)"
    return [
        f"{_where(rnd, game)}: {_pair_text(t, game)} already has a result, "
        f"{game.result.value}; it is replaced by {new}"
    ]


def _pair_text(t: Tournament, game: Game) -> str:
    return f"{name_of(t, game.white)} (White) - {name_of(t, game.black)} (Black)"


def _number(text: object, option: str) -> float:
    try:
        value = float(str(text))
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ActionError(f"{option} {shown(text)} is not a number")
    return value


def _handicap(stones: int) -> int:
    if not 0 <= stones <= MAX_HANDICAP:
        raise ActionError(f"--handicap {stones} is not between 0 and {MAX_HANDICAP}")
    return stones


def _standard_komi(t: Tournament, stones: int) -> float:
    return HANDICAP_KOMI if stones > 0 else t.settings.komi


@dataclass(frozen=True, kw_only=True)
class BreakPairParams:
    round: int | None = param("round number (default: the latest round paired)")
    board: int | None = param("board number")
    player: int | None = param("AGA # of either player (instead of --board)")


@action(
    "break-pair",
    "Break a pair",
    "remove a game from a paired round (by board or by player): both players become unpaired",
    BreakPairParams,
    reads=SETTLED,
    writes=ROUNDS,
)
def break_pair(snapshot: Snapshot, params: BreakPairParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    rnd = _paired(t, params.round)
    game = _chosen_game(t, rnd, params.board, params.player)
    new_round = replace(rnd, games=tuple(g for g in rnd.games if g != game))
    after = with_round(t, new_round)
    warnings = []
    if game.result is not None:
        warnings.append(
            f"{_where(rnd, game)}: {name_of(t, game.white)} and {name_of(t, game.black)} already "
            f"have a result ({game.result.value}); breaking the pair deletes it"
        )
    draft.warn(warnings + check_warnings(desk, after))
    write_round(draft, desk, new_round)
    finish(
        draft,
        desk,
        after,
        f"Broke the pair on {seat(rnd, game)}: {_pair_text(t, game)}; both are unpaired",
    )
    return draft.change


def _chosen_game(t: Tournament, rnd: Round, board: int | None, player: int | None) -> Game:
    if (board is None) == (player is None):
        raise ActionError("give either --board or --player to say which pair to break")
    if board is not None:
        return _on_board(rnd, board)
    p = find_player(t, player)
    game = game_of(rnd, p.aga_id)
    if game is None:
        raise ActionError(f"{name_of(t, p.aga_id)} is not paired in round {rnd.number}")
    return game


@dataclass(frozen=True, kw_only=True)
class MakePairParams:
    round: int | None = param("round number (default: the latest round paired)")
    white: int = param("AGA # of the player taking White", required=True)
    black: int = param("AGA # of the player taking Black", required=True)
    handicap: int | None = param(f"handicap stones, 0 to {MAX_HANDICAP}")
    komi: str | None = param("komi, points White receives (e.g. 7.5, 0.5, -7.5)")


@action(
    "make-pair",
    "Make a pair",
    "pair two unpaired players by hand in a paired round (handicap and komi from the "
    "ratings unless given)",
    MakePairParams,
    reads=SETTLED,
    writes=ROUNDS,
)
def make_pair(snapshot: Snapshot, params: MakePairParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    rnd = _paired(t, params.round)
    white = find_active(t, params.white, "--white")
    black = find_active(t, params.black, "--black")
    if white.aga_id == black.aga_id:
        raise ActionError(
            f"a player cannot play themself: AGA # {white.aga_id} is both --white and --black"
        )
    for p in (white, black):
        game = game_of(rnd, p.aga_id)
        if game is not None:
            raise ActionError(
                f"{name_of(t, p.aga_id)} already plays on {seat(rnd, game)}: "
                + break_first(rnd, p.aga_id)
            )
    handicap, komi = _conditions(t, white, black, params.handicap, params.komi, rnd.number)
    board = max((g.board or 0 for g in rnd.games), default=0) + 1
    game = Game(white.aga_id, black.aga_id, handicap, komi, None, board, "Paired by the TD")
    cancelled = [b for b in rnd.byes if b.player in game.players]
    new_round = replace(
        rnd, games=(*rnd.games, game), byes=tuple(b for b in rnd.byes if b not in cancelled)
    )
    after = with_round(t, new_round)
    warnings = [
        f"round {rnd.number}: {name_of(t, b.player)} has a {b.kind.value.lower()} bye recorded "
        "for the round; pairing them cancels it"
        for b in cancelled
    ]
    draft.warn(warnings + check_warnings(desk, after, EVERY_RULE))
    write_round(draft, desk, new_round)
    finish(
        draft,
        desk,
        after,
        f"Paired {_pair_text(t, game)} on board {board} of round {rnd.number}: "
        f"handicap {handicap}, komi {komi:g}",
    )
    return draft.change


def _conditions(
    t: Tournament, white: Player, black: Player, handicap: int | None, komi: str | None, number: int
) -> GameConditions:
    """The TD's handicap and komi, or those the ratings and settings give."""
    if handicap is not None:
        stones = _handicap(handicap)
        value = _number(komi, "--komi") if komi is not None else _standard_komi(t, stones)
        return GameConditions(stones, value)
    top = top_band_game(t.settings, *(p.above_bar or p.effective_band == 1 for p in (white, black)))
    try:
        ratings = entry_rating(white), entry_rating(black)
        before = mcmahon_scores(
            replace(t, rounds=[r for r in t.rounds if r.number < number]), number - 1
        )
        scores = before.get(white.aga_id, 0.0), before.get(black.aga_id, 0.0)
        conditions = game_conditions(*ratings, t.settings, top, scores)
    except RatingError as err:
        raise ActionError(f"cannot work out the handicap: {err}; give --handicap") from err
    except ValueError as err:
        raise ActionError(f"{err}: swap --white and --black, or give --handicap yourself") from err
    if komi is not None:
        return GameConditions(conditions.handicap, _number(komi, "--komi"))
    return conditions


_SWAPPED = {
    Result.WHITE_WINS: Result.BLACK_WINS,
    Result.BLACK_WINS: Result.WHITE_WINS,
    Result.WHITE_WINS_BY_FORFEIT: Result.BLACK_WINS_BY_FORFEIT,
    Result.BLACK_WINS_BY_FORFEIT: Result.WHITE_WINS_BY_FORFEIT,
}
"""A result seen from the other side: the same player still wins when colours swap."""


@dataclass(frozen=True, kw_only=True)
class SetGameParams:
    round: int | None = param("round number (default: the latest round paired)")
    board: int = param("board number", required=True)
    handicap: int | None = param(f"handicap stones, 0 to {MAX_HANDICAP}")
    komi: str | None = param("komi, points White receives (e.g. 7.5, 0.5, -7.5)")
    swap_colours: bool = param("give White to Black and Black to White", ParamKind.FLAG)


@action(
    "set-game",
    "Adjust a game",
    "change a game's handicap, komi or colours (the TD is sovereign; the winner stays "
    "the winner when colours swap)",
    SetGameParams,
    reads=SETTLED,
    writes=ROUNDS,
)
def set_game(snapshot: Snapshot, params: SetGameParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    rnd = _paired(t, params.round)
    game = _on_board(rnd, params.board)
    handicap, komi = params.handicap, params.komi
    swap = bool(params.swap_colours)
    if handicap is None and komi is None and not swap:
        raise ActionError("nothing to change: give --handicap, --komi or --swap-colours")
    new = game
    if swap:
        result = _SWAPPED.get(game.result, game.result) if game.result else None
        new = replace(new, white=game.black, black=game.white, result=result)
    if handicap is not None:
        stones = _handicap(handicap)
        new = replace(new, handicap=stones, komi=_standard_komi(t, stones))
    if komi is not None:
        value = _number(komi, "--komi")
        if komi_problem(value):
            raise ActionError(f"--komi: {komi_problem(value)}")
        new = replace(new, komi=value)
    if new == game:
        raise ActionError(f"{_where(rnd, game)} already has these conditions: nothing to change")
    new_round = replace(rnd, games=tuple(new if g == game else g for g in rnd.games))
    after = with_round(t, new_round)
    warnings = []
    if game.result is not None:
        warnings.append(
            f"{_where(rnd, game)}: {name_of(t, game.white)} and {name_of(t, game.black)} already "
            f"have a result ({game.result.value}); the game's conditions change after it"
        )
    draft.warn(warnings + check_warnings(desk, after, EVERY_RULE))
    write_round(draft, desk, new_round)
    finish(draft, desk, after, f"{_where(rnd, game)}: {_changes(t, game, new)}")
    return draft.change


def _changes(t: Tournament, old: Game, new: Game) -> str:
    parts = []
    if (old.white, old.black) != (new.white, new.black):
        parts.append(f"colours swapped, now {_pair_text(t, new)}")
    if old.handicap != new.handicap:
        parts.append(f"handicap {old.handicap} -> {new.handicap}")
    if old.komi != new.komi:
        parts.append(f"komi {old.komi:g} -> {new.komi:g}")
    if old.result != new.result and old.result and new.result:
        parts.append(f"result {old.result.value} -> {new.result.value} (same winner)")
    return "; ".join(parts)


@dataclass(frozen=True, kw_only=True)
class ResultParams:
    round: int | None = param("round number (default: the latest round paired)")
    board: int = param("board number", required=True)
    result: str = param(
        "the result: White wins, Black wins, White wins by forfeit, Black wins by forfeit, "
        "Jigo, No result, Double forfeit (or W, B, WF, BF, jigo, B+R, W+3.5); blank clears it",
        required=True,
    )
    if_blank: bool = param(
        "write it only where the game has no result yet: one already there stands (a "
        "results desk entering slips never changes a result)",
        ParamKind.FLAG,
        asked=False,
    )


@action(
    "result",
    "Record a result",
    "record or correct a game's result; replacing or clearing a result already there, or "
    "changing an earlier round, is asked to be confirmed",
    ResultParams,
    reads=SETTLED,
    writes=ROUNDS,
)
def record_result(snapshot: Snapshot, params: ResultParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    rnd = _paired(t, params.round)
    game = _on_board(rnd, params.board)
    try:
        result = parse_result(str(params.result or ""))
    except ValueError as err:
        raise ActionError(f"--result: {err}") from err
    if params.if_blank and game.result is not None:
        same = "the same result" if result == game.result else "a different result"
        raise ActionError(
            f"{_where(rnd, game)}: {_pair_text(t, game)} already has its result, "
            f"{game.result.value}, which stands ({same} was entered: only the TD changes "
            "a result)"
        )
    if result == game.result:
        shown = result.value if result else "no result"
        raise ActionError(f"{_where(rnd, game)} already has {shown}: nothing to change")
    new = replace(game, result=result)
    new_round = replace(rnd, games=tuple(new if g == game else g for g in rnd.games))
    after = with_round(t, new_round)
    latest = last_round(t)
    warnings = replaced_result(t, rnd, game, result)
    if rnd.number < latest:
        warnings.append(
            f"round {rnd.number} is not the latest round: round {latest} is already paired, "
            f"with the old result; every McMahon score from round {rnd.number} on changes"
        )
    warnings += impossible_jigo(rnd, game, result)
    draft.warn(warnings + check_warnings(desk, after, RESULT_RULES))
    write_round(draft, desk, new_round)
    was = game.result.value if game.result else "blank"
    finish(
        draft,
        desk,
        after,
        f"{_where(rnd, game)}: {_pair_text(t, game)}: "
        f"{result.value if result else 'no result'} (was {was})",
    )
    return draft.change
