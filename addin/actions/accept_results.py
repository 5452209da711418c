"""``accept-results``: the results players reported from the board, taken into the Round sheet.

A board is ready when both its players reported the same result (``addin.publish.
board_reports``). The ready boards of the round in play whose result is still blank are
written as ``result`` writes one (Round sheet, Log line, journal: ``undo`` takes them back).
A result the TD typed is never replaced; where the reports disagree with each other or with
it, the TD is warned, naming the board.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director.desk import check_warnings, finish, open_desk, with_round, write_round
from addin.actions.director.paired_round import RESULT_RULES, impossible_jigo
from addin.actions.registry import NoParams, action
from addin.actions.sections import ROUNDS, SETTLED
from addin.actions.serve import phones_folder
from addin.core.codes import boards
from addin.core.model import Game, Result, Round
from addin.core.scoring import last_round
from addin.publish.board_reports import RESULTS, SIDES, Report, agreed, by_board, read_reports
from addin.workbook.round_sheets import read_codes


@action(
    "accept-results",
    "Accept reported results",
    "take in the results both players of a board reported from the served site (the round "
    "in play; never over a result already typed)",
    reads=SETTLED,
    writes=ROUNDS,
)
def accept_results(snapshot: Snapshot, _params: NoParams) -> Change:
    draft = Draft(snapshot)
    path = getattr(draft, "path", None)
    if path is None:
        raise ActionError("save the workbook first: reported results are kept beside it")
    try:
        reports = read_reports(phones_folder(Path(path)))
    except ValueError as err:
        raise ActionError(str(err)) from err
    desk = open_desk(draft)
    t = desk.t
    if not t.rounds:
        raise ActionError("no round is paired yet: there is nothing to report")
    rnd = t.round(last_round(t))
    assert rnd is not None
    reported = by_board(reports, rnd.number)
    names = {p: t.players[p].name if p in t.players else f"#{p}" for p in t.players}
    codes = read_codes(draft, rnd.number)

    def this_game(r: Report, board: int, white: int, black: int) -> bool:
        """The report is for this game: the same players, or (a number replaced since) the
        board's code it was made with and each other player's number gone from the event."""
        if (r.white, r.black) == (white, black):
            return True
        if not r.code or r.code != codes.get(board):
            return False
        return all(
            was == now or (was not in t.players and now in t.players)
            for was, now in ((r.white, white), (r.black, black))
        )

    ready: dict[int, Result] = {}
    warnings: list[str] = []
    for board, game in boards(rnd):
        sides = reported.get(board)
        if not sides:
            continue
        other = [r for r in sides.values() if not this_game(r, board, game.white, game.black)]
        if other:
            warnings.append(
                f"round {rnd.number}, board {board}: reported for another pairing "
                f"({names.get(other[0].white, other[0].white)} - "
                f"{names.get(other[0].black, other[0].black)}), not for this game: not taken"
            )
            continue
        result = agreed(sides)
        if result is None and len(sides) == 2:
            said = ", ".join(f"{s} says {RESULTS[sides[s].result]}" for s in SIDES)
            warnings.append(
                f"round {rnd.number}, board {board}: the players disagree ({said}); "
                "see them and type the result"
            )
            continue
        if result is None:
            continue
        wanted = Result(RESULTS[result])
        if game.result is None:
            ready[board] = wanted
            warnings += impossible_jigo(rnd, game, wanted)
        elif game.result != wanted:
            warnings.append(
                f"round {rnd.number}, board {board}: both players reported {wanted.value}, "
                f"the Round sheet has {game.result.value} (kept)"
            )
    present = {b for b, _ in boards(rnd)}
    warnings += [
        f"round {rnd.number}, board {b}: reported, but the round has no board {b} now "
        "(paired again?): not taken"
        for b in sorted(set(reported) - present)
    ]
    if not ready and not warnings:
        draft.say(f"No reported result of round {rnd.number} is ready to take in.")
        return draft.change
    games = tuple(
        replace(g, result=ready[b]) if b in ready else g for b, g in _in_order(rnd, boards(rnd))
    )
    new_round = replace(rnd, games=games)
    after = with_round(t, new_round)
    draft.warn(warnings + check_warnings(desk, after, RESULT_RULES))
    if not ready:
        draft.done(f"No reported result of round {rnd.number} taken in")
        return draft.change
    write_round(draft, desk, new_round)
    taken = "; ".join(
        f"board {b}: {names.get(g.white, g.white)} - {names.get(g.black, g.black)}: "
        f"{ready[b].value}"
        for b, g in boards(rnd)
        if b in ready
    )
    finish(
        draft,
        desk,
        after,
        f"Round {rnd.number}: {len(ready)} result(s) reported by both players taken in: {taken}",
    )
    return draft.change


def _in_order(rnd: Round, numbered: list[tuple[int, Game]]) -> list[tuple[int, Game]]:
    """The games with their boards, in the Round sheet's order (not board order)."""
    board_of = {id(g): b for b, g in numbered}
    return [(board_of[id(g)], g) for g in rnd.games]
