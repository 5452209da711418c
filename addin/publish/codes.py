"""Result codes of a round's boards, kept in the Round sheet's codes table.

A code is made when a board first appears (``pair``, ``make-pair``) and kept while the
board exists, so a slip printed after pairing stays right when a game is changed.
"""

from __future__ import annotations

from addin.core.model import Round
from addin.publish.board_reports import new_code, normal_code
from addin.reports.common import boards
from addin.workbook.gateway import Tables, TableSource
from addin.workbook.round_codes import read_round_codes, write_round_codes


def read_codes(tables: TableSource, number: int) -> dict[int, str]:
    """Board -> code of round ``number`` ({} for a round paired before codes existed)."""
    found: dict[int, str] = {}
    for board, typed in read_round_codes(tables, number):
        code = normal_code(typed)
        if isinstance(board, int) and code:
            found[board] = code
    return found


def write_codes(tables: Tables, rnd: Round, *, new_round: bool = True) -> dict[int, str]:
    """Give every board of ``rnd`` a code (keeping those it has); the codes. Written only
    when they change; a round paired before codes existed is left without them unless it
    is ``new_round`` (being paired now)."""
    old = read_codes(tables, rnd.number)
    if not old and not new_round:
        return old
    codes = {board: old.get(board) or new_code() for board, _ in boards(rnd)}
    if codes == old:
        return codes
    write_round_codes(tables, rnd.number, codes)
    return codes
