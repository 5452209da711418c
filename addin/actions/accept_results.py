"""``accept-results``: the results players reported from the board, taken into the Round sheet.

A board is ready when both its players reported the same result (``addin.publish.
board_reports``). The ready boards of the round in play whose result is still blank are
written as ``result`` writes one (Round sheet, Log line, journal: ``undo`` takes them back).
A result the TD typed is never replaced. Every run says, board by board and with the
players' names, what is not taken in: boards waiting for their second report, disputed
boards, reports that differ from the Round sheet or belong to another pairing
(``addin.publish.reported``). With nothing to take in it writes nothing (no Log line, no
journal entry): the next ``undo`` takes back what the TD last did.
"""

from __future__ import annotations

from dataclasses import replace

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director.desk import check_warnings, finish, open_desk, with_round, write_round
from addin.actions.director.paired_round import RESULT_RULES, impossible_jigo
from addin.actions.registry import NoParams, action
from addin.actions.sections import ROUNDS, SETTLED
from addin.actions.serve import phones_folder
from addin.core.codes import boards
from addin.core.model import Game, Round
from addin.core.scoring import last_round
from addin.publish.board_reports import read_reports
from addin.publish.reported import sort_reports, status_lines
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
    if snapshot.path is None:
        raise ActionError("save the workbook first: reported results are kept beside it")
    try:
        reports = read_reports(phones_folder(snapshot.path))
    except ValueError as err:
        raise ActionError(str(err)) from err
    desk = open_desk(draft)
    t = desk.t
    if not t.rounds:
        raise ActionError("no round is paired yet: there is nothing to report")
    rnd = t.round(last_round(t))
    assert rnd is not None
    found = sort_reports(t, rnd, reports, read_codes(draft, rnd.number))
    names = {p: t.players[p].name if p in t.players else f"#{p}" for p in t.players}
    players = {
        b: f"{names.get(g.white, g.white)} - {names.get(g.black, g.black)}" for b, g in boards(rnd)
    }
    status = status_lines(found, rnd.number, players, names)
    if not found.ready:
        draft.say(f"No reported result of round {rnd.number} is ready to take in.")
        for line in status:
            draft.say(line)
        return draft.change
    games = tuple(
        replace(g, result=found.ready[b]) if b in found.ready else g
        for b, g in _in_order(rnd, boards(rnd))
    )
    new_round = replace(rnd, games=games)
    after = with_round(t, new_round)
    warnings = [
        w
        for b, g in boards(rnd)
        if b in found.ready
        for w in impossible_jigo(rnd, g, found.ready[b])
    ]
    warnings += check_warnings(desk, after, RESULT_RULES)
    taken = "; ".join(
        f"board {b}: {players[b]}: {found.ready[b].value}"
        for b, _ in boards(rnd)
        if b in found.ready
    )
    if warnings:  # the question says what going on takes in and what it leaves out
        warnings += [
            f"going on takes in round {rnd.number}'s {len(found.ready)} result(s) reported by "
            f"both players ({taken})",
            *(f"left out: {line.removeprefix('note: ')}" for line in status),
        ]
    draft.warn(warnings)
    write_round(draft, desk, new_round)
    finish(
        draft,
        desk,
        after,
        f"Round {rnd.number}: {len(found.ready)} result(s) reported by both players taken in: "
        f"{taken}",
    )
    if not warnings:  # else said with the warnings the TD accepted
        for line in status:
            draft.say(line)
    return draft.change


def _in_order(rnd: Round, numbered: list[tuple[int, Game]]) -> list[tuple[int, Game]]:
    """The games with their boards, in the Round sheet's order (not board order)."""
    board_of = {id(g): b for b, g in numbered}
    return [(board_of[id(g)], g) for g in rnd.games]
