"""The report kinds, their sort orders and what round each needs; one entry point.

Sort orders are the ones the interface document lists for each report (the first is the
default). Rounds, by kind:

* ``round``: a round that has been paired (pairing list, win/loss, result slips);
* ``after``: standings after a paired round (cross table, tiebreak list);
* ``upto``: like ``after`` but 0 is allowed before round 1 (bye/drop report, pairing cards,
  which a TD prints before the first round as a manual-pairing backup);
* ``none``: the round does not matter (registration).

Projected ratings (unofficial) need the TDListA sheet's ratings, which the action reads and
hands over (``ratings_of``): the builder stays pure.

Without ``round`` a report is about the last round paired.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from addin.core.model import PlayerId, Tournament
from addin.reports import builders, projected
from addin.reports.common import is_paired, paired_rounds
from addin.reports.model import Query, Report, ReportError

RoundUse = Literal["round", "after", "upto", "none"]
Builder = Callable[[Tournament, Query], Report]


@dataclass(frozen=True)
class Kind:
    name: str
    title: str
    sorts: tuple[str, ...]
    rounds: RoundUse
    build: Builder
    help: str
    projected: bool = False
    """The report shows projected ratings (the action passes them: ``ratings_of``)."""


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind(
            "registration",
            "Registration",
            ("alphabetical",),
            "none",
            builders.registration,
            "sign-up sheet: AGA #, name, entry rating",
        ),
        Kind(
            "pairings",
            "Pairing list",
            ("alphabetical", "board"),
            "round",
            builders.pairings,
            "board, colour and opponent of every player",
        ),
        Kind(
            "winloss",
            "Win-loss",
            ("alphabetical",),
            "round",
            builders.winloss,
            "each player's result in the round",
        ),
        Kind(
            "crosstable",
            "Cross table",
            ("alphabetical", "standing"),
            "after",
            builders.crosstable,
            "opponents and results per round, McMahon score, tiebreaks",
        ),
        Kind(
            "tiebreaks",
            "Tiebreak list",
            ("alphabetical", "rating", "wins"),
            "after",
            builders.tiebreaks,
            "wins, McMahon score, opponents beaten and lost to, tiebreaks",
        ),
        Kind(
            "byes",
            "Byes and drops",
            ("alphabetical",),
            "upto",
            builders.byes,
            "byes (Request or Forced) and drops, with their rounds",
        ),
        Kind(
            "cards",
            "Pairing cards",
            ("number", "alphabetical"),
            "upto",
            builders.cards,
            "a card per player with three boxes per round",
        ),
        Kind(
            "slips",
            "Result slips",
            ("board",),
            "round",
            builders.slips,
            "one slip per board to mark the winner",
        ),
        Kind(
            "ratings",
            "Projected ratings",
            ("alphabetical", "change"),
            "after",
            projected.ratings,
            "each player's AGA rating before, projected rating and change (unofficial)",
            projected=True,
        ),
    )
}

SORT_WORDS = {"alphabetical": "name"}
"""The word a TD reads and may type for a sort order: the Reports menu's "by name" is the
interface document's ``alphabetical``; ``--sort name`` and ``--sort alphabetical`` are one."""

SORTS: tuple[str, ...] = tuple(
    dict.fromkeys(w for k in KINDS.values() for s in k.sorts for w in (SORT_WORDS.get(s, s), s))
)
"""Every sort order a report takes, each in the TD's word and the interface document's."""


def sort_word(sort: str) -> str:
    """The sort order as the Reports menu and the messages say it (``name``, ``board``)."""
    return SORT_WORDS.get(sort, sort)


def kind(name: str) -> Kind:
    found = KINDS.get(name.strip().lower())
    if found is None:
        raise ReportError(f"unknown report {name!r}; the reports are: {', '.join(KINDS)}")
    return found


def sort_of(k: Kind, sort: str | None) -> str:
    if sort is None or not sort.strip():
        return k.sorts[0]
    typed = sort.strip().lower()
    chosen = next((s for s in k.sorts if typed in (s, sort_word(s))), None)
    if chosen is None:
        words = tuple(sort_word(s) for s in k.sorts)
        raise ReportError(f"the {k.name} report cannot be sorted {typed!r}; choose {_or(words)}")
    return chosen


def _or(items: tuple[str, ...]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def round_of(t: Tournament, k: Kind, number: int | None) -> int:
    """The round the report is about, checked against the rounds paired so far."""
    if k.rounds == "none":
        return number or 0
    paired = paired_rounds(t)
    last = paired[-1] if paired else 0
    if number is None:
        if last == 0 and k.rounds != "upto":
            raise ReportError(f"the {k.name} report needs a paired round, and none is paired yet")
        return last
    if number < 1:
        raise ReportError(f"round {number} does not exist: rounds are numbered from 1")
    total = max(t.settings.rounds, last)
    if number > total:
        raise ReportError(f"round {number} does not exist: the tournament has {total} rounds")
    if not is_paired(t, number):
        done = f"rounds paired so far: {_span(paired)}" if paired else "no round is paired yet"
        raise ReportError(f"round {number} has not been paired yet ({done})")
    return number


def _span(rounds: list[int]) -> str:
    if rounds == list(range(rounds[0], rounds[-1] + 1)) and len(rounds) > 1:
        return f"{rounds[0]}-{rounds[-1]}"
    return ", ".join(str(r) for r in rounds)


def build_report(
    t: Tournament,
    name: str,
    sort: str | None = None,
    round: int | None = None,
    printed: date | None = None,
    codes_of: Callable[[int], Mapping[int, str]] | None = None,
    ratings_of: Callable[[int], Mapping[PlayerId, projected.ProjectedRating]] | None = None,
) -> Report:
    """The report ``name`` (see :data:`KINDS`); raises :class:`ReportError` when it cannot be.
    ``codes_of``: a round's result codes by board, printed on its result slips;
    ``ratings_of``: the ratings projected from the rated games up to a round (without it a
    projected-ratings report shows none)."""
    k = kind(name)
    q = Query(k.name, sort_of(k, sort), round_of(t, k, round), printed or date.today())
    if codes_of is not None and q.round:
        q = replace(q, codes=tuple(sorted(codes_of(q.round).items())))
    if k.projected and ratings_of is not None:
        found = ratings_of(q.round)
        q = replace(
            q,
            ratings=tuple((int(p), r.before, r.rating, r.sigma) for p, r in sorted(found.items())),
        )
    return k.build(t, q)
