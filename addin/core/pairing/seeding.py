"""Seeding within a McMahon group (BGA McMahon functional specification, 7.3).

"Various strategies have been devised for pairing players in the same McMahon group
including: Random, Split & Fold, and Split & Match. The last two of these require seeding
the players in the McMahon group and this is usually done using one or other of the
tie-breaks." The field is sorted by score, then by the seeding key here, then by rating; the
AGA seeding (by rating) adds no key, so an AGA field's order is exactly the protocol's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence

from addin.core.european import FloatChoice, GroupPairing, GroupSeeding
from addin.core.model import PlayerId, Round, Settings
from addin.core.pairing.history import previous_round_points

SeedKey = Callable[[PlayerId], tuple[float, ...]]


def sos_so_far(history: Iterable[Round], scores: Mapping[PlayerId, float]) -> dict[PlayerId, float]:
    """Each player's sum of opponents' McMahon scores (spec 5.3) before this round: the
    opponents' current scores; a round without a game adds the player's own score."""
    sos: dict[PlayerId, float] = {}
    rounds = list(history)
    for rnd in rounds:
        seen: set[PlayerId] = set()
        for game in rnd.games:
            for me, other in ((game.white, game.black), (game.black, game.white)):
                sos[me] = sos.get(me, 0.0) + scores.get(other, 0.0)
                seen.add(me)
        for player, score in scores.items():
            if player not in seen:
                sos[player] = sos.get(player, 0.0) + score
    return sos


def _draw(seed: int, number: int, player: PlayerId) -> float:
    digest = hashlib.sha256(f"{seed}:{number}:{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def seed_key(
    settings: Settings, number: int, history: Iterable[Round], scores: Mapping[PlayerId, float]
) -> SeedKey:
    """The key that orders a score group before its rating order: higher first."""
    seeding = settings.options.group_seeding
    if seeding is GroupSeeding.SOS:
        sos = sos_so_far(history, scores)
        return lambda player: (-sos.get(player, 0.0),)
    if seeding is GroupSeeding.RANDOM:
        return lambda player: (_draw(settings.seed, number, player),)
    return lambda player: ()


def partner(position: int, size: int, half: int, pairing: GroupPairing) -> int:
    """The seeded partner of ``position`` in a group of ``size``: shift (p + half) or fold
    (the mirror, size - 1 - p)."""
    if pairing is GroupPairing.FOLD:
        return size - 1 - position
    return position + half


def uses_sos(settings: Settings) -> bool:
    """Whether an option reads each player's SOS so far (7.3 seeding, 6.1.2 floats)."""
    options = settings.options
    return options.group_seeding is GroupSeeding.SOS or options.float_choice is FloatChoice.EGF_SOS


def sos_ranks(sos: Sequence[float], groups: Sequence[Sequence[int]]) -> list[int]:
    """Per pool index, its place by SOS in its own score group (0 = highest; ties keep the
    field order)."""
    ranks = [0] * len(sos)
    for members in groups:
        for place, i in enumerate(sorted(members, key=lambda i: (-sos[i], i))):
            ranks[i] = place
    return ranks


HIGH, NEUTRAL, LOW = 0, 1, 2
"""Costs of a float priority (6.1.1): lower is drawn first."""


def float_priorities(
    history: Iterable[Round], scores: Mapping[PlayerId, float]
) -> dict[PlayerId, tuple[int, int]]:
    """Spec 6.1.1: (priority up, priority down) from each player's most recent float.

    ========  ======  ===========  =============
    floated   result  priority up  priority down
    ========  ======  ===========  =============
    down      win     high         low
    up        lose    low          high
    down      lose    low          low
    up        win     low          low
    ========  ======  ===========  =============

    A player who never floated (or drew their float) is neutral both ways. Scores before
    each earlier round come from ``scores`` (before this round) less the points earned since.
    """
    priorities: dict[PlayerId, tuple[int, int]] = {}
    running = dict(scores)
    for rnd in sorted(history, key=lambda r: r.number, reverse=True):
        earned = previous_round_points(rnd)
        before = {p: running[p] - points for p, points in earned.items() if p in running}
        for game in rnd.games:
            w, b = game.white, game.black
            if w not in before or b not in before or before[w] == before[b]:
                continue
            for player, down in ((w, before[w] > before[b]), (b, before[b] > before[w])):
                if player in priorities:
                    continue
                won = earned.get(player, 0.0)
                if won == 0.5:
                    priorities[player] = (NEUTRAL, NEUTRAL)
                elif down and won == 1.0:
                    priorities[player] = (HIGH, LOW)
                elif not down and won == 0.0:
                    priorities[player] = (LOW, HIGH)
                else:
                    priorities[player] = (LOW, LOW)
        running.update(before)
    return priorities


def draw_rank(settings: Settings, number: int, player: PlayerId, ranks: int) -> int:
    """A repeatable random rank in 0..ranks-1 (6.1.1: "we choose a player at random")."""
    return int(_draw(settings.seed, number, player) * ranks)
