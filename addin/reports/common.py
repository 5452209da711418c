"""Helpers every builder shares: names, sort keys, ratings, boards and player numbers."""

from __future__ import annotations

import unicodedata

from addin.core.model import Player, PlayerId, Tournament
from addin.core.participants import no_shows
from addin.core.ratings import RatingError, parse_rating, rank_of
from addin.core.scoring import initial_score, player_ids
from addin.core.tiebreaks import Standing, TiebreakError, standings
from addin.reports.model import ReportError


def _fold(text: str) -> str:
    """Accents off and case folded, so that Ōta sorts with O and García with Garcia."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def name_of(t: Tournament, pid: PlayerId) -> str:
    p = t.players.get(pid)
    return p.name if p is not None else f"AGA #{pid} (not in Players)"


def alpha_key(t: Tournament, pid: PlayerId) -> tuple[str, str, PlayerId]:
    """Alphabetical by family name, then given name, then AGA number."""
    p = t.players.get(pid)
    if p is None:
        return ("\uffff", "", pid)
    return (_fold(p.family_name), _fold(p.given_name), pid)


def rating_of(p: Player | None) -> float | None:
    """The entry rating, or the midpoint of the rank when no rating was entered."""
    if p is None:
        return None
    if p.rating is not None:
        return p.rating
    try:
        return parse_rating(p.rank) if p.rank else None
    except RatingError:
        return None


def rank_label(p: Player | None) -> str:
    """ "6k", "3d": what players read on a wall chart."""
    rating = rating_of(p)
    if rating is None:
        return p.rank if p is not None else ""
    try:
        return rank_of(rating)
    except RatingError:
        return p.rank if p is not None else ""


def is_paired(t: Tournament, number: int) -> bool:
    rnd = t.round(number)
    return rnd is not None and bool(rnd.games or rnd.byes)


def paired_rounds(t: Tournament) -> list[int]:
    return sorted(r.number for r in t.rounds if r.games or r.byes)


def ranked(t: Tournament, after_round: int) -> list[PlayerId]:
    """Players in standing order after ``after_round``.

    Before round 1 there is no standing: players are ranked by initial McMahon score, then
    entry rating, then name, which is also the order a TD lays pairing cards out in.
    A player who never came (``addin.core.participants``) is not ranked, then or later.
    """
    if after_round == 0:
        gone = set(no_shows(t))
        ids = [pid for pid in player_ids(t) if pid not in gone]

        def key(pid: PlayerId) -> tuple[float, float, tuple[str, str, PlayerId]]:
            rating = rating_of(t.players.get(pid))
            return (
                -initial_score(t, pid),
                -(rating if rating is not None else -99.0),
                alpha_key(t, pid),
            )

        return sorted(ids, key=key)
    return [s.player for s in standings_after(t, after_round)]


def standings_after(t: Tournament, after_round: int) -> list[Standing]:
    """``tiebreaks.standings`` with a configuration error turned into a ReportError."""
    try:
        return standings(t, None, after_round)
    except TiebreakError as err:
        raise ReportError(f"the Tournament sheet's tiebreak order: {err}") from err


def player_numbers(t: Tournament, after_round: int) -> dict[PlayerId, int]:
    """Player numbers for the reports of one round: 1 = first in the standings.

    The interface document leaves the numbering to the program and notes that it is
    customary to number by current standing, so numbers change from round to round; every
    report about the same round uses the same numbers.
    """
    return {pid: i for i, pid in enumerate(ranked(t, after_round), start=1)}
