"""The weighted matching problem: candidate games with their tier penalties and weights.

Penalties are combined with the tier scales of :mod:`.weights` into one integer weight per
edge (``weight = offset - penalty``, all positive); the bounds behind the scales are taken
from the graph itself, which keeps the numbers small (see :func:`.weights.scales_for`).
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping, Sequence
from dataclasses import dataclass

from addin.core.pairing.field import Field
from addin.core.pairing.structure import Layout, Structure
from addin.core.pairing.weights import (
    TIERS,
    Candidate,
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
    placer = Placer(field, structure)
    placed = placements if placements is not None else Placements()
    version = placed.versions(structure)
    edges: list[tuple[int, int]] = list(pairs)
    costs: list[tuple[int, ...]] = []
    for i, j in edges:
        group = pool[i].group
        kept = placed.costs.get((i, j))
        if kept is not None and kept[0] == version[group]:
            costs.append(kept[1])
            continue
        candidate = Candidate(pool[i], pool[j])
        base = cache.get((i, j))
        if base is None:
            base = cache[(i, j)] = game_costs(candidate, ctx)
        full = base + placer.costs(candidate)
        placed.costs[(i, j)] = (version[group], full)
        costs.append(full)
    bye_node = None
    if bye_ranks is not None:
        bye_node = len(pool)
        for i in sorted(bye_ranks):
            edges.append((i, bye_node))
            costs.append(bye_costs(bye_ranks[i]))
    scales = scales_for(_bounds(costs, len(pool) + (bye_node is not None)))
    totals = [combine(c, scales) for c in costs]
    offset = max(totals, default=0) + 1
    return Problem(
        nodes=len(pool) + (bye_node is not None),
        edges=tuple(edges),
        costs=tuple(costs),
        scales=scales,
        weights=tuple(offset - t for t in totals),
        bye_node=bye_node,
    )


def _bounds(costs: Iterable[tuple[int, ...]], nodes: int) -> list[int]:
    """Data-driven tier bounds: the largest penalty present times what a matching can hold."""
    columns = list(zip(*costs, strict=True)) or [(0,)] * len(TIERS)
    maxima = [max(column) for column in columns]
    return [tier_bound(t, m, nodes) for t, m in zip(TIERS, maxima, strict=True)]
