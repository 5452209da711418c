"""Checking the rounds as they stand, hand edits included, against the interface document.

The AGA interface document (Manual pairings) asks for an active warning when the TD

* matches two players against each other twice in one tournament (a rematch);
* plays a player with the same colour three rounds in a row;
* floats a player in the same direction two rounds in a row;
* matches a player who received a game forfeit in the previous round.

The pairing program avoids these; a pair made by hand, or two names swapped in a Round sheet,
may not. :func:`findings` lists every such rule break in the tournament, each with the rounds it
rests on and the players it concerns.

Colours count in even games only, as the pairing counts them: in a handicap game the weaker
player takes Black whatever their history, so a handicap game interrupts a run of colours.
A player floats when their opponent starts the round with a different McMahon score: the
higher one floats down, the other up (protocol, Odd-Numbered Groups).

Noticing hand edits
-------------------
Nothing is kept between actions but the workbook, so an action that checked the rounds logs a
*stamp*: eight hex digits per round that change whenever anything in the round's pairing
changes (:func:`stamp`). The next action compares the rounds with the last stamp in the Log
(:func:`edited_rounds`) and warns about the findings resting on a round changed since, unless
the TD already accepted that very warning (the Log keeps accepted warnings word for word):
:func:`warnings_to_confirm`.
"""

from __future__ import annotations

import enum
import hashlib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from addin.core.model import Bye, Color, Game, PlayerId, Round, Tournament
from addin.core.scoring import score_history

__all__ = [
    "STAMP",
    "Finding",
    "LogLine",
    "Rule",
    "edited_rounds",
    "findings",
    "forfeit_losers",
    "last_stamp",
    "pairing_digest",
    "stamp",
    "warnings_to_confirm",
]

STAMP = re.compile(r"pairings ((?:\d+:[0-9a-f]{8} ?)+)")
"""How a stamp reads inside a Log message."""

LogLine = tuple[str, str]
"""(level, message) of one Log row."""

ACCEPTED_LEVEL = "Warning"
"""Log level of a warning the TD accepted (a declined warning is never logged)."""

RUN = 3
"""The same colour this many rounds running is worth a warning."""


class Rule(enum.Enum):
    """The interface document's rule breaks."""

    REMATCH = "rematch"
    COLOUR = "same colour three rounds running"
    FLOAT = "float in the same direction twice in a row"
    FORFEIT = "paired after a forfeit"


@dataclass(frozen=True)
class Finding:
    """One rule break in one round."""

    rule: Rule
    round: int
    rounds: frozenset[int]
    """Every round the finding rests on: a change to any of them may make or unmake it."""
    players: frozenset[PlayerId]
    message: str


def _name(t: Tournament, pid: PlayerId) -> str:
    p = t.players.get(pid)
    return f"{p.name} ({pid})" if p else f"AGA # {pid}"


def _where(number: int, game: Game) -> str:
    return f"round {number}, board {game.board}" if game.board else f"round {number}"


def even_colours(rnd: Round | None) -> dict[PlayerId, Color]:
    """Each player's colour in the round's even games (handicap games fix the colours)."""
    colours: dict[PlayerId, Color] = {}
    for g in rnd.games if rnd else ():
        if g.handicap == 0:
            colours[g.white], colours[g.black] = Color.WHITE, Color.BLACK
    return colours


def forfeit_losers(rnd: Round | None) -> set[PlayerId]:
    """Players who lost a game by forfeit in ``rnd`` (both players of a double forfeit)."""
    losers: set[PlayerId] = set()
    for g in rnd.games if rnd else ():
        if g.result is None or not g.result.is_forfeit:
            continue
        if g.result.winner is None:
            losers |= set(g.players)
        else:
            losers.add(g.black if g.result.winner is Color.WHITE else g.white)
    return losers


def _floats(rnd: Round, before: Mapping[PlayerId, list[float]]) -> dict[PlayerId, int]:
    """+1 for each player who floated up in ``rnd``, -1 down (scores at the round's start)."""
    moves: dict[PlayerId, int] = {}
    index = rnd.number - 1
    for g in rnd.games:
        if g.white not in before or g.black not in before:
            continue
        w, b = before[g.white][index], before[g.black][index]
        if w != b:
            moves[g.white], moves[g.black] = (-1, 1) if w > b else (1, -1)
    return moves


def _rematches(t: Tournament) -> list[Finding]:
    met: dict[frozenset[PlayerId], int] = {}
    found: list[Finding] = []
    for rnd in t.rounds:
        for g in rnd.games:
            key = frozenset(g.players)
            if key in met:
                first, second = sorted(key)
                found.append(
                    Finding(
                        Rule.REMATCH,
                        rnd.number,
                        frozenset({met[key], rnd.number}),
                        key,
                        f"{_where(rnd.number, g)}: {_name(t, first)} and {_name(t, second)} "
                        f"already played each other in round {met[key]} (a rematch)",
                    )
                )
        for g in rnd.games:
            met.setdefault(frozenset(g.players), rnd.number)
    return found


def _colour_runs(t: Tournament) -> list[Finding]:
    found: list[Finding] = []
    by_round = {r.number: even_colours(r) for r in t.rounds}
    for rnd in t.rounds:
        span = range(rnd.number - RUN + 1, rnd.number + 1)
        for g in rnd.games:
            for pid in g.players:
                colours = {by_round.get(n, {}).get(pid) for n in span}
                colour = next(iter(colours))
                if len(colours) != 1 or colour is None:
                    continue
                found.append(
                    Finding(
                        Rule.COLOUR,
                        rnd.number,
                        frozenset(span),
                        frozenset({pid}),
                        f"{_where(rnd.number, g)}: {_name(t, pid)} takes "
                        f"{colour.name.lower()} {RUN} rounds running "
                        f"(rounds {span.start}-{rnd.number})",
                    )
                )
    return found


def _double_floats(t: Tournament) -> list[Finding]:
    history = score_history(t)
    moves = {rnd.number: _floats(rnd, history) for rnd in t.rounds}
    found: list[Finding] = []
    for rnd in t.rounds:
        previous = moves.get(rnd.number - 1, {})
        for g in rnd.games:
            for pid in g.players:
                move = moves[rnd.number].get(pid)
                if move is None or previous.get(pid) != move:
                    continue
                found.append(
                    Finding(
                        Rule.FLOAT,
                        rnd.number,
                        frozenset({rnd.number - 1, rnd.number}),
                        frozenset({pid}),
                        f"{_where(rnd.number, g)}: {_name(t, pid)} floats "
                        f"{'up' if move > 0 else 'down'} two rounds running "
                        f"(rounds {rnd.number - 1} and {rnd.number})",
                    )
                )
    return found


def _after_forfeits(t: Tournament) -> list[Finding]:
    found: list[Finding] = []
    for rnd in t.rounds:
        losers = forfeit_losers(t.round(rnd.number - 1))
        for g in rnd.games:
            for pid in g.players:
                if pid in losers:
                    found.append(
                        Finding(
                            Rule.FORFEIT,
                            rnd.number,
                            frozenset({rnd.number - 1, rnd.number}),
                            frozenset({pid}),
                            f"{_where(rnd.number, g)}: {_name(t, pid)} lost round "
                            f"{rnd.number - 1} by forfeit and is paired: check they are still here",
                        )
                    )
    return found


def findings(t: Tournament) -> list[Finding]:
    """Every rematch, colour run, double float and game after a forfeit, round by round."""
    found = _rematches(t) + _colour_runs(t) + _double_floats(t) + _after_forfeits(t)
    return sorted(found, key=lambda f: f.round)


# --- noticing hand edits ------------------------------------------------------------------


def pairing_digest(rnd: Round) -> str:
    """Eight hex digits that change whenever a game, a colour, a handicap or a bye changes."""
    return digest_of([game_key(g) for g in rnd.games], [bye_key(b) for b in rnd.byes])


def game_key(game: Game) -> str:
    """What a game gives its round's pairing digest: the players, in colour, and handicap."""
    return f"{game.white}-{game.black}-{game.handicap}"


def bye_key(bye: Bye) -> str:
    """What a bye gives its round's pairing digest: the player and the kind of bye."""
    return f"{bye.player}:{bye.kind.value}"


def digest_of(games: Iterable[str], byes: Iterable[str]) -> str:
    """The pairing digest of a round whose games and byes have these keys."""
    return hashlib.sha256(";".join(sorted(games) + sorted(byes)).encode()).hexdigest()[:8]


def stamp(rounds: Iterable[Round]) -> str:
    """``pairings 1:0a1b2c3d 2:...``; empty when no round is paired."""
    parts = [f"{r.number}:{pairing_digest(r)}" for r in sorted(rounds, key=lambda r: r.number)]
    return f"pairings {' '.join(parts)}" if parts else ""


def last_stamp(messages: Iterable[str]) -> dict[int, str]:
    """Round -> digest, from the last stamp among ``messages`` (oldest first)."""
    found: dict[int, str] = {}
    for message in messages:
        match = STAMP.search(message)
        if match:
            found = {int(n): d for n, d in (p.split(":") for p in match.group(1).split())}
    return found


RESULTS_STAMP = re.compile(r"results digest ((?:\d+:[0-9a-f]{8} ?)+)")


def results_digest(rnd: Round) -> str:
    """Eight hex digits that change whenever any result of the round changes."""
    text = ";".join(
        f"{g.white}-{g.black}:{g.result.value if g.result else ''}"
        for g in sorted(rnd.games, key=lambda g: (g.white, g.black))
    )
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def results_digests(t: Tournament) -> dict[int, str]:
    return {r.number: results_digest(r) for r in t.rounds}


def last_results_stamp(log: Sequence[LogLine]) -> dict[int, str]:
    """The results digests last recorded in the Log's (level, message) lines."""
    for _, message in reversed(log):
        match = RESULTS_STAMP.search(message)
        if match:
            pairs = (p.split(":") for p in match.group(1).split())
            return {int(n): d for n, d in pairs}
    return {}


def changed_earlier_rounds(t: Tournament, before: Mapping[int, str]) -> list[int]:
    """Rounds, other than the last, whose results changed since the last standings."""
    if not t.rounds:
        return []
    last = max(r.number for r in t.rounds)
    now = results_digests(t)
    return [n for n, d in sorted(now.items()) if n < last and n in before and before[n] != d]


def results_changed_warnings(t: Tournament, log: Sequence[LogLine]) -> list[str]:
    """A warning for each earlier round whose results changed since the last stamp."""
    return [
        f"results of round {n} changed after a later round was paired: "
        "every score and tiebreak after it is recomputed"
        for n in changed_earlier_rounds(t, last_results_stamp(log))
    ]


def edited_rounds(rounds: Iterable[Round], stamped: Mapping[int, str]) -> set[int]:
    """Rounds whose pairing differs from the stamp (or that no stamp covers)."""
    return {r.number for r in rounds if stamped.get(r.number) != pairing_digest(r)}


def warnings_to_confirm(
    after: Tournament,
    log: Sequence[LogLine],
    before: Tournament | None = None,
    own: Collection[Rule] = tuple(Rule),
) -> list[str]:
    """The findings the TD has not confirmed yet.

    ``after``: the rounds as they will stand; ``before``: as the workbook holds them, when an
    action changes them (``None`` otherwise). A finding is unconfirmed when it is new since
    ``before`` and breaks one of the ``own`` rules (the action's own change: a result
    correction, say, asks about a forfeit it records, not about floats that scores changed in
    retrospect), or when it rests on a round edited by hand since the last stamp in ``log``
    and the Log does not hold its warning as accepted.
    """
    current = before if before is not None else after
    edited = edited_rounds(current.rounds, last_stamp(m for _, m in log))
    if before is None and not edited:
        return []  # nothing new and nothing edited by hand: no finding can be unconfirmed
    accepted = {m for level, m in log if level == ACCEPTED_LEVEL}
    existing = {f.message for f in findings(before)} if before is not None else None
    return [
        f.message
        for f in findings(after)
        if (existing is not None and f.rule in own and f.message not in existing)
        or (f.rounds & edited and f.message not in accepted)
    ]
