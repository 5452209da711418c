"""The McMahon supergroup (BGA McMahon functional specification, 4.2.3 and note 2).

EGF: when more than 6(N-2) players are at or above the bar (4d), exactly 4(N-2) of them are
promoted to the super bar, one McMahon point above it. Toyota Tour: a bar population of
10-12 players in five rounds and 12-16 in six; above that, the supergroup has 12 or 16
players (other lengths follow the EGF formula). The spec leaves the choice of players to
"separate documentation"; the strongest by entry rating go up (the lower AGA # first on a
tie), as OpenGotha and MacMahon promote from the top.
"""

from __future__ import annotations

from collections.abc import Iterable

from addin.core.european import Supergroup
from addin.core.model import PlayerId, Tournament

TOYOTA: dict[int, tuple[int, int]] = {5: (12, 12), 6: (16, 16)}
"""Toyota Tour, rounds -> (most players above the bar, supergroup size) (note 2)."""


def limits(kind: Supergroup, rounds: int) -> tuple[int, int] | None:
    """(most players the top group holds before a supergroup forms, supergroup size)."""
    if kind is Supergroup.NONE:
        return None
    if kind is Supergroup.TOYOTA and rounds in TOYOTA:
        return TOYOTA[rounds]
    if rounds <= 2:
        return None
    return 6 * (rounds - 2), 4 * (rounds - 2)


def promoted(
    top_group: Iterable[tuple[PlayerId, float]], kind: Supergroup, rounds: int
) -> tuple[PlayerId, ...]:
    """The players promoted one point above the bar, strongest first.

    ``top_group``: (player, entry rating) of everyone at or above the bar.
    """
    top = sorted(top_group, key=lambda entry: (-entry[1], entry[0]))
    bounds = limits(kind, rounds)
    if bounds is None or len(top) <= bounds[0]:
        return ()
    return tuple(pid for pid, _ in top[: bounds[1]])


def describe(kind: Supergroup, rounds: int, count: int, score: float) -> str:
    """A line for the ``bands`` summary and the pairing notes."""
    bounds = limits(kind, rounds)
    rule = "4(N-2)" if kind is Supergroup.EGF or rounds not in TOYOTA else "Toyota Tour"
    above = f"more than {bounds[0]}" if bounds else "too many"
    return (
        f"Supergroup ({kind.value}, {rule}): {above} players at or above the bar, so the "
        f"strongest {count} start at {score:g}, one point above it"
    )


def initial_note(t: Tournament, player: PlayerId) -> str:
    """Why a player's initial score is not their band's, when a European option moved it:
    a supergroup promotion (4.2.3) or a top-group sleeper (4.3). Empty otherwise."""
    p = t.players.get(player)
    band = next((b for b in t.bands if p is not None and b.number == p.effective_band), None)
    if p is None or band is None or band.initial_score is None or p.initial_score is None:
        return ""
    if band.number == 1 and p.initial_score == band.initial_score + 1:
        kind = t.settings.options.supergroup
        if kind is not Supergroup.NONE:
            return f"supergroup: one point above the bar ({kind.value}, BGA 4.2.3)"
    if band.number == 1 and p.initial_score == band.initial_score - 1 and p.bye_requests:
        return "one point below the bar: no sleeping in the top group (BGA 4.3)"
    return ""
