"""Results typed into a Round sheet by a program rather than the TD (the demo)."""

from __future__ import annotations

from collections.abc import Callable

from addin.core.model import Result
from addin.workbook.gateway import Tables
from addin.workbook.layout import games_table


def record_results(tables: Tables, number: int, decide: Callable[[int, int, int], Result]) -> None:
    """Each game's Result in round ``number`` set to ``decide(white, black, handicap)``;
    every other cell as it was."""
    table = games_table(number)
    data = tables.read_table(table)
    for row in data.rows:
        white, black = row.whole("white"), row.whole("black")
        if white is not None and black is not None:  # a row without both: no game to decide
            row.values["result"] = decide(white, black, row.whole("handicap") or 0)
    tables.write_table(table, data.rows)
