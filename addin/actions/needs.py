"""What an action reads as its input, so that one bad cell stops only what it affects.

Reading the workbook pins every problem to the part of the tournament its cell feeds
(``Problem.affects``, see ``addin.workbook.parts``). Each action declares the parts it
needs: pairing round N needs the rows of the players it pairs, rounds 1..N-1, the bands,
the requests and the settings; the standings need every round and the players' scoring
columns; a report needs nothing it cannot print around. ``read_for`` stops the action on a
problem in what it needs, naming the cell, and asks the TD to accept the others as
warnings, each naming its cell too.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from addin.actions.change import Draft
from addin.actions.paired_check import with_paired_round_problems
from addin.core.model import PlayerId, Status, Tournament
from addin.workbook import book
from addin.workbook.gateway import Problem
from addin.workbook.parts import (
    DIRECTOR_COLUMNS,
    PAIRING_COLUMNS,
    PLAYING_SETTINGS,
    SCORING_COLUMNS,
    is_aga_id,
)

EVERY = None
"""In a ``Needs`` field: every player, column, round or setting."""


@dataclass(frozen=True)
class Needs:
    """The parts of the tournament an action reads; ``EVERY`` (``None``) means all of them."""

    players: Collection[PlayerId | None] | None = ()
    """Whose Players rows (``None`` inside: rows that are not yet a player)."""
    player_columns: Collection[str] | None = EVERY
    rounds: Collection[int] | None = ()
    requests: Collection[int | None] | None = ()
    """Requests of which rounds (``None`` inside: requests for every round)."""
    bands: bool = False
    settings: Collection[str] | None = ()
    unknown_players: bool = False
    """Stop on a cell naming an AGA # that is no player (a game whose player is not listed)
    and on a Players AGA # that cannot be read (whose games are then without their player)."""

    def stops(self, problem: Problem) -> bool:
        """Whether ``problem`` is in an input of the action."""
        part = problem.affects
        if self.unknown_players and (
            problem.missing_player is not None or (problem.unreadable and is_aga_id(part))
        ):
            return True
        if part is None:
            return True
        if part.kind == "player":
            return _within(part.key, self.players) and _within(part.column, self.player_columns)
        if part.kind == "round":
            return _within(part.key, self.rounds)
        if part.kind == "requests":
            return _within(part.key, self.requests)
        if part.kind == "bands":
            return self.bands
        if part.kind == "setting":
            return _within(part.key, self.settings)
        return True


def _within(key: object, wanted: Collection[object] | None) -> bool:
    return wanted is EVERY or key in wanted


NOTHING = Needs()
"""Reports, printing and exports: they print around a bad cell, with a warning."""


def every_player() -> Needs:
    """Actions that go through every Players row and place players in bands (register,
    preregister, bands): all of Players and the Bands sheet."""
    return Needs(players=EVERY, bands=True, settings=PLAYING_SETTINGS)


def standings() -> Needs:
    return Needs(
        players=EVERY,
        player_columns=SCORING_COLUMNS,
        rounds=EVERY,
        settings=PLAYING_SETTINGS,
    )


def pairing(t: Tournament, number: int) -> Needs:
    """Round ``number``: the rows of everyone it pairs, and everything before it."""
    playing: set[PlayerId | None] = {
        p.aga_id
        for p in t.players.values()
        if p.status is Status.ACTIVE and number not in p.bye_requests
    }
    return Needs(
        players=playing | {None},
        player_columns=PAIRING_COLUMNS,
        rounds=range(1, number),
        requests={number, None},
        bands=True,
        settings=PLAYING_SETTINGS,
    )


def director() -> Needs:
    """The director's operations: they check every round's rules and may move any player,
    but never read ranks (entry ratings are what they use) or contact details."""
    return Needs(
        players=EVERY,
        player_columns=DIRECTOR_COLUMNS,
        rounds=EVERY,
        requests=EVERY,
        bands=True,
        settings=PLAYING_SETTINGS,
    )


def carried_elsewhere() -> Needs:
    """A file another program pairs from (OpenGotha): every player, round, request, band
    and playing setting it carries, and every player a game names; contact details are not
    carried."""
    return Needs(
        players=EVERY,
        player_columns=PAIRING_COLUMNS,
        rounds=EVERY,
        requests=EVERY,
        bands=True,
        settings=PLAYING_SETTINGS,
        unknown_players=True,
    )


def screen(draft: Draft, b: book.Book, needs: Needs | Callable[[book.Book], Needs]) -> list[str]:
    """Stop on a problem in what the action needs; the others, as warnings to ask about."""
    wanted = needs(b) if callable(needs) else needs
    draft.require_no_problems(
        [p for p in b.problems if wanted.stops(p)], "fix these problems first"
    )
    aside = (
        f"{draft.action} goes on as if the cell were blank"
        if wanted == NOTHING
        else f"not used by {draft.action}, which goes on"
    )
    return [f"{p} ({aside})" for p in b.problems if not wanted.stops(p)]


def read_for(draft: Draft, needs: Needs | Callable[[book.Book], Needs]) -> book.Book:
    """Read the book; stop on a problem in what the action needs, warn about the rest."""
    b = with_paired_round_problems(book.read_book(draft), draft)
    draft.warn(screen(draft, b, needs))
    return b
