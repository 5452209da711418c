"""The weighted matching problem: candidate games with their tier penalties and weights.

Penalties are combined with the tier scales of :mod:`.weights` into one integer weight per
edge (``weight = offset - penalty``, all positive); the bounds behind the scales are taken
from the graph itself, which keeps the numbers small (see :func:`.weights.scales_for`).
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import add, mul
from typing import cast

from addin.core.pairing.field import Field
from addin.core.pairing.structure import Layout, Structure
from addin.core.pairing.weights import (
    TIERS,
    Context,
    Placer,
    bye_costs,
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
    """Full costs of the candidate games of earlier passes of one round, by the layout
    they were placed under: a game's layout tiers depend only on the layout of the higher
    player's score group, and a pass usually changes few groups' layouts."""

    def __init__(self) -> None:
        self.costs: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        self._layouts: dict[Layout, int] = {}

    def versions(self, structure: Structure) -> list[int]:
        """A number per group, the same for equal layouts of any pass."""
        return [self._layouts.setdefault(lay, len(self._layouts)) for lay in structure.layouts]


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
    ``placements`` the full costs of games whose score group kept its layout.
    """
    pool = field.pool
    placed = placements if placements is not None else Placements()
    version = placed.versions(structure)
    edges: list[tuple[int, int]] = list(pairs)
    group = ctx.group
    kept = placed.costs
    found = [kept.get(e) for e in edges]
    costs = [
        None if f is None or f[0] != version[group[e[0]]] else f[1]
        for e, f in zip(edges, found, strict=True)
    ]
    fresh = [k for k, c in enumerate(costs) if c is None]
    if fresh:  # games not yet weighed under their group's layout: all at once
        games = [edges[k] for k in fresh]
        unknown = [e for e in games if e not in cache]
        cache.update(zip(unknown, game_costs(unknown, ctx), strict=True))
        layout = Placer(field, structure).costs(games)
        full = list(map(add, map(cache.__getitem__, games), layout))
        versions = [version[group[i]] for i, _ in games]
        kept.update(zip(games, zip(versions, full, strict=True), strict=True))
        if len(fresh) == len(costs):
            costs[:] = full
        else:
            for k, c in zip(fresh, full, strict=True):
                costs[k] = c
    bye_node = None
    if bye_ranks is not None:
        bye_node = len(pool)
        for i in sorted(bye_ranks):
            edges.append((i, bye_node))
            costs.append(bye_costs(bye_ranks[i]))
    complete = cast(list[tuple[int, ...]], costs)
    nodes = len(pool) + (bye_node is not None)
    columns = list(zip(*complete, strict=True)) or [(0,)] * len(TIERS)
    maxima = [max(column) for column in columns]
    scales = scales_for([tier_bound(t, m, nodes) for t, m in zip(TIERS, maxima, strict=True)])
    totals = [0] * len(complete)
    for column, scale, most in zip(columns, scales, maxima, strict=True):
        if most:  # tier by tier, over every edge at once (most tiers weigh nothing)
            totals = list(map(add, totals, map(mul, column, repeat(scale))))
    offset = max(totals, default=0) + 1
    return Problem(
        nodes=nodes,
        edges=tuple(edges),
        costs=tuple(complete),
        scales=scales,
        weights=tuple(map(offset.__sub__, totals)),
        bye_node=bye_node,
    )
