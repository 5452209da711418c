"""Any pairing of a round weighed as the engine weighs its own: the totals of the tiers that
depend only on the two players of each game (:data:`.weights.GAME_TIERS`).

Compared tier by tier, most important first, they say where two pairings of the same
round part: the first tier in which one is worse is the rule the other keeps better (the
benchmarks name it for each round another program does better on a lower tier).
"""

from __future__ import annotations

from collections.abc import Iterable

from addin.core.model import PlayerId
from addin.core.pairing import bye as byes
from addin.core.pairing.colors import ColorBook
from addin.core.pairing.field import prepare
from addin.core.pairing.inputs import PairingInput
from addin.core.pairing.weights import BYE_TIER, GAME_TIERS, Context, game_costs


def game_tier_totals(
    inp: PairingInput, games: Iterable[tuple[PlayerId, PlayerId]], bye: PlayerId | None
) -> dict[str, int]:
    """Penalty of each layout-independent tier summed over ``games`` and the forced ``bye``
    (its rank among every player who may take it), keyed by tier name. Games of players
    outside the round's pool (forced pairs) weigh nothing, as in the engine."""
    field = prepare(inp)
    ctx = Context(field, ColorBook(field))
    pool = {e.id: e for e in field.pool}
    played = [
        (min(pool[a].index, pool[b].index), max(pool[a].index, pool[b].index))
        for a, b in games
        if a in pool and b in pool
    ]
    costs = game_costs(played, ctx)
    totals = [sum(c[t] for c in costs) for t in range(len(GAME_TIERS))]
    if bye is not None and bye in pool and byes.needs_bye(field):
        everyone = byes.candidate_sets(field)[-1]
        totals[BYE_TIER] += byes.bye_rank(field, everyone).get(pool[bye].index, len(everyone))
    return {tier.name: total for tier, total in zip(GAME_TIERS, totals, strict=True)}


def colour_rule_breaks(inp: PairingInput, games: Iterable[tuple[PlayerId, PlayerId, int]]) -> int:
    """Criterion 4 breaks in the colours a pairing gives, (white, black, handicap) per game:
    a player taking a colour the rule forbids him in an even game (as
    :class:`.colors.ColorBook` counts them; colours in handicap games follow the handicap)."""
    field = prepare(inp)
    book = ColorBook(field)
    everyone = field.by_id
    return sum(
        book.breaks(everyone[w], everyone[b])
        for w, b, handicap in games
        if not handicap and w in everyone and b in everyone
    )
