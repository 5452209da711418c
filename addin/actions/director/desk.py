"""What every director's operation shares: the workbook as it reads it, the players, games
and rounds it is about, the warnings it asks the TD to confirm, and the Log stamps that let
the next action notice a hand edit."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from addin.actions import intake
from addin.actions.change import ActionError, Draft
from addin.core import consistency
from addin.core.model import Game, Player, PlayerId, RequestKind, Round, Status, Tournament
from addin.core.scoring import last_round
from addin.workbook import book, players_sheet
from addin.workbook.book import read_log
from addin.workbook.gateway import TableSource
from addin.workbook.layout import Section
from addin.workbook.round_sheets import rewrite_round

READS = intake.READS
"""What an operation reads: the settled workbook (the TDListA only for rows typed since
the last action)."""
WRITES_ROUNDS = frozenset({Section.ROUNDS, Section.PLAYERS})
"""An operation on a paired round's games (Players: rows typed since the last action are
completed)."""


def log_lines(tables: TableSource) -> list[consistency.LogLine]:
    """(level, message) of every Log row, oldest first."""
    return read_log(tables)


def edited_round_warnings(t: Tournament, log: Sequence[consistency.LogLine]) -> list[str]:
    """Rule breaks in rounds edited by hand since the last check that the TD has not accepted."""
    return consistency.warnings_to_confirm(t, log)


def stamp_pairings(
    draft: Draft, rounds: Iterable[Round], log: Sequence[consistency.LogLine]
) -> None:
    """Log the pairings as they now stand, so that the next action notices hand edits."""
    rounds = list(rounds)
    last = consistency.last_stamp(m for _, m in log)
    if rounds and last != _pairing_digests(rounds):
        draft.note(f"Checked the {consistency.stamp(rounds)}")


def _pairing_digests(rounds: Iterable[Round]) -> dict[int, str]:
    return {r.number: consistency.pairing_digest(r) for r in rounds}


@dataclass
class Desk:
    """What every operation starts from: the workbook as read, and its Log."""

    b: book.Book
    log: list[consistency.LogLine]

    @property
    def t(self) -> Tournament:
        return self.b.tournament


def open_desk(draft: Draft) -> Desk:
    b = intake.settled_book(draft, intake.director())
    return Desk(b, log_lines(draft))


def check_warnings(
    desk: Desk,
    after: Tournament | None = None,
    own: Collection[consistency.Rule] = (),
) -> list[str]:
    """Warnings besides the operation's own: breaks of the ``own`` rules that its change of
    the rounds makes (``after``), rule breaks in rounds edited by hand, and earlier results
    changed by hand."""
    results = consistency.results_changed_warnings(desk.t, desk.log)
    if after is None:
        return results + consistency.warnings_to_confirm(desk.t, desk.log)
    return results + consistency.warnings_to_confirm(after, desk.log, desk.t, own)


def finish(draft: Draft, desk: Desk, after: Tournament, message: str) -> None:
    """Stamp the rounds as they now stand, then log ``message``.

    The stamp holds every round's pairing digest and, in the form the standings read, the
    results digest of every round but the latest: results of the round in play are still
    coming in, and only a change to an earlier round's results is worth a question.
    """
    latest = last_round(after)
    results = {n: d for n, d in consistency.results_digests(after).items() if n < latest}
    logged = consistency.last_results_stamp(desk.log)
    pairings = _pairing_digests(after.rounds)
    stamped = consistency.last_stamp(m for _, m in desk.log)
    if pairings and (stamped != pairings or any(logged.get(n) != d for n, d in results.items())):
        text = f"Checked the {consistency.stamp(after.rounds)}"
        if results:
            text += "; results digest " + " ".join(f"{n}:{d}" for n, d in results.items())
        draft.note(text)
    draft.done(message)


# --- a round's change ---------------------------------------------------------------------


def with_round(t: Tournament, rnd: Round) -> Tournament:
    rounds = [rnd if r.number == rnd.number else r for r in t.rounds]
    return replace(t, rounds=rounds)


def write_round(draft: Draft, desk: Desk, rnd: Round) -> None:
    """The round's sheet as ``rnd`` has it; its boards' result codes follow a change of
    who plays on which board (a result alone keeps them as they are)."""
    rewrite_round(draft, desk.b.tables, rnd, desk.t.players)
    before = desk.t.round(rnd.number)
    if before is None or _seating(before) != _seating(rnd):
        from addin.workbook.round_sheets import write_codes

        write_codes(draft, rnd, new_round=False)


def _seating(rnd: Round) -> set[tuple[int | None, PlayerId, PlayerId]]:
    return {(g.board, g.white, g.black) for g in rnd.games}


def write_players(draft: Draft, desk: Desk, updates: Mapping[PlayerId, dict[str, object]]) -> None:
    players_sheet.write_fields(draft, desk.b, updates)


# --- finding and naming the players, games and requests an operation is about -------------


def name_of(t: Tournament, pid: PlayerId) -> str:
    p = t.players.get(pid)
    return f"{p.name} ({pid})" if p else f"AGA # {pid}"


def find_player(t: Tournament, pid: int | None, option: str = "--player") -> Player:
    if pid is None:
        raise ActionError(f"{option} is required: the player's AGA #")
    player = t.players.get(pid)
    if player is None:
        raise ActionError(f"{option}: AGA # {pid} is not in the Players sheet")
    return player


def find_active(t: Tournament, pid: int | None, option: str = "--player") -> Player:
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
