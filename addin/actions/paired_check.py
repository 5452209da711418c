"""The rounds the Log records as paired, held against the workbook (``paired_rounds``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from addin.core.model import PlayerId, Round
from addin.journal.rounds import round_as_stamped
from addin.workbook import book
from addin.workbook.gateway import Gateway
from addin.workbook.log_sheet import read_log
from addin.workbook.paired_rounds import names_a_round_player, paired_round_problems


def with_paired_round_problems(
    b: book.Book, gw: Gateway, log: Sequence[tuple[str, str]] | None = None
) -> book.Book:
    """``b`` with a problem for each round the Log records as paired that the workbook lost
    (a sheet renamed, emptied, a game row deleted); ``log``: (level, message) of each Log row,
    read here when not given."""
    if log is None:
        log = read_log(gw)
    path = getattr(gw, "path", None)

    def reference(number: int, digest: str) -> tuple[Round, Mapping[PlayerId, str]] | None:
        return round_as_stamped(Path(path), number, digest) if path else None

    misread = {  # games a cell of which names no player: named there already
        n for p in b.problems if (n := names_a_round_player(p)) is not None
    }
    found = paired_round_problems(b.tournament, gw.sheet_names(), log, reference, misread)
    return replace(b, problems=[*b.problems, *found]) if found else b
