"""The Round sheets as a whole: every round below the last one paired is there and has games.

Reading one Round sheet finds what is wrong inside it (a player twice, a handicap of 12).
Only the set of sheets shows what a TD's sheet tab did: a round deleted, renamed or
emptied while a later round has games, or a round beyond the tournament's Number of
rounds. Without these checks the standings would silently score the missing round as
absent. Empty rounds after the last one with games are no problem: an AGA report of a
tournament stopped early lists them so (tests/data/aga-xml/2013-12.xml).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace

from addin.core.codes import normal_code, with_codes
from addin.core.consistency import STAMP, pairing_digest
from addin.core.lost_rows import absent_from, lost_since_stamp
from addin.core.model import Player, PlayerId, Round, Tournament
from addin.workbook.gateway import Part, Problem, Row, TableData, Tables, TableSource
from addin.workbook.layout import byes_table, codes_table, games_table, round_number_of, round_sheet


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
        and not _squashed(s)[len(wanted) :][:1].isdecimal()
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


# --- a round rewritten, the TD's columns kept ---------------------------------------------
# A round changed by hand (the director's operations) written back to its sheet.
#
# Each game and bye row carries the TD's own columns of the row it replaces: a game is the
# same game while it has the same two players, a bye while it is the same player's.


def _keep_extras(
    rows: list[dict[str, object]],
    old: TableData | None,
    key: Callable[[Mapping[str, object]], object],
) -> list[Row]:
    """Rows to write, each carrying the TD's own columns of the row it replaces."""
    extras = {key(r.values): r.extra for r in old.rows} if old else {}
    return [Row(values, extra=dict(extras.get(key(values), {}))) for values in rows]


def _pair_key(v: Mapping[str, object]) -> object:
    return frozenset((v.get("white"), v.get("black")))


def _bye_key(v: Mapping[str, object]) -> object:
    return v.get("player")


def rewrite_round(
    tables: Tables,
    read: Mapping[str, TableData],
    rnd: Round,
    players: Mapping[PlayerId, Player],
) -> None:
    """Round ``rnd``'s games and byes in place of those read (``read``: the tables as read,
    by name)."""
    games, byes = round_rows(rnd, players)
    games_t, byes_t = games_table(rnd.number), byes_table(rnd.number)
    tables.write_table(games_t, _keep_extras(games, read.get(games_t.name), _pair_key))
    tables.write_table(byes_t, _keep_extras(byes, read.get(byes_t.name), _bye_key))


def round_rows(
    rnd: Round, players: Mapping[PlayerId, Player]
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    def name(pid: PlayerId) -> str | None:
        p = players.get(pid)
        return p.name if p else None

    def rating(pid: PlayerId) -> float | None:
        p = players.get(pid)
        return p.rating if p else None

    games: list[dict[str, object]] = [
        {
            "board": g.board,
            "white": g.white,
            "white_name": name(g.white),
            "white_rating": rating(g.white),
            "black": g.black,
            "black_name": name(g.black),
            "black_rating": rating(g.black),
            "handicap": g.handicap,
            "komi": g.komi,
            "result": g.result,
            "notes": g.notes or None,
        }
        for g in rnd.games
    ]
    byes: list[dict[str, object]] = [
        {"player": b.player, "name": name(b.player), "kind": b.kind.value} for b in rnd.byes
    ]
    return games, byes


def write_round(tables: Tables, rnd: Round, players: Mapping[PlayerId, Player]) -> None:
    games, byes = round_rows(rnd, players)
    tables.write_table(games_table(rnd.number), games)
    tables.write_table(byes_table(rnd.number), byes)


# --- the rounds the Log records as paired -------------------------------------------------
# Every round the Log records as paired is in the workbook as it was paired.
#
# ``round_sheets`` catches a round deleted, renamed or emptied *below* a round with games:
# the later round betrays it. The last paired round has no later round to betray it, so it
# is held to the Log instead. Every action that pairs, changes or checks the rounds logs a
# stamp (``Checked the pairings 1:0a1b2c3d 2:...``, ``addin.core.consistency``) and ``unpair``
# logs "Removed the pairing of round N"; together they say which rounds are paired and each
# one's pairing digest. A round so recorded whose sheet is gone (deleted or renamed), is
# empty, or lost a game or a bye since is a problem of the whole tournament: pairing the next
# round, the standings, the AGA report and the printouts would all go on as if the game had
# never been played. The journal's copy of the workbook as the stamp saw it
# (``addin.journal.rounds``) names the players who lost their game; ``unpair`` throws away a
# last round whose games are gone.


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

    ``t.rounds``: one per "Round N" sheet, as read. Rounds below the last with games that
    are missing or empty are left to ``round_set_problems``, which names them already; so
    are the games of the ``misread`` rounds, whose cells that could not be read are named
    already. Without a journal copy of a round (``reference`` gives None) the players who
    lost their game are found from the stamped digest itself.
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


# --- each board's result code -------------------------------------------------------------
# The codes table of a Round sheet: each board's result code, as the TD's copy.
#
# What a code is and how one is made belongs to ``addin.publish``; this module only
# knows where the codes live.


def read_round_codes(tables: TableSource, number: int) -> list[tuple[object, object]]:
    """Each row's (board, code) as read, of round ``number`` (none before codes existed)."""
    return [
        (row.get("board"), row.get("code")) for row in tables.read_table(codes_table(number)).rows
    ]


def write_round_codes(tables: Tables, number: int, codes: Mapping[int, str]) -> None:
    """Replace round ``number``'s codes with ``codes`` (board -> code), boards in order."""
    rows = [{"board": board, "code": code} for board, code in sorted(codes.items())]
    tables.write_table(codes_table(number), rows)


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
    codes = with_codes(rnd, old, new_round=new_round)
    if codes != old:
        write_round_codes(tables, rnd.number, codes)
    return codes
