"""The server's answer to a report, in the language of the page it was sent from (standard
library only, as the server is). English keeps the server's own, fuller words (the board's
players and the result said back); another language says what matters to the player:
kept or not, and what to do next. A refusal this has no message for stays English."""

from __future__ import annotations

from collections.abc import Mapping

from addin.publish.i18n import DEFAULT, translate

KEPT = ("kept", "ready", "again", "disagree")
WRONG_CODE = 403


def answer(lang: str, status: int, state: str, message: str, fields: Mapping[str, str]) -> str:
    """``message`` (the server's English answer) said in ``lang``."""
    board = fields.get("board", "").strip()
    if lang == DEFAULT or not (board.isascii() and board.isdecimal()):
        return message
    if state in KEPT:
        return translate(f"answer.{state}", lang, board=int(board))
    if status == WRONG_CODE:
        return translate("answer.wrong_code", lang, board=int(board))
    return message
