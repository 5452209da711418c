"""Understanding a result as a TD types it.

The Round sheets offer a dropdown with the seven outcomes, but a TD in a hurry
types ``W``, ``b+``, ``jigo`` or ``1-0``, or copies the game record's own result
(SGF's ``RE``: ``B+R``, ``W+T``, ``B+3.5``, ``W+F``, ``0``, ``Void``). Everything
unambiguous is accepted; anything else is an error that the caller pins to its cell.
"""

from __future__ import annotations

import re

from addin.core.model import Result

_GAME_RECORD = re.compile(r"([bw])\+(r|resign|t|time|\d+(?:\.\d+)?)")
"""A win as a game record writes it: by resignation, on time or by so many points."""
_WINNER = {"b": Result.BLACK_WINS, "w": Result.WHITE_WINS}

_ALIASES: dict[str, Result] = {
    # White wins
    "w": Result.WHITE_WINS,
    "w+": Result.WHITE_WINS,
    "white": Result.WHITE_WINS,
    "white win": Result.WHITE_WINS,
    "white won": Result.WHITE_WINS,
    "1-0": Result.WHITE_WINS,
    # Black wins
    "b": Result.BLACK_WINS,
    "b+": Result.BLACK_WINS,
    "black": Result.BLACK_WINS,
    "black win": Result.BLACK_WINS,
    "black won": Result.BLACK_WINS,
    "0-1": Result.BLACK_WINS,
    # Forfeits: the winner is named, as in the AGA text format (WF, BF)
    "wf": Result.WHITE_WINS_BY_FORFEIT,
    "w+f": Result.WHITE_WINS_BY_FORFEIT,
    "w+forfeit": Result.WHITE_WINS_BY_FORFEIT,
    "1-0!": Result.WHITE_WINS_BY_FORFEIT,
    "white wins by forfeit": Result.WHITE_WINS_BY_FORFEIT,
    "black forfeit": Result.WHITE_WINS_BY_FORFEIT,
    "bf": Result.BLACK_WINS_BY_FORFEIT,
    "b+f": Result.BLACK_WINS_BY_FORFEIT,
    "b+forfeit": Result.BLACK_WINS_BY_FORFEIT,
    "0-1!": Result.BLACK_WINS_BY_FORFEIT,
    "black wins by forfeit": Result.BLACK_WINS_BY_FORFEIT,
    "white forfeit": Result.BLACK_WINS_BY_FORFEIT,
    # Neither
    "jigo": Result.JIGO,
    "draw": Result.JIGO,
    "tie": Result.JIGO,
    "=": Result.JIGO,
    "½-½": Result.JIGO,
    "0.5-0.5": Result.JIGO,
    "no result": Result.NO_RESULT,
    "nr": Result.NO_RESULT,
    "void": Result.NO_RESULT,
    "double forfeit": Result.DOUBLE_FORFEIT,
    "df": Result.DOUBLE_FORFEIT,
    "0-0": Result.DOUBLE_FORFEIT,
    "0-0!": Result.DOUBLE_FORFEIT,
}
for _r in Result:
    _ALIASES[_r.value.casefold()] = _r

EXPECTED = ", ".join(r.value for r in Result) + " (or W, B, WF, BF, jigo, 1-0, 0-1, B+R, W+3.5)"


def parse_result(text: str) -> Result | None:
    """The result a TD typed; ``None`` for blank (not played yet). Raises ValueError."""
    folded = " ".join(text.split()).casefold()
    if not folded:
        return None
    compact = folded.replace(" ", "")
    result = _ALIASES.get(folded) or _ALIASES.get(compact)
    if result is None and (record := _GAME_RECORD.fullmatch(compact)):
        result = _WINNER[record.group(1)]
    if result is None:
        raise ValueError(f"{text!r} is not a result; expected {EXPECTED}")
    return result
