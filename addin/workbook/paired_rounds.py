"""Every round the Log records as paired is in the workbook as it was paired.

``round_sheets`` catches a round deleted, renamed or emptied *below* a round with games:
the later round betrays it. The last paired round has no later round to betray it, so it
is held to the Log instead. Every action that pairs, changes or checks the rounds logs a
stamp (``Checked the pairings 1:0a1b2c3d 2:...``, ``addin.core.consistency``) and ``unpair``
logs "Removed the pairing of round N"; together they say which rounds are paired and each
one's pairing digest. A round so recorded whose sheet is gone (deleted or renamed), is
empty, or lost a game or a bye since is a problem of the whole tournament: pairing the next
round, the standings, the AGA report and the printouts would all go on as if the game had
never been played. The journal's copy of the workbook as the stamp saw it
(``addin.journal.rounds``) names the players who lost their game; ``unpair`` throws away a
last round whose games are gone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace

from addin.core.consistency import STAMP, pairing_digest
from addin.core.lost_rows import absent_from, lost_since_stamp
from addin.core.model import PlayerId, Round, Tournament
from addin.workbook.gateway import Problem
from addin.workbook.layout import byes_table, games_table, round_number_of, round_sheet
from addin.workbook.round_sheets import renamed_candidates

_PLAYER_COLUMNS = {
    games_table(1).column("white").header,
    games_table(1).column("black").header,
    byes_table(1).column("player").header,
}


def names_a_round_player(problem: Problem) -> int | None:
    """The round whose player cell (White, Black or Bye AGA #) ``problem`` is in; None for
    any other cell."""
    number = round_number_of(problem.sheet)
    return number if number is not None and problem.column in _PLAYER_COLUMNS else None


UNPAIRED = re.compile(r"^Removed the pairing of round (\d+)\b")
"""``unpair``'s Log message."""

EMPTY = pairing_digest(Round(0))
"""The digest of a round with no game and no bye."""

NAMED = 6
"""Players named in a message at most; the rest are counted."""

Reference = Callable[[int, str], "tuple[Round, Mapping[PlayerId, str]] | None"]
"""Round number and stamped digest -> the round as stamped and its players' names, or None
when no copy of it is at hand (no journal)."""


def paired_in_log(log: Iterable[tuple[str, str]]) -> dict[int, str]:
    """Round -> pairing digest of every round the Log records as paired now."""
    paired: dict[int, str] = {}
    for _, message in log:
        stamp = STAMP.search(message)
        if stamp:
            paired = {int(n): d for n, d in (p.split(":") for p in stamp.group(1).split())}
            continue
        unpaired = UNPAIRED.match(message)
        if unpaired:
            paired.pop(int(unpaired.group(1)), None)
    return paired


def _players(rnd: Round) -> set[PlayerId]:
    return rnd.paired_players() | {b.player for b in rnd.byes}


def _listed(pids: Iterable[PlayerId], names: Mapping[PlayerId, str]) -> str:
    shown = [f"{names[p]} ({p})" if names.get(p) else f"AGA # {p}" for p in pids]
    if len(shown) > NAMED:
        return ", ".join(shown[:NAMED]) + f" and {len(shown) - NAMED} more"
    return ", ".join(shown)


def _lost(
    reference: tuple[Round, Mapping[PlayerId, str]] | None, now: set[PlayerId]
) -> tuple[list[PlayerId], Mapping[PlayerId, str], str]:
    """The players the round as stamped had and ``now`` lacks, their names, and the rows
    that held them ("board 3: White ..., Black ..., handicap 0")."""
    if reference is None:
        return [], {}, ""
    rnd, names = reference
    order = [p for g in rnd.games for p in g.players] + [b.player for b in rnd.byes]
    lost = [p for p in order if p not in now]
    rows = [
        (f"board {g.board}: " if g.board else "")
        + f"White {_listed([g.white], names)}, Black {_listed([g.black], names)}, "
        f"handicap {g.handicap}"
        for g in rnd.games
        if set(g.players) - now
    ]
    rows += [
        f"a {b.kind.value.lower()} bye for {_listed([b.player], names)}"
        for b in rnd.byes
        if b.player not in now
    ]
    more = f" and {len(rows) - NAMED} more" if len(rows) > NAMED else ""
    return lost, names, "; ".join(rows[:NAMED]) + more


def _as_stamped(
    t: Tournament, rnd: Round, digest: str
) -> tuple[Round, Mapping[PlayerId, str]] | None:
    """Round ``rnd`` as the Log stamped it, found from its digest alone (no journal copy):
    with the games and byes a row deleted by hand took away (``addin.core.lost_rows``)."""
    lost = lost_since_stamp(rnd, digest, absent_from(t, rnd.number))
    if lost is None:
        return None
    names = {pid: p.name for pid, p in t.players.items()}
    return replace(rnd, games=rnd.games + lost.games, byes=rnd.byes + lost.byes), names


def _renamed(number: int, sheet_names: Sequence[str]) -> list[str]:
    """Sheets that look like round ``number`` renamed ("Round 3 old", "Round three")."""
    found = renamed_candidates(number, sheet_names)
    if found:
        return found
    return [
        s
        for s in sheet_names
        if "".join(s.split()).casefold().startswith("round") and round_number_of(s) is None
    ]


def paired_round_problems(
    t: Tournament,
    sheet_names: Sequence[str],
    log: Iterable[tuple[str, str]],
    reference: Reference,
    misread: Collection[int] = (),
) -> list[Problem]:
    """The rounds the Log records as paired that the workbook no longer holds as paired.

    ``t.rounds``: one per "Round N" sheet, as read. Rounds below the last with games that are
    missing or empty are left to ``round_sheets``, which names them already; so are the
    games of the ``misread`` rounds, whose cells that could not be read are named already.
    Without a journal copy of a round (``reference`` gives None) the players who lost their
    game are found from the stamped digest itself.
    """
    rounds = t.rounds
    current = {r.number: r for r in rounds}
    played = max((r.number for r in rounds if r.games or r.byes), default=0)
    problems: list[Problem] = []
    for number, digest in sorted(paired_in_log(log).items()):
        rnd = current.get(number)
        if digest == EMPTY or (rnd is not None and pairing_digest(rnd) == digest):
            continue
        gone = rnd is None or not (rnd.games or rnd.byes)
        if (gone and number < played) or (not gone and number in misread):
            continue
        stamped = reference(number, digest)
        if stamped is None and not gone and rnd is not None:
            stamped = _as_stamped(t, rnd, digest)
        lost, names, rows = _lost(stamped, _players(rnd) if rnd else set())
        who = f" ({len(lost)} players: {_listed(lost, names)})" if lost else ""
        sheet = round_sheet(number)
        if rnd is None:
            hint = "; ".join(
                f"is '{s}' that sheet? rename it back" for s in _renamed(number, sheet_names)
            )
            problems.append(
                Problem(
                    sheet,
                    f"the sheet is missing (deleted or renamed), but the Log records round "
                    f"{number} as paired{who}: restore it{' (' + hint + ')' if hint else ''}, "
                    f"or throw the round away with unpair --round {number}",
                )
            )
        elif gone:
            problems.append(
                Problem(
                    sheet,
                    f"round {number} has no games and no byes, but the Log records it as "
                    f"paired{who}: restore its games, or throw the round away with unpair "
                    f"--round {number}",
                    "A2",
                )
            )
        elif lost:
            problems.append(
                Problem(
                    sheet,
                    f"round {number} has lost games or byes since it was paired: "
                    f"{_listed(lost, names)} now have neither: restore the rows ({rows}); "
                    "to take a game away, restore it and break-pair it",
                )
            )
    return problems
