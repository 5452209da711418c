"""The Round sheets as a whole: every round below the last one paired is there and has games.

Reading one Round sheet finds what is wrong inside it (a player twice, a handicap of 12).
Only the set of sheets shows what a TD's sheet tab did: a round deleted, renamed or
emptied while a later round has games, or a round beyond the tournament's Number of
rounds. Without these checks the standings would silently score the missing round as
absent. Empty rounds after the last one with games are no problem: an AGA report of a
tournament stopped early lists them so (tests/data/aga-xml/2013-12.xml).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from addin.core.model import Round
from addin.workbook.gateway import Part, Problem, Tables
from addin.workbook.layout import round_number_of, round_sheet


def _squashed(name: str) -> str:
    return "".join(name.split()).casefold()


def renamed_candidates(number: int, sheet_names: Iterable[str]) -> list[str]:
    """Sheets whose name looks like round ``number``'s under another name ("Round 2 old")."""
    wanted = f"round{number}"
    return [
        s
        for s in sheet_names
        if round_number_of(s) is None
        and _squashed(s).startswith(wanted)
        and not _squashed(s)[len(wanted) :][:1].isdigit()
    ]


def _unpair_down(last: int, first: int) -> str:
    """The unpair commands, last round first, that take rounds ``first``..``last`` away."""
    if first >= last:
        return f"unpair --round {last}"
    return f"unpair --round {last}, then each round down to {first}"


def round_set_problems(
    rounds: Sequence[Round],
    sheet_names: Sequence[str],
    planned: int,
    planned_cell: str | None,
) -> list[Problem]:
    """Problems of the Round sheets taken together.

    ``rounds`` are the rounds read (one per sheet named "Round N"), ``planned`` the
    Tournament's Number of rounds, found in ``planned_cell``.
    """
    problems: list[Problem] = []
    numbers = {r.number for r in rounds}
    last = max((r.number for r in rounds if r.games or r.byes), default=0)
    for n in range(1, last):
        if n in numbers:
            continue
        hint = "; ".join(
            f"is '{s}' that sheet? rename it back" for s in renamed_candidates(n, sheet_names)
        )
        problems.append(
            Problem(
                round_sheet(n),
                f"the sheet is missing (deleted or renamed) while round {last} is paired: "
                f"restore it{' (' + hint + ')' if hint else ''}, or unpair the rounds after it "
                f"({_unpair_down(last, n + 1)})",
                affects=Part("round", n),
            )
        )
    for rnd in rounds:
        if not rnd.games and not rnd.byes and rnd.number < last:
            problems.append(
                Problem(
                    round_sheet(rnd.number),
                    f"round {rnd.number} has no games and no byes while round {last} is "
                    "paired: restore its games, or unpair it and the rounds after it "
                    f"({_unpair_down(last, rnd.number)})",
                    "A2",
                    affects=Part("round", rnd.number),
                )
            )
        if rnd.number > planned:
            where = f"Tournament!{planned_cell}" if planned_cell else "the Tournament sheet"
            problems.append(
                Problem(
                    round_sheet(rnd.number),
                    f"round {rnd.number} is beyond the tournament's {planned} rounds "
                    f"({where}, Number of rounds): raise the Number of rounds, or unpair it",
                    affects=Part("round", rnd.number),
                )
            )
    return problems


def sheet_of(number: int) -> str:
    """The name of round ``number``'s sheet, for messages."""
    return round_sheet(number)


def remove_round(tables: Tables, number: int) -> None:
    """Round ``number``'s sheet taken away, with its games, byes and codes."""
    tables.remove_sheet(round_sheet(number))


def remove_rounds(tables: Tables) -> None:
    """Every Round sheet taken away."""
    for sheet in tables.sheet_names():
        if round_number_of(sheet) is not None:
            tables.remove_sheet(sheet)
