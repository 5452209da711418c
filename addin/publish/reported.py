"""The round in play's reports, sorted board by board as ``accept-results`` takes them in.

Each board of the round is one of: *ready* (both players reported the same result and the
Round sheet has none: taken in), *waiting* for its second report, *disputed* (the players
disagree and the sheet has no result: the TD sees them), *differs* (both agree, the sheet
has another result: the TD's is kept). Reports of another pairing (a board paired again, a
colour swap) or of a board the round no longer has are set apart. A board whose result the
TD has typed is settled: a disagreement about it is not raised again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from addin.core.codes import boards
from addin.core.model import Result, Round, Tournament
from addin.publish.board_reports import RESULTS, Report, agreed, by_board


@dataclass
class Sorted:
    ready: dict[int, Result] = field(default_factory=dict)
    """Board -> the result both players reported, for a board with none yet."""
    waiting: dict[int, str] = field(default_factory=dict)
    """Board -> the one colour that has reported."""
    disputed: dict[int, dict[str, str]] = field(default_factory=dict)
    """Board -> colour -> what that player reported (``White wins``)."""
    differs: dict[int, tuple[Result, Result]] = field(default_factory=dict)
    """Board -> (what both reported, what the Round sheet has)."""
    other_pairing: dict[int, Report] = field(default_factory=dict)
    """Board -> a report made for another pairing of that board."""
    gone: list[int] = field(default_factory=list)
    """Boards reported that the round no longer has."""


def sort_reports(
    t: Tournament, rnd: Round, reports: list[Report], codes: Mapping[int, str]
) -> Sorted:
    """Round ``rnd``'s reports, board by board (``codes``: the Round sheet's result codes)."""
    reported = by_board(reports, rnd.number)
    found = Sorted()

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

    for board, game in boards(rnd):
        sides = reported.get(board)
        if not sides:
            continue
        other = [r for r in sides.values() if not this_game(r, board, game.white, game.black)]
        if other:
            found.other_pairing[board] = other[0]
            continue
        result = agreed(sides)
        if result is None:
            if game.result is not None:
                continue  # the TD has typed it: settled
            if len(sides) == 2:
                found.disputed[board] = {s: RESULTS[r.result] for s, r in sides.items()}
            else:
                found.waiting[board] = next(iter(sides))
            continue
        wanted = Result(RESULTS[result])
        if game.result is None:
            found.ready[board] = wanted
        elif game.result != wanted:
            found.differs[board] = (wanted, game.result)
    present = {b for b, _ in boards(rnd)}
    found.gone = sorted(set(reported) - present)
    return found


def status_lines(
    found: Sorted, number: int, players: Mapping[int, str], names: Mapping[int, str]
) -> list[str]:
    """What the TD is told of the boards not taken in, each board with its players
    (``players``: board -> ``Lee, Ann - Kim, Bo``; ``names``: AGA # -> name)."""
    lines = []
    if found.waiting:
        named = ", ".join(
            f"board {b} ({players.get(b, '?')}: {side.capitalize()} has reported)"
            for b, side in sorted(found.waiting.items())
        )
        lines.append(f"Round {number}, waiting for the second report: {named}")
    for board, said in sorted(found.disputed.items()):
        sides = ", ".join(
            f"{s.capitalize()} says {r}" for s, r in sorted(said.items(), reverse=True)
        )
        lines.append(
            f"Round {number}, board {board} ({players.get(board, '?')}): the players disagree "
            f"({sides}): not taken; see them, then type the result"
        )
    for board, (both, typed) in sorted(found.differs.items()):
        lines.append(
            f"note: round {number}, board {board} ({players.get(board, '?')}): both players "
            f"reported {both.value}, the Round sheet has {typed.value} (the sheet's is kept)"
        )
    for board, report in sorted(found.other_pairing.items()):
        lines.append(
            f"note: round {number}, board {board}: reported for another pairing "
            f"({names.get(report.white, report.white)} - {names.get(report.black, report.black)}),"
            " not for this game: not taken"
        )
    lines += [
        f"note: round {number}, board {b}: reported, but the round has no board {b} now "
        "(paired again?): not taken"
        for b in found.gone
    ]
    return lines
