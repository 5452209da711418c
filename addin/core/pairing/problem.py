"""The weighted matching problem: candidate games with their tier penalties and weights.

Penalties are combined with the tier scales of :mod:`.weights` into one integer weight per
edge (``weight = offset - penalty``, all positive); the bounds behind the scales are taken
from the graph itself, which keeps the numbers small (see :func:`.weights.scales_for`).
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping, Sequence
from dataclasses import dataclass
from operator import add
from typing import cast

from addin.core.pairing.field import Field
from addin.core.pairing.structure import Layout, Structure
from addin.core.pairing.weights import (
    GAME_TIERS,
    LAYOUT_TIERS,
    TIERS,
    Context,
    Placer,
    bye_costs,
    combine,
    game_costs,
    scales_for,
    tier_bound,
)


@dataclass(frozen=True)
class Problem:
    """A weighted graph ready for a matching backend."""

    nodes: int
    edges: tuple[tuple[int, int], ...]
    costs: tuple[tuple[int, ...], ...]
    """Per edge, the penalty of every tier (:data:`.weights.TIER_NAMES`)."""
    scales: tuple[int, ...]
    weights: tuple[int, ...]
    bye_node: int | None

    @property
    def max_weight(self) -> int:
        return max(self.weights, default=0)


class Placements:
    """Layout costs (``switch``, ``shift``) of the candidate games of earlier passes of one
    round, by the layout they were placed under: a game's layout tiers depend only on the
    layout of the higher player's score group, and a pass usually changes few groups'
    layouts."""

    def __init__(self) -> None:
        self.costs: dict[tuple[int, int], tuple[int, tuple[int, int]]] = {}
        self._layouts: dict[Layout, int] = {}

    def versions(self, structure: Structure) -> list[int]:
        """A number per group, the same for equal layouts of any pass."""
        return [self._layouts.setdefault(lay, len(self._layouts)) for lay in structure.layouts]

    def place(
        self, field: Field, structure: Structure, edges: Sequence[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """(switch, shift) of each game under ``structure``: kept where the higher
        player's group has the layout it was placed under, the others all at once."""
        version = self.versions(structure)
        layout_of = [version[e.group] for e in field.pool]  # the layout a player's games take
        kept = self.costs
        found = [kept.get(e) for e in edges]
        costs = [
            None if f is None or f[0] != layout_of[e[0]] else f[1]
            for e, f in zip(edges, found, strict=True)
        ]
        fresh = [k for k, c in enumerate(costs) if c is None]
        if fresh:
            games = [edges[k] for k in fresh]
            placed = Placer(field, structure).costs(games)
            layouts = [layout_of[i] for i, _ in games]
            kept.update(zip(games, zip(layouts, placed, strict=True), strict=True))
            if len(fresh) == len(costs):
                return placed
            for k, c in zip(fresh, placed, strict=True):
                costs[k] = c
        return cast(list[tuple[int, int]], costs)


def build_problem(
    field: Field,
    ctx: Context,
    structure: Structure,
    pairs: Sequence[tuple[int, int]],
    bye_ranks: dict[int, int] | None,
    cache: MutableMapping[tuple[int, int], tuple[int, ...]],
    placements: Placements | None = None,
) -> Problem:
    """Weights of the candidate games (and bye edges) under ``structure``.

    ``cache`` keeps the layout-independent costs between passes and densities;
    ``placements`` the layout costs of games whose score group kept its layout.

    A game's weight is its tiers' penalties times the tiers' scales. The layout-independent
    penalties of a round's games take few distinct values (most games are within a score
    group and break nothing), so each distinct one is weighed once.
    """
    pool = field.pool
    edges: list[tuple[int, int]] = list(pairs)
    unknown = [e for e in edges if e not in cache]
    if unknown:
        cache.update(zip(unknown, game_costs(unknown, ctx), strict=True))
    game = list(map(cache.__getitem__, edges))
    layout = (placements if placements is not None else Placements()).place(field, structure, edges)
    bye_node = None
    if bye_ranks is not None:
        bye_node = len(pool)
        for i in sorted(bye_ranks):
            edges.append((i, bye_node))
            game.append(bye_costs(bye_ranks[i]))
            layout.append((0, 0))
    nodes = len(pool) + (bye_node is not None)
    distinct_game, distinct_layout = set(game), set(layout)
    maxima = _most(distinct_game, len(GAME_TIERS)) + _most(distinct_layout, len(LAYOUT_TIERS))
    scales = scales_for([tier_bound(t, m, nodes) for t, m in zip(TIERS, maxima, strict=True)])
    upper, lower = scales[: len(GAME_TIERS)], scales[len(GAME_TIERS) :]
    game_total = {c: combine(c, upper) for c in distinct_game}
    layout_total = {c: combine(c, lower) for c in distinct_layout}
    totals = list(
        map(add, map(game_total.__getitem__, game), map(layout_total.__getitem__, layout))
    )
    offset = max(totals, default=0) + 1
    return Problem(
        nodes=nodes,
        edges=tuple(edges),
        costs=tuple(map(add, game, layout)),
        scales=scales,
        weights=tuple(map(offset.__sub__, totals)),
        bye_node=bye_node,
    )


def _most(costs: Iterable[tuple[int, ...]], tiers: int) -> list[int]:
    """The largest penalty of each of the ``tiers`` among ``costs`` (0 without any)."""
    return [max(tier) for tier in zip(*costs, strict=True)] or [0] * tiers
