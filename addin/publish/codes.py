"""Result codes of a round's boards, kept in the Round sheet's codes table.

A code is made when a board first appears (``pair``, ``make-pair``) and kept while the
board exists, so a slip printed after pairing stays right when a game is changed.
"""

from __future__ import annotations

from addin.core.model import Round
from addin.publish.board_reports import new_code, normal_code
from addin.reports.common import boards
from addin.workbook.gateway import Gateway
from addin.workbook.layout import codes_table


def read_codes(gw: Gateway, number: int) -> dict[int, str]:
    """Board -> code of round ``number`` ({} for a round paired before codes existed)."""
    data = gw.read_table(codes_table(number))
    found: dict[int, str] = {}
    for row in data.rows:
        board, code = row.get("board"), normal_code(row.get("code"))
        if isinstance(board, int) and code:
            found[board] = code
    return found


def write_codes(gw: Gateway, rnd: Round, *, new_round: bool = True) -> dict[int, str]:
    """Give every board of ``rnd`` a code (keeping those it has); the codes. Written only
    when they change; a round paired before codes existed is left without them unless it
    is ``new_round`` (being paired now)."""
    old = read_codes(gw, rnd.number)
    if not old and not new_round:
        return old
    codes = {board: old.get(board) or new_code() for board, _ in boards(rnd)}
    if codes == old:
        return codes
    gw.write_table(
        codes_table(rnd.number), [{"board": b, "code": c} for b, c in sorted(codes.items())]
    )
    return codes
