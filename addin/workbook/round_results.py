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
        white, black = int(row["white"]), int(row["black"])  # type: ignore[call-overload]
        stones = int(row.get("handicap", 0))  # type: ignore[call-overload]
        row.values["result"] = decide(white, black, stones)
    tables.write_table(table, data.rows)
