"""Each board's result code: printed on its pairing card and result slip, typed by its
players to report the result from the board (``addin.publish.board_reports``), kept in the
Round sheet (``addin.workbook.round_sheets``).

A code is made when a board first appears (``pair``, ``make-pair``) and kept while the
board exists, so a slip printed after pairing stays right when a game is changed.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from addin.core.model import Game, Round

CODE_ALPHABET = "ACEFHJKMNPRTWXY3479"
"""No letter or digit a slip can be misread as another (0/O, 1/I/L, 5/S, 2/Z, 8/B, 6/G)."""
CODE_LENGTH = 4


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(value: object) -> str:
    """A code as typed, compared without case or spaces."""
    return "".join(str(value or "").split()).upper()


def boards(rnd: Round) -> list[tuple[int, Game]]:
    """Games with their board numbers (the game's own, else its position), board order."""
    numbered = [(g.board if g.board is not None else i, i, g) for i, g in enumerate(rnd.games, 1)]
    return [(board, g) for board, _, g in sorted(numbered, key=lambda x: (x[0], x[1]))]


def with_codes(rnd: Round, old: Mapping[int, str], *, new_round: bool) -> dict[int, str]:
    """Every board of ``rnd`` with a code, keeping those it has (``old``); a round paired
    before codes existed keeps none unless it is ``new_round`` (being paired now)."""
    if not old and not new_round:
        return dict(old)
    return {board: old.get(board) or new_code() for board, _ in boards(rnd)}
