"""The TD's manual operations (interface document: "Manual pairings" and "Recording Results").

After a round is paired: ``break-pair``, ``make-pair``, ``bye`` (a voluntary bye for an
unpaired player), ``drop`` (an unpaired player), ``set-game`` (handicap, komi, colours);
``unpair`` (addin.actions.pairing) undoes the whole pairing.
Before a round is paired: ``force`` and ``prohibit`` (the Requests sheet), ``bye`` and
``volunteer`` for a future round (the Players sheet's R columns), ``drop`` and ``readmit``.
Before a new round: ``set-rating`` and ``set-band``; the initial McMahon score follows the
bands, and with it every McMahon score.
Any time: ``result`` records or corrects a result, of an earlier round too.

Every operation reads the whole workbook and refuses bad input with a clear message before
writing anything. It asks the TD to confirm the interface document's warnings: the rule
breaks its own change makes, and those in rounds the TD edited by hand since the last check
(addin.core.consistency). Then it writes only the rows it changes, stamps the rounds as they
now stand in the Log (so that the next action notices a hand edit), and logs what it did.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from types import ModuleType

from addin.actions.bands import band_values, compute_banding, rated_players
from addin.actions.registry import Param, ParamKind, action
from addin.actions.session import ActionError, Session
from addin.core import consistency
from addin.core.bands import Banding
from addin.core.handicap import HANDICAP_KOMI, MAX_HANDICAP, GameConditions, game_conditions
from addin.core.model import (
    Bye,
    ByeKind,
    Game,
    PairRequest,
    Player,
    PlayerId,
    RequestKind,
    Result,
    Round,
    Status,
    Tournament,
)
from addin.core.ratings import RatingError, entry_rating, parse_rating
from addin.core.results import parse_result
from addin.core.scoring import last_round, mcmahon_scores
from addin.workbook import book
from addin.workbook.gateway import Gateway, LogEntry, Row, TableData
from addin.workbook.layout import BANDS, LOG, REQUESTS, byes_table, games_table, players_table

ROUND = Param("round", "round number (default: the latest round paired)", ParamKind.INT)
ROUND_REQUIRED = Param("round", "round number", ParamKind.INT, required=True)
BOARD = Param("board", "board number", ParamKind.INT, required=True)
PLAYER = Param("player", "the player's AGA #", ParamKind.INT, required=True)
HANDICAP = Param("handicap", f"handicap stones, 0 to {MAX_HANDICAP}", ParamKind.INT)
KOMI = Param("komi", "komi, points White receives (e.g. 7.5, 0.5, -7.5)")

EVERY_RULE = tuple(consistency.Rule)
"""Changing who plays whom, or colours, can break any rule of the list."""
RESULT_RULES = (consistency.Rule.FORFEIT,)
"""A result can make a later game one after a forfeit; the floats it moves in retrospect
were paired on the scores of the time and are not asked about."""

MAX_NAMED = 5
"""Players named in one warning; the rest are counted."""


# --- checking the rounds: also for pair and standings -------------------------------------


def log_lines(gw: Gateway) -> list[consistency.LogLine]:
    """(level, message) of every Log row, oldest first."""
    return [(str(r.get("level", "")), str(r.get("message", ""))) for r in gw.read_table(LOG).rows]


def edited_round_warnings(gw: Gateway, t: Tournament) -> list[str]:
    """Rule breaks in rounds edited by hand since the last check that the TD has not accepted."""
    return consistency.warnings_to_confirm(t, log_lines(gw))


def stamp_pairings(session: Session, rounds: Iterable[Round]) -> None:
    """Log the pairings as they now stand, so that the next action notices hand edits."""
    rounds = list(rounds)
    last = consistency.last_stamp(m for _, m in log_lines(session.gw))
    if rounds and last != _pairing_digests(rounds):
        session.log.append(
            LogEntry("Action", session.action, f"Checked the {consistency.stamp(rounds)}")
        )


def _pairing_digests(rounds: Iterable[Round]) -> dict[int, str]:
    return {r.number: consistency.pairing_digest(r) for r in rounds}


def _standings() -> ModuleType:
    """addin.actions.standings, imported when used: it imports this module for its checks."""
    from addin.actions import standings

    return standings


@dataclass
class Desk:
    """What every operation starts from: the workbook as read, and its Log."""

    b: book.Book
    log: list[consistency.LogLine]

    @property
    def t(self) -> Tournament:
        return self.b.tournament


def _open(session: Session) -> Desk:
    b = book.read_book(session.gw)
    session.require_no_problems(b.problems, "fix these problems first")
    return Desk(b, log_lines(session.gw))


def _checks(
    session: Session,
    desk: Desk,
    after: Tournament | None = None,
    own: Collection[consistency.Rule] = (),
) -> list[str]:
    """Warnings besides the operation's own: breaks of the ``own`` rules that its change of
    the rounds makes (``after``), rule breaks in rounds edited by hand, and earlier results
    changed by hand."""
    standings = _standings()
    changed = standings.changed_earlier_rounds(desk.t, standings.last_logged_digests(session.gw))
    results = [
        f"results of round {n} changed after a later round was paired: "
        "every score and tiebreak after it is recomputed"
        for n in changed
    ]
    if after is None:
        return results + consistency.warnings_to_confirm(desk.t, desk.log)
    rules = consistency.warnings_to_confirm(after, desk.log, desk.t, own)
    return results + rules


def _finish(session: Session, desk: Desk, after: Tournament, message: str) -> None:
    """Stamp the rounds as they now stand, then log ``message``.

    The stamp holds every round's pairing digest and, in the form the standings read, the
    results digest of every round but the latest: results of the round in play are still
    coming in, and only a change to an earlier round's results is worth a question.
    """
    standings = _standings()
    latest = last_round(after)
    results = {n: d for n, d in standings.digests(after).items() if n < latest}
    logged = standings.last_logged_digests(session.gw)
    pairings = _pairing_digests(after.rounds)
    stamped = consistency.last_stamp(m for _, m in desk.log)
    if pairings and (stamped != pairings or any(logged.get(n) != d for n, d in results.items())):
        text = f"Checked the {consistency.stamp(after.rounds)}"
        if results:
            text += "; results digest " + " ".join(f"{n}:{d}" for n, d in results.items())
        session.log.append(LogEntry("Action", session.action, text))
    session.done(message)


# --- looking things up --------------------------------------------------------------------


def _name(t: Tournament, pid: PlayerId) -> str:
    p = t.players.get(pid)
    return f"{p.name} ({pid})" if p else f"AGA # {pid}"


def _player(t: Tournament, pid: object, option: str = "--player") -> Player:
    if pid is None:
        raise ActionError(f"{option} is required: the player's AGA #")
    player = t.players.get(int(pid))  # type: ignore[call-overload]
    if player is None:
        raise ActionError(f"{option}: AGA # {pid} is not in the Players sheet")
    return player


def _active(t: Tournament, pid: object, option: str = "--player") -> Player:
    player = _player(t, pid, option)
    if player.status is Status.DROPPED:
        raise ActionError(
            f"{_name(t, player.aga_id)} is dropped: readmit them first "
            f"(readmit --player {player.aga_id})"
        )
    return player


def _round_number(t: Tournament, number: object) -> int:
    """The round asked for, or the latest round paired."""
    if number is not None:
        return int(number)  # type: ignore[call-overload]
    if not t.rounds:
        raise ActionError("no round is paired yet")
    return last_round(t)


def _paired(t: Tournament, number: object) -> Round:
    n = _round_number(t, number)
    rnd = t.round(n)
    if rnd is None:
        paired = ", ".join(str(r.number) for r in t.rounds) or "none"
        raise ActionError(f"round {n} is not paired (rounds paired: {paired})")
    return rnd


def _in_tournament(t: Tournament, number: int) -> int:
    if not 1 <= number <= t.settings.rounds:
        raise ActionError(
            f"round {number} is not a round of this {t.settings.rounds}-round tournament"
        )
    return number


def _on_board(rnd: Round, board: object) -> Game:
    game = next((g for g in rnd.games if g.board == board), None)
    if game is None:
        boards = ", ".join(str(g.board) for g in rnd.games if g.board is not None) or "none"
        raise ActionError(f"round {rnd.number} has no board {board} (boards: {boards})")
    return game


def _game_of(rnd: Round, pid: PlayerId) -> Game | None:
    return next((g for g in rnd.games if pid in g.players), None)


def _bye_of(rnd: Round, pid: PlayerId) -> Bye | None:
    return next((b for b in rnd.byes if b.player == pid), None)


def _where(rnd: Round, game: Game) -> str:
    return f"round {rnd.number}, board {game.board}" if game.board else f"round {rnd.number}"


def _seat(rnd: Round, game: Game) -> str:
    """``board 3 of round 2``, as messages say where a game is."""
    return f"board {game.board} of round {rnd.number}" if game.board else f"round {rnd.number}"


def _break_first(rnd: Round, pid: PlayerId) -> str:
    return f"break the pair first (break-pair --round {rnd.number} --player {pid})"


def _pair_text(t: Tournament, game: Game) -> str:
    return f"{_name(t, game.white)} (White) - {_name(t, game.black)} (Black)"


def _with_round(t: Tournament, rnd: Round) -> Tournament:
    rounds = [rnd if r.number == rnd.number else r for r in t.rounds]
    return replace(t, rounds=rounds)


def _number(text: object, option: str) -> float:
    try:
        value = float(str(text))
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ActionError(f"{option} {text!r} is not a number")
    return value


def _handicap(value: object) -> int:
    stones = int(value)  # type: ignore[call-overload]
    if not 0 <= stones <= MAX_HANDICAP:
        raise ActionError(f"--handicap {stones} is not between 0 and {MAX_HANDICAP}")
    return stones


def _standard_komi(t: Tournament, stones: int) -> float:
    return HANDICAP_KOMI if stones > 0 else t.settings.komi


def _names(t: Tournament, pids: Iterable[PlayerId]) -> str:
    pids = list(pids)
    shown = ", ".join(_name(t, p) for p in pids[:MAX_NAMED])
    return shown + (f" and {len(pids) - MAX_NAMED} more" if len(pids) > MAX_NAMED else "")


# --- writing ------------------------------------------------------------------------------


def _keep_extras(
    rows: list[dict[str, object]], old: TableData | None, key: Callable[[Mapping], object]
) -> list[Row]:
    """Rows to write, each carrying the TD's own columns of the row it replaces."""
    extras = {key(r.values): r.extra for r in old.rows} if old else {}
    return [Row(values, extra=dict(extras.get(key(values), {}))) for values in rows]


def _write_round(session: Session, desk: Desk, rnd: Round) -> None:
    games, byes = book.round_rows(rnd, desk.t.players)
    games_t, byes_t = games_table(rnd.number), byes_table(rnd.number)

    def pair_key(v: Mapping) -> object:
        return frozenset((v.get("white"), v.get("black")))

    def bye_key(v: Mapping) -> object:
        return v.get("player")

    session.gw.write_table(games_t, _keep_extras(games, desk.b.tables.get(games_t.name), pair_key))
    session.gw.write_table(byes_t, _keep_extras(byes, desk.b.tables.get(byes_t.name), bye_key))


def _write_players(session: Session, desk: Desk, updates: Mapping[PlayerId, dict]) -> None:
    rows = book.merge_rows(desk.b.players_data, "aga_id", updates)
    session.gw.write_table(players_table(desk.t.settings.rounds), rows)


# --- after a round is paired --------------------------------------------------------------


@action(
    "break-pair",
    "Break a pair",
    "remove a game from a paired round (by board or by player): both players become unpaired",
    ROUND,
    Param("board", "board number", ParamKind.INT),
    Param("player", "AGA # of either player (instead of --board)", ParamKind.INT),
)
def break_pair(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    rnd = _paired(t, params.get("round"))
    game = _chosen_game(t, rnd, params.get("board"), params.get("player"))
    new_round = replace(rnd, games=tuple(g for g in rnd.games if g != game))
    after = _with_round(t, new_round)
    warnings = []
    if game.result is not None:
        warnings.append(
            f"{_where(rnd, game)}: {_name(t, game.white)} and {_name(t, game.black)} already "
            f"have a result ({game.result.value}); breaking the pair deletes it"
        )
    session.warn(warnings + _checks(session, desk, after))
    _write_round(session, desk, new_round)
    _finish(
        session,
        desk,
        after,
        f"Broke the pair on {_seat(rnd, game)}: {_pair_text(t, game)}; both are unpaired",
    )


def _chosen_game(t: Tournament, rnd: Round, board: object, player: object) -> Game:
    if (board is None) == (player is None):
        raise ActionError("give either --board or --player to say which pair to break")
    if board is not None:
        return _on_board(rnd, board)
    p = _player(t, player)
    game = _game_of(rnd, p.aga_id)
    if game is None:
        raise ActionError(f"{_name(t, p.aga_id)} is not paired in round {rnd.number}")
    return game


@action(
    "make-pair",
    "Make a pair",
    "pair two unpaired players by hand in a paired round (handicap and komi from the "
    "ratings unless given)",
    ROUND,
    Param("white", "AGA # of the player taking White", ParamKind.INT, required=True),
    Param("black", "AGA # of the player taking Black", ParamKind.INT, required=True),
    HANDICAP,
    KOMI,
)
def make_pair(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    rnd = _paired(t, params.get("round"))
    white = _active(t, params.get("white"), "--white")
    black = _active(t, params.get("black"), "--black")
    if white.aga_id == black.aga_id:
        raise ActionError(
            f"a player cannot play themself: AGA # {white.aga_id} is both --white and --black"
        )
    for p in (white, black):
        game = _game_of(rnd, p.aga_id)
        if game is not None:
            raise ActionError(
                f"{_name(t, p.aga_id)} already plays on {_seat(rnd, game)}: "
                + _break_first(rnd, p.aga_id)
            )
    handicap, komi = _conditions(t, white, black, params.get("handicap"), params.get("komi"))
    board = max((g.board or 0 for g in rnd.games), default=0) + 1
    game = Game(white.aga_id, black.aga_id, handicap, komi, None, board, "Paired by the TD")
    cancelled = [b for b in rnd.byes if b.player in game.players]
    new_round = replace(
        rnd, games=(*rnd.games, game), byes=tuple(b for b in rnd.byes if b not in cancelled)
    )
    after = _with_round(t, new_round)
    warnings = [
        f"round {rnd.number}: {_name(t, b.player)} has a {b.kind.value.lower()} bye recorded "
        "for the round; pairing them cancels it"
        for b in cancelled
    ]
    session.warn(warnings + _checks(session, desk, after, EVERY_RULE))
    _write_round(session, desk, new_round)
    _finish(
        session,
        desk,
        after,
        f"Paired {_pair_text(t, game)} on board {board} of round {rnd.number}: "
        f"handicap {handicap}, komi {komi:g}",
    )


def _conditions(
    t: Tournament, white: Player, black: Player, handicap: object, komi: object
) -> GameConditions:
    """The TD's handicap and komi, or those the ratings and settings give."""
    if handicap is not None:
        stones = _handicap(handicap)
        value = _number(komi, "--komi") if komi is not None else _standard_komi(t, stones)
        return GameConditions(stones, value)
    top = any(p.above_bar or p.effective_band == 1 for p in (white, black))
    try:
        ratings = entry_rating(white), entry_rating(black)
        conditions = game_conditions(*ratings, t.settings, top_band_game=top)
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


@action(
    "set-game",
    "Adjust a game",
    "change a game's handicap, komi or colours (the TD is sovereign; the winner stays "
    "the winner when colours swap)",
    ROUND,
    BOARD,
    HANDICAP,
    KOMI,
    Param("swap_colours", "give White to Black and Black to White", ParamKind.FLAG),
)
def set_game(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    rnd = _paired(t, params.get("round"))
    game = _on_board(rnd, params.get("board"))
    handicap, komi = params.get("handicap"), params.get("komi")
    swap = bool(params.get("swap_colours"))
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
        new = replace(new, komi=_number(komi, "--komi"))
    if new == game:
        raise ActionError(f"{_where(rnd, game)} already has these conditions: nothing to change")
    new_round = replace(rnd, games=tuple(new if g == game else g for g in rnd.games))
    after = _with_round(t, new_round)
    warnings = []
    if game.result is not None:
        warnings.append(
            f"{_where(rnd, game)}: {_name(t, game.white)} and {_name(t, game.black)} already "
            f"have a result ({game.result.value}); the game's conditions change after it"
        )
    session.warn(warnings + _checks(session, desk, after, EVERY_RULE))
    _write_round(session, desk, new_round)
    _finish(session, desk, after, f"{_where(rnd, game)}: {_changes(t, game, new)}")


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


@action(
    "result",
    "Record a result",
    "record or correct a game's result; an earlier round's result is asked to be confirmed",
    ROUND,
    BOARD,
    Param(
        "result",
        "the result: White wins, Black wins, White wins by forfeit, Black wins by forfeit, "
        "Jigo, No result, Double forfeit (or W, B, WF, BF, jigo); blank clears it",
        required=True,
    ),
)
def record_result(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    rnd = _paired(t, params.get("round"))
    game = _on_board(rnd, params.get("board"))
    try:
        result = parse_result(str(params.get("result") or ""))
    except ValueError as err:
        raise ActionError(f"--result: {err}") from err
    if result == game.result:
        shown = result.value if result else "no result"
        raise ActionError(f"{_where(rnd, game)} already has {shown}: nothing to change")
    new = replace(game, result=result)
    new_round = replace(rnd, games=tuple(new if g == game else g for g in rnd.games))
    after = _with_round(t, new_round)
    latest = last_round(t)
    warnings = []
    if rnd.number < latest:
        warnings.append(
            f"round {rnd.number} is not the latest round: round {latest} is already paired, "
            f"with the old result; every McMahon score from round {rnd.number} on changes"
        )
    session.warn(warnings + _checks(session, desk, after, RESULT_RULES))
    _write_round(session, desk, new_round)
    was = game.result.value if game.result else "blank"
    _finish(
        session,
        desk,
        after,
        f"{_where(rnd, game)}: {_pair_text(t, game)}: "
        f"{result.value if result else 'no result'} (was {was})",
    )


# --- byes, drops, volunteers ---------------------------------------------------------------


@action(
    "bye",
    "Give a voluntary bye",
    "a voluntary bye (no game, 0 points): for an unpaired player of a paired round, "
    "or as a request for a future round",
    PLAYER,
    ROUND_REQUIRED,
)
def voluntary_bye(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    player = _active(t, params.get("player"))
    number = _in_tournament(t, int(params["round"]))  # type: ignore[call-overload]
    column = f"r{number}"
    rnd = t.round(number)
    if rnd is None:
        _request_bye(session, desk, player, number, "Bye")
        return
    pid = player.aga_id
    game = _game_of(rnd, pid)
    if game is not None:
        raise ActionError(f"{_name(t, pid)} plays on {_seat(rnd, game)}: {_break_first(rnd, pid)}")
    bye = _bye_of(rnd, pid)
    if bye is not None and bye.kind is ByeKind.VOLUNTARY:
        raise ActionError(f"{_name(t, pid)} already has a voluntary bye in round {number}")
    warnings = []
    if bye is not None:
        warnings.append(
            f"round {number}: {_name(t, pid)} has a forced bye (1 point) recorded; "
            "it becomes a voluntary bye (0 points)"
        )
    new_round = replace(
        rnd, byes=(*(b for b in rnd.byes if b.player != pid), Bye(pid, ByeKind.VOLUNTARY))
    )
    after = _with_round(t, new_round)
    session.warn(warnings + _checks(session, desk, after))
    _write_round(session, desk, new_round)
    _write_players(session, desk, {pid: {column: "Bye"}})
    _finish(session, desk, after, f"Voluntary bye for {_name(t, pid)} in round {number}")


def _request_bye(session: Session, desk: Desk, player: Player, number: int, kind: str) -> None:
    """A Players R-column request for a round not paired yet: ``Bye`` or ``Volunteer``."""
    t = desk.t
    pid = player.aga_id
    before = "Bye" if number in player.bye_requests else None
    before = "Volunteer" if number in player.volunteer_rounds else before
    if before == kind:
        raise ActionError(f"{_name(t, pid)} already has {kind} for round {number}")
    forced = _forced_partner(t, pid, number)
    if kind == "Bye" and forced is not None:
        raise ActionError(
            f"{_name(t, pid)} is forced to play {_name(t, forced)} in round {number} "
            "(Requests sheet): remove that request first"
        )
    session.warn(_checks(session, desk))
    _write_players(session, desk, {pid: {f"r{number}": kind}})
    what = "a voluntary bye" if kind == "Bye" else "the bye volunteer"
    replaced = f" (was {before})" if before else ""
    _finish(
        session,
        desk,
        t,
        f"{_name(t, pid)} is {what} for round {number}: Players R{number} = {kind}{replaced}",
    )


@action(
    "volunteer",
    "Bye volunteer",
    "make a player the bye volunteer for a future round (takes the bye if the field is odd)",
    PLAYER,
    ROUND_REQUIRED,
)
def volunteer(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    player = _active(t, params.get("player"))
    number = _in_tournament(t, int(params["round"]))  # type: ignore[call-overload]
    if t.round(number) is not None:
        raise ActionError(
            f"round {number} is already paired: a bye volunteer is for a round not paired "
            f"yet (bye --player {player.aga_id} --round {number} gives a voluntary bye)"
        )
    _request_bye(session, desk, player, number, "Volunteer")


@action(
    "drop",
    "Drop a player",
    "drop a player from the tournament (not paired from the next round on)",
    PLAYER,
)
def drop(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    player = _player(t, params.get("player"))
    pid = player.aga_id
    if player.status is Status.DROPPED:
        raise ActionError(f"{_name(t, pid)} is already dropped")
    latest = t.round(last_round(t))
    game = _game_of(latest, pid) if latest else None
    if latest and game is not None and game.result is None:
        raise ActionError(
            f"{_name(t, pid)} plays on {_seat(latest, game)}, not played yet: "
            f"{_break_first(latest, pid)} or record the result"
        )
    for number in range(last_round(t) + 1, t.settings.rounds + 1):
        partner = _forced_partner(t, pid, number)
        if partner is not None:
            raise ActionError(
                f"{_name(t, pid)} is forced to play {_name(t, partner)} in round {number} "
                "(Requests sheet): remove that request first"
            )
    session.warn(_checks(session, desk))
    _write_players(session, desk, {pid: {"status": Status.DROPPED.value}})
    played = last_round(t)
    when = f"after round {played}" if played else "before round 1"
    _finish(
        session,
        desk,
        t,
        f"Dropped {_name(t, pid)} {when}: not paired from round {played + 1} on",
    )


@action(
    "readmit",
    "Re-admit a player",
    "re-admit a dropped player (one who never had a band gets one from the bands)",
    PLAYER,
)
def readmit(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    player = _player(t, params.get("player"))
    pid = player.aga_id
    if player.status is not Status.DROPPED:
        raise ActionError(f"{_name(t, pid)} is not dropped")
    back = replace(player, status=Status.ACTIVE)
    banding = _banding(desk, back) if player.initial_score is None else None
    updates, moved = _band_updates(desk, back, banding)
    updates[pid] = {**updates.get(pid, {}), "status": Status.ACTIVE.value}
    session.warn(_moved_warning(t, moved) + _checks(session, desk))
    _write_banding(session, desk, banding, updates)
    missed = [r.number for r in t.rounds if _game_of(r, pid) is None and _bye_of(r, pid) is None]
    absent = f"; absent from round(s) {', '.join(map(str, missed))} (0 points)" if missed else ""
    banded = (
        f"; band {banding.effective_band(pid)}, initial score {banding.initial_scores[pid]:g}"
        if banding
        else ""
    )
    _finish(
        session,
        desk,
        t,
        f"Readmitted {_name(t, pid)}: paired again from round {last_round(t) + 1}{absent}{banded}",
    )


# --- requests: force and prohibit ----------------------------------------------------------

FIRST = Param("first", "AGA # of one player", ParamKind.INT, required=True)
SECOND = Param("second", "AGA # of the other player", ParamKind.INT, required=True)


@action(
    "force",
    "Force a pair",
    "make the next pairing pair two players (Requests sheet)",
    FIRST,
    SECOND,
    Param("round", "round number (default: the next round)", ParamKind.INT),
)
def force(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    number = params.get("round")
    number = last_round(t) + 1 if number is None else number
    _add_request(session, desk, params, RequestKind.FORCE, int(number))  # type: ignore[call-overload]


@action(
    "prohibit",
    "Prohibit a pair",
    "keep two players apart in the pairings (Requests sheet)",
    FIRST,
    SECOND,
    Param("round", "round number (default: every round)", ParamKind.INT),
)
def prohibit(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    number = params.get("round")
    _add_request(session, desk, params, RequestKind.PROHIBIT, number)  # type: ignore[arg-type]


def _add_request(
    session: Session,
    desk: Desk,
    params: Mapping[str, object],
    kind: RequestKind,
    number: int | None,
) -> None:
    t = desk.t
    first = _player(t, params.get("first"), "--first")
    second = _player(t, params.get("second"), "--second")
    a, b = first.aga_id, second.aga_id
    if a == b:
        raise ActionError(
            f"a player cannot be paired with themself: AGA # {a} is both --first and --second"
        )
    if number is not None:
        _in_tournament(t, number)
        if t.round(number) is not None:
            other = "make-pair and break-pair" if kind is RequestKind.FORCE else "break-pair"
            raise ActionError(f"round {number} is already paired: use {other} instead")
    request = PairRequest(kind, a, b, number)
    _check_request(t, request)
    warnings = _force_warnings(t, request) if kind is RequestKind.FORCE else []
    session.warn(warnings + _checks(session, desk))
    rows: list[Row | dict[str, object]] = list(desk.b.tables[REQUESTS.name].rows)
    rows.append(
        {
            "round": number,
            "kind": kind.value,
            "first": a,
            "second": b,
            "notes": f"{first.name} - {second.name}",
        }
    )
    session.gw.write_table(REQUESTS, rows)
    when = f"round {number}" if number is not None else "every round"
    verb = "Forced" if kind is RequestKind.FORCE else "Prohibited"
    _finish(
        session, desk, t, f"{verb} the pair {_name(t, a)} - {_name(t, b)} for {when} (Requests)"
    )


def _same_pair(r: PairRequest, request: PairRequest) -> bool:
    return {r.first, r.second} == {request.first, request.second}


def _overlaps(r: PairRequest, request: PairRequest) -> bool:
    return r.round is None or request.round is None or r.round == request.round


def _check_request(t: Tournament, request: PairRequest) -> None:
    """Refuse a request that repeats or contradicts one already in the Requests sheet."""
    pair = f"{_name(t, request.first)} - {_name(t, request.second)}"
    for r in t.requests:
        if not _overlaps(r, request):
            continue
        if _same_pair(r, request) and r.kind is request.kind and r.round == request.round:
            raise ActionError(f"the Requests sheet already has {r.kind.value} {pair}")
        if _same_pair(r, request) and r.kind is not request.kind:
            when = f"round {r.round}" if r.round is not None else "every round"
            raise ActionError(
                f"{pair} is already a {r.kind.value} request for {when}: "
                "remove that row of the Requests sheet first"
            )
    if request.kind is RequestKind.FORCE:
        _check_force(t, request)


def _check_force(t: Tournament, request: PairRequest) -> None:
    for pid in (request.first, request.second):
        player = _active(t, pid)
        if request.round in player.bye_requests:
            raise ActionError(
                f"{_name(t, pid)} asked for a bye in round {request.round} (Players "
                f"R{request.round}): clear it first"
            )
        other = _forced_partner(t, pid, request.round)
        if other is not None:
            raise ActionError(
                f"{_name(t, pid)} is already forced to play {_name(t, other)} "
                f"in round {request.round}"
            )


def _forced_partner(t: Tournament, pid: PlayerId, number: int | None) -> PlayerId | None:
    """Whom a Force request pairs ``pid`` with in round ``number``, if any."""
    for r in t.requests:
        if r.kind is RequestKind.FORCE and r.round == number and pid in (r.first, r.second):
            return r.second if r.first == pid else r.first
    return None


def _force_warnings(t: Tournament, request: PairRequest) -> list[str]:
    """A rematch, or a player who forfeited the round before: the interface document's list."""
    number = request.round or last_round(t) + 1
    a, b = request.first, request.second
    warnings = [
        f"forcing {_name(t, a)} and {_name(t, b)} together in round {number} is a rematch: "
        f"they played each other in round {r.number}"
        for r in t.rounds
        if r.number < number and any({a, b} == set(g.players) for g in r.games)
    ]
    losers = consistency.forfeit_losers(t.round(number - 1))
    warnings += [
        f"{_name(t, pid)} lost round {number - 1} by forfeit: check they are still here "
        f"before forcing them into round {number}"
        for pid in (a, b)
        if pid in losers
    ]
    return warnings


# --- entry rating and band ------------------------------------------------------------------


@action(
    "set-rating",
    "Revise a rating",
    "revise a player's entry rating; band, initial score and McMahon score follow",
    PLAYER,
    Param("rating", "the new entry rating: a rating (-3.5, 4.2) or a rank (3k, 4d)", required=True),
)
def set_rating(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    player = _player(desk.t, params.get("player"))
    try:
        rating = parse_rating(str(params.get("rating")))
    except RatingError as err:
        raise ActionError(f"--rating: {err}") from err
    if rating == player.rating:
        raise ActionError(f"{_name(desk.t, player.aga_id)} is already rated {rating:g}")
    what = f"entry rating {_score(player.rating)} -> {rating:g}"
    _rebanded(session, desk, replace(player, rating=rating), what)


@action(
    "set-band",
    "Move to a band",
    "place a player in another McMahon band (a band override); initial and McMahon scores follow",
    PLAYER,
    Param("band", "band number (1 = top)", ParamKind.INT, required=True),
)
def set_band(session: Session, params: Mapping[str, object]) -> None:
    desk = _open(session)
    t = desk.t
    player = _player(t, params.get("player"))
    band = int(params["band"])  # type: ignore[call-overload]
    numbers = sorted(b.number for b in t.bands)
    if not numbers:
        raise ActionError("there are no bands yet: build them first (bands)")
    if band not in numbers:
        raise ActionError(f"there is no band {band} (bands: {', '.join(map(str, numbers))})")
    if player.band_override == band:
        raise ActionError(f"{_name(t, player.aga_id)} is already in band {band}")
    what = f"band override {_score(player.band_override)} -> {band}"
    _rebanded(session, desk, replace(player, band_override=band), what)


def _rebanded(session: Session, desk: Desk, changed: Player, what: str) -> None:
    """Write ``changed`` with the band and initial score the bands give it, and anyone else
    whose initial score the new band sizes move (the TD is warned about those)."""
    t = desk.t
    banding = _banding(desk, changed)
    updates, moved = _band_updates(desk, changed, banding)
    own = {"rating": changed.rating, "band_override": changed.band_override}
    updates[changed.aga_id] = {**own, **updates.get(changed.aga_id, {})}
    session.warn(_moved_warning(t, moved) + _checks(session, desk))
    _write_banding(session, desk, banding, updates)
    _finish(session, desk, t, _rebanded_message(desk, changed, what, banding))


def _banding(desk: Desk, changed: Player) -> Banding | None:
    """The bands rebuilt with ``changed`` in them; None before bands are built or for a
    dropped player (who counts in no band)."""
    if not desk.t.bands or changed.status is Status.DROPPED:
        return None
    try:
        rating = entry_rating(changed)
    except RatingError as err:
        raise ActionError(str(err)) from err
    others = [p for p in rated_players(desk.b) if p.aga_id != changed.aga_id]
    return compute_banding(desk.b, [*others, replace(changed, rating=rating)], fresh=False)


def _band_updates(
    desk: Desk, changed: Player, banding: Banding | None
) -> tuple[dict[PlayerId, dict[str, object]], list[PlayerId]]:
    """Players rows to write for ``banding``, and the players other than ``changed`` whose
    initial score it moves."""
    if banding is None:
        return {}, []
    updates: dict[PlayerId, dict[str, object]] = {}
    moved: list[PlayerId] = []
    for pid, score in banding.initial_scores.items():
        updates[pid] = {
            "band": banding.band_of[pid],
            "band_override": banding.band_overrides.get(pid),
            "initial_score": score,
        }
        if pid != changed.aga_id and score != desk.t.players[pid].initial_score:
            moved.append(pid)
    return updates, moved


def _moved_warning(t: Tournament, moved: list[PlayerId]) -> list[str]:
    if not moved:
        return []
    return [
        f"the new band sizes change the separations: the initial McMahon score of "
        f"{len(moved)} other player(s) changes ({_names(t, moved)})"
    ]


def _write_banding(
    session: Session,
    desk: Desk,
    banding: Banding | None,
    updates: Mapping[PlayerId, dict[str, object]],
) -> None:
    if banding is not None:
        session.gw.write_table(BANDS, [band_values(b, banding) for b in banding.bands])
    _write_players(session, desk, updates)


def _rebanded_message(desk: Desk, changed: Player, what: str, banding: Banding | None) -> str:
    t = desk.t
    pid = changed.aga_id
    old = t.players[pid]
    if banding is None:
        why = "dropped" if changed.status is Status.DROPPED else "no bands yet: run bands"
        return f"{_name(t, pid)}: {what} ({why}; initial score unchanged)"
    score = banding.initial_scores[pid]
    after = replace(t, players={**t.players, pid: replace(changed, initial_score=score)})
    return (
        f"{_name(t, pid)}: {what}; band {old.effective_band} -> {banding.effective_band(pid)}, "
        f"initial score {_score(old.initial_score)} -> {score:g}, McMahon score "
        f"{mcmahon_scores(t)[pid]:g} -> {mcmahon_scores(after)[pid]:g}"
    )


def _score(value: float | None) -> str:
    return "blank" if value is None else f"{value:g}"
